import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { assertAwaitingSignedForm, attachSignedForm } from "../../src/domains/broker-changes/broker-changes.service.js";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, SAMPLE_PDF, signedForm, twoFaBody, wetSignatureBody } from "../helpers/broker-changes.js";
import { queuedJobs } from "../helpers/jobs.js";
import { eventNames } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, 7)]);

async function pendingRequest(): Promise<string> {
  const res = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
  expect(res.status).toBe(201);
  return res.body.id;
}

const documentOf = (id: string) => app.prisma.brokerChangeDocument.findUnique({ where: { brokerChangeId: id } });

describe("attachSignedForm (what the upload route calls)", () => {
  it("stores the bytes with their SHA-256, size and type, and moves the request to SUBMITTED with its event and job, answering the record", async () => {
    const id = await pendingRequest();
    await expect(assertAwaitingSignedForm(app.services, ctx.caller, id)).resolves.toBeUndefined();
    const form = signedForm(PNG, "image/png");
    const view = await attachSignedForm(app.services, ctx.caller, id, form);
    expect(view).toMatchObject({
      id, status: "SUBMITTED", auth_mode: "WET_SIGNATURE",
      document: { content_type: "image/png", size: PNG.length, sha256: createHash("sha256").update(PNG).digest("hex"), uploaded_at: expect.any(String) },
    });
    expect(view.updated_at > view.created_at).toBe(true);
    const read = await app.http("GET", `/api/broker-changes/v1/${id}`, { token: ctx.token });
    expect(read.body).toEqual(view);
    const stored = await documentOf(id);
    expect(stored).toMatchObject({ contentType: "image/png", size: PNG.length, sha256: form.sha256 });
    expect(Buffer.from(stored!.bytes).equals(PNG)).toBe(true);
    expect(createHash("sha256").update(stored!.bytes).digest("hex")).toBe(form.sha256);
    expect(await eventNames(app, id)).toEqual(["broker_change.submitted"]);
    expect(await queuedJobs(app, "broker_changes__submit", "broker_change_id", id)).toHaveLength(1);
    // The document's time, the move and the event are one transaction's.
    const event = await app.prisma.event.findFirstOrThrow({ where: { resourceId: id } });
    expect(event.data).toEqual({ broker_change_id: id, status: "SUBMITTED", provider_remark: null });
  });

  it("refuses a second form (409 INVALID_STATE, the first one kept) and a TWO_FA request (409), from the precheck too", async () => {
    const id = await pendingRequest();
    await attachSignedForm(app.services, ctx.caller, id, signedForm());
    const again = attachSignedForm(app.services, ctx.caller, id, signedForm(PNG, "image/png"));
    await expect(again).rejects.toMatchObject({ appCode: "INVALID_STATE", message: `Broker change request ${id} is SUBMITTED; only a PENDING_DOCUMENT request takes a signed form` });
    await expect(assertAwaitingSignedForm(app.services, ctx.caller, id)).rejects.toMatchObject({ appCode: "INVALID_STATE" });
    expect(await documentOf(id)).toMatchObject({ contentType: "application/pdf", size: SAMPLE_PDF.length });
    expect(await eventNames(app, id)).toEqual(["broker_change.submitted"]);

    const twoFa = (await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor))).body.id;
    const message = `Broker change request ${twoFa} is TWO_FA; only a WET_SIGNATURE request takes a signed form`;
    await expect(assertAwaitingSignedForm(app.services, ctx.caller, twoFa)).rejects.toMatchObject({ appCode: "INVALID_STATE", message });
    await expect(attachSignedForm(app.services, ctx.caller, twoFa, signedForm())).rejects.toMatchObject({ appCode: "INVALID_STATE", message });
    expect(await documentOf(twoFa)).toBeNull();
    expect(await eventNames(app, twoFa)).toEqual(["broker_change.submitted"]);
  });

  it("refuses a REJECTED request (409) and an unknown id (404) without writing", async () => {
    const id = await pendingRequest();
    await attachSignedForm(app.services, ctx.caller, id, signedForm());
    expect((await app.http("GET", `/api/simulation/broker-changes/v1/${id}/reject`, { token: ctx.token })).status).toBe(200);
    await expect(assertAwaitingSignedForm(app.services, ctx.caller, id)).rejects.toMatchObject({ appCode: "INVALID_STATE" });
    await expect(assertAwaitingSignedForm(app.services, ctx.caller, "bcr_unknown")).rejects.toMatchObject({ appCode: "NOT_FOUND" });
    await expect(attachSignedForm(app.services, ctx.caller, "bcr_unknown", signedForm())).rejects.toMatchObject({ appCode: "NOT_FOUND" });
    expect(await app.prisma.brokerChangeDocument.count({ where: { brokerChangeId: "bcr_unknown" } })).toBe(0);
  });

  it("never stores bytes whose SHA-256 or size disagree with what the upload computed", async () => {
    const id = await pendingRequest();
    await expect(attachSignedForm(app.services, ctx.caller, id, { ...signedForm(), sha256: "0".repeat(64) })).rejects.toThrow(/SHA-256/);
    await expect(attachSignedForm(app.services, ctx.caller, id, { ...signedForm(), size: 1 })).rejects.toThrow(/size/);
    expect(await documentOf(id)).toBeNull();
    expect(await app.prisma.brokerChange.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "PENDING_DOCUMENT" });
  });

  it("lets exactly one of concurrent uploads win; the others are 409 and store nothing", async () => {
    const id = await pendingRequest();
    const forms = [signedForm(), signedForm(PNG, "image/png"), signedForm(Buffer.concat([SAMPLE_PDF, Buffer.from("%more")])), signedForm()];
    const outcomes = await Promise.allSettled(forms.map((form) => attachSignedForm(app.services, ctx.caller, id, form)));
    const won = outcomes.filter((o) => o.status === "fulfilled");
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost.map((o) => o.reason.appCode)).toEqual(["INVALID_STATE", "INVALID_STATE", "INVALID_STATE"]);
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof attachSignedForm>>>).value;
    expect((await documentOf(id))?.sha256).toBe(winner.document?.sha256);
    expect(await eventNames(app, id)).toEqual(["broker_change.submitted"]);
    expect(await queuedJobs(app, "broker_changes__submit", "broker_change_id", id)).toHaveLength(1);
  });
});

