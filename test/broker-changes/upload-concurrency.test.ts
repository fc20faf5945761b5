import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, wetSignatureBody } from "../helpers/broker-changes.js";
import { filePart, pdfOfSize, pngOfSize, sha256, uploadSignedForm } from "../helpers/uploads.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

describe("POST /api/broker-changes/v1/{id}/image: concurrent uploads", () => {
  it("two uploads for one request at once: one 200, the other 409 INVALID_STATE; one form stored, one event", async () => {
    for (let round = 0; round < 3; round++) {
      const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
      const id = created.body.id as string;
      const forms = [pdfOfSize(2 * 1024 * 1024), pngOfSize(2 * 1024 * 1024)];
      // Both pass the state check before their bodies arrive; the row lock decides.
      const answers = await Promise.all(forms.map((form) => uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(form)], { sliceBytes: 256 * 1024, pauseMs: 10 })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const loser = answers.find((a) => a.status === 409)!;
      expect(loser.body.error.code).toBe("INVALID_STATE");
      const winner = forms[answers.findIndex((a) => a.status === 200)]!;
      const stored = await app.prisma.brokerChangeDocument.findMany({ where: { brokerChangeId: id } });
      expect(stored.map((d) => d.sha256)).toEqual([sha256(winner)]);
      const events = await app.prisma.event.findMany({ where: { resourceType: "broker_change", resourceId: id } });
      expect(events.map((e) => e.event)).toEqual(["broker_change.submitted"]);
    }
  });
});
