import { beforeAll, describe, expect, it } from "vitest";
import { assertAwaitingSignedForm, attachSignedForm } from "../../src/domains/broker-changes/broker-changes.service.js";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, signedForm, submittedWetSignature, twoFaBody, wetSignatureBody } from "../helpers/broker-changes.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;
let pendingId = "";
let submittedId = "";
let twoFaId = "";

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
  pendingId = (await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor))).body.id;
  submittedId = await submittedWetSignature(app, ctx);
  twoFaId = (await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor))).body.id;
});

const notFound = { success: false, error: { code: "NOT_FOUND", message: expect.any(String) }, request_id: expect.any(String) };

describe("another distributor's broker change requests", () => {
  it("are 404 to read, read the form of, or reject, exactly like an unknown id", async () => {
    for (const id of [pendingId, submittedId, twoFaId, "bcr_unknown"]) {
      for (const path of [`/api/broker-changes/v1/${id}`, `/api/broker-changes/v1/${id}/image`, `/api/simulation/broker-changes/v1/${id}/reject`]) {
        const res = await app.http("GET", path, { token: ctx.otherToken });
        expect([path, res.status]).toEqual([path, 404]);
        expect(res.body).toEqual(notFound);
      }
    }
    expect(await app.prisma.brokerChange.findUniqueOrThrow({ where: { id: submittedId } })).toMatchObject({ status: "SUBMITTED" });
  });

  it("never appear in another distributor's list, even filtered by the owner's investor", async () => {
    const all = await app.http("GET", "/api/broker-changes/v1", { token: ctx.otherToken });
    expect(all.body).toEqual({ data: [], next_cursor: null });
    const filtered = await app.http("GET", `/api/broker-changes/v1?investor_id=${ctx.investor.id}`, { token: ctx.otherToken });
    expect(filtered.body).toEqual({ data: [], next_cursor: null });
  });

  it("cannot take another distributor's signed form (404 from the precheck and from the attach), storing nothing", async () => {
    await expect(assertAwaitingSignedForm(app.services, ctx.otherCaller, pendingId)).rejects.toMatchObject({ appCode: "NOT_FOUND" });
    await expect(attachSignedForm(app.services, ctx.otherCaller, pendingId, signedForm())).rejects.toMatchObject({ appCode: "NOT_FOUND" });
    expect(await app.prisma.brokerChange.findUniqueOrThrow({ where: { id: pendingId } })).toMatchObject({ status: "PENDING_DOCUMENT" });
    expect(await app.prisma.brokerChangeDocument.count({ where: { brokerChangeId: pendingId } })).toBe(0);
  });
});