describe("GET /api/broker-changes/v1/{id}/image", () => {
  it("returns the stored bytes with their type, length, an attachment name, no-store and nosniff", async () => {
    const id = await pendingRequest();
    const form = signedForm(PNG, "image/png");
    await attachSignedForm(app.services, ctx.caller, id, form);
    const res = await fetch(`${app.baseUrl}/api/broker-changes/v1/${id}/image`, { headers: { authorization: `Bearer ${ctx.token}` } });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(["content-type", "content-length", "content-disposition", "cache-control", "x-content-type-options", "etag"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "content-type": "image/png",
      "content-length": String(PNG.length),
      "content-disposition": `attachment; filename="${id}.png"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      etag: `"${form.sha256}"`,
    });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("is 404 before a form is uploaded and for a TWO_FA request; 401 without a token; 400 for an unusable id", async () => {
    const pending = await pendingRequest();
    const twoFa = (await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor))).body.id;
    for (const id of [pending, twoFa]) {
      const res = await app.http("GET", `/api/broker-changes/v1/${id}/image`, { token: ctx.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Signed form not found" }, request_id: expect.any(String) });
    }
    const anonymous = await app.http("GET", `/api/broker-changes/v1/${pending}/image`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("UNAUTHORIZED");
    for (const [id, reason] of [["a%00b", "nul_character"], ["x".repeat(65), "too_big"]]) {
      const res = await app.http("GET", `/api/broker-changes/v1/${id}/image`, { token: ctx.token });
      expect([id, res.status, res.body.error.details[0].reason]).toEqual([id, 400, reason]);
    }
  });
});
