import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, wetSignatureBody } from "../helpers/broker-changes.js";
import { filePart, pdfOfSize, uploadSignedForm } from "../helpers/uploads.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

describe("POST /api/broker-changes/v1/{id}/image: tenancy and the request budget", () => {
  it("404 for another distributor's request, before its body is read; the owner can still upload", async () => {
    const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
    const id = created.body.id as string;
    const foreign = await uploadSignedForm(app.baseUrl, ctx.otherToken, id, [filePart(pdfOfSize(3 * 1024 * 1024))], { sliceBytes: 64 * 1024, pauseMs: 20 });
    expect({ status: foreign.status, body: foreign.body }).toEqual({
      status: 404,
      body: { success: false, error: { code: "NOT_FOUND", message: foreign.body.error.message }, request_id: foreign.headers["x-request-id"] },
    });
    expect(foreign.body.error.message).not.toContain(ctx.investor.id);
    expect(foreign.sentAll).toBe(false);
    expect(await app.prisma.brokerChangeDocument.count({ where: { brokerChangeId: id } })).toBe(0);

    const own = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(pdfOfSize(1000))]);
    expect(own.status).toBe(200);
  });

  it("spends one request of the API client's budget; 429 with Retry-After once it is spent", async () => {
    const d = await app.newDistributor();
    const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
    const first = await uploadSignedForm(app.baseUrl, d.token, created.body.id, [filePart(pdfOfSize(100))]);
    expect(first.status).toBe(404);
    const remaining = Number(first.headers["ratelimit-remaining"]);
    expect(first.headers["ratelimit-limit"]).toBe(String(app.config.rateLimit.burst));
    for (let i = 0; i <= remaining; i++) app.services.budget.take(d.client_id);
    const limited = await uploadSignedForm(app.baseUrl, d.token, created.body.id, [filePart(pdfOfSize(100))]);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
  });
});
