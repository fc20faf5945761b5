import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, wetSignatureBody } from "../helpers/broker-changes.js";
import { liveBytes } from "../helpers/memory.js";
import { filePart, pdfOfSize, repeated, uploadSignedForm } from "../helpers/uploads.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

const MB = 1024 * 1024;

describe("POST /api/broker-changes/v1/{id}/image: memory", () => {
  it("refuses a 100 MB upload (chunked, no length declared) with 413 while the service's memory stays flat", async () => {
    const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
    const id = created.body.id as string;
    // The sender reuses one 1 MB buffer, so what grows is the service's, which shares this process.
    const piece = pdfOfSize(MB);
    const warmUp = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(() => repeated(piece, 12))]);
    expect(warmUp.status).toBe(413);
    // Live memory sampled after collections: RSS also counts what the allocator has not handed back yet and
    // grew past the bound on a loaded machine, while a service that buffered the body would hold 100 MB live.
    const before = liveBytes();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, liveBytes())), 200);
    try {
      for (let i = 0; i < 3; i++) {
        const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(() => repeated(piece, 100))]);
        expect(answer.status).toBe(413);
        expect(answer.body.error.code).toBe("PAYLOAD_TOO_LARGE");
        expect(answer.sentAll).toBe(false);
      }
    } finally {
      clearInterval(sampler);
    }
    expect((peak - before) / MB).toBeLessThan(40);
    expect(await app.prisma.brokerChangeDocument.count({ where: { brokerChangeId: id } })).toBe(0);
    // It measures memory, not time: 300 MB through a loaded machine's loopback may take longer than the default.
  }, 120_000);
});
