import { beforeAll, describe, expect, it } from "vitest";
import { decryptDetails } from "../../src/domains/investors/investors.service.js";
import { registerInvestor } from "../../src/domains/investors/jobs/register.js";
import { sendInvestorChange } from "../../src/domains/investors/jobs/send-change.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody, nomineeBody } from "../helpers/factories.js";
import { pendingInvestor, registeredInvestor, twoDistributors } from "../helpers/investors.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const NEW_CONTACT = { email: "asha.new@example.in", mobile: "9123456789", email_relation: "SELF", mobile_relation: "SELF" };
const NEW_ADDRESS = { line1: "4 Park Street", city: "Kolkata", state_code: "WB", pincode: "700016", country_code: "IN" };

const patch = (id: string, json: unknown, options: { token?: string; key?: string } = {}) =>
  app.http("PATCH", `/api/investors/v1/${id}`, { token: options.token ?? token, json, headers: options.key ? { "idempotency-key": options.key } : {} });

const storedDetails = async (id: string) => decryptDetails(app.services.cipher, await app.prisma.investor.findUniqueOrThrow({ where: { id } }));

const eventsOf = (investorId: string) =>
  app.prisma.event.findMany({ where: { resourceId: investorId }, orderBy: { createdAt: "asc" }, select: { event: true, data: true } });

/** A REGISTERED investor with a pending change of its contact and address, sent to the sandbox exchange by its job. */
async function investorWithPendingChange() {
  const investor = await registeredInvestor(app, token);
  const res = await patch(investor.id, { contact: NEW_CONTACT, address: NEW_ADDRESS });
  expect(res.status).toBe(200);
  const changeId: string = res.body.pending_change.id;
  const [job] = await queuedJobs(app, "investors__send_change", "change_id", changeId);
  expect(job).toMatchObject({ key: `investors__send_change:${changeId}` });
  await runTask(app, sendInvestorChange, { change_id: changeId });
  return { ...investor, changeId, patched: res };
}

describe("PATCH /api/investors/v1/{id}", () => {
  it("changes a PENDING investor in place, and its registration sends the new details", async () => {
    const { id } = await pendingInvestor(app, token);
    const res = await patch(id, { contact: NEW_CONTACT, occupation: "BUSINESS" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: "PENDING",
      contact: { email: "a***@example.in", mobile: "XXXXXX6789", email_relation: "SELF", mobile_relation: "SELF" },
      primary_holder: { occupation: "BUSINESS" },
      pending_change: null,
    });
    expect(res.text).not.toContain("9123456789");
    expect((await storedDetails(id)).contact).toEqual(NEW_CONTACT);
    expect(await app.prisma.investorChange.count({ where: { investorId: id } })).toBe(0);
    await runTask(app, registerInvestor, { investor_id: id });
    const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id } });
    const record = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC", reference: uccCode } } });
    expect(record.payload).toMatchObject({ occupation: "01", contact: { mobile: "XXXXXX6789" } });
  });

  it("a REGISTERED investor gets a pending change and keeps its registered details until the exchange applies it", async () => {
    const { id, changeId, patched } = await investorWithPendingChange();
    const pendingChange = { id: changeId, requested_at: expect.any(String), status: "PENDING", fields: ["contact", "address"], provider_remark: "SANDBOX: AWAITING SIMULATION" };
    expect(patched.body).toMatchObject({ status: "REGISTERED", contact: { mobile: "XXXXXX3210" }, address: { city: "Pune" } });
    expect(changeId).toMatch(/^ich_/);
    const before = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(before.body).toMatchObject({ contact: { mobile: "XXXXXX3210" }, address: { city: "Pune" }, pending_change: pendingChange });
    const row = await app.prisma.investorChange.findUniqueOrThrow({ where: { id: changeId } });
    expect(row.valuesEncrypted).not.toContain("9123456789");
    const booked = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC_CHANGE", reference: changeId } } });
    expect(booked).toMatchObject({ status: "PENDING", payload: { contact: { mobile: "XXXXXX6789" }, fatcaChanged: false } });
    expect(await eventsOf(id)).toEqual([expect.objectContaining({ event: "investor.registered" })]);

    const applied = await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token });
    expect(applied.status).toBe(200);
    expect(applied.body).toEqual({ success: true, message: "Investor change applied", data: changeId });
    const after = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(after.body).toMatchObject({
      contact: { mobile: "XXXXXX6789" },
      address: { line1: "4 Park Street", city: "Kolkata", state_code: "WB", pincode: "700016", line2: null },
      pending_change: { ...pendingChange, status: "APPLIED", provider_remark: "SANDBOX: UCC MODIFICATION APPLIED" },
    });
    expect((await eventsOf(id)).slice(1)).toEqual([{ event: "investor.updated", data: { investor_id: id, change_id: changeId, fields: ["contact", "address"] } }]);
    // The job, run again, finds the change decided.
    await runTask(app, sendInvestorChange, { change_id: changeId });
    expect(await eventsOf(id)).toHaveLength(2);
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token })).status).toBe(409);
  });

  it("a rejected change leaves the details as registered, with the remark (PANs masked) and investor.update_rejected", async () => {
    const { id, changeId } = await investorWithPendingChange();
    const res = await app.http("GET", `/api/simulation/investors/v1/${id}/reject-change?remark=${encodeURIComponent("ADDRESS PROOF MISMATCH FOR ABCDE1234F")}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Investor change rejected", data: changeId });
    const after = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(after.body).toMatchObject({ address: { city: "Pune" }, pending_change: { id: changeId, status: "REJECTED", provider_remark: "ADDRESS PROOF MISMATCH FOR ABXXXXX34F" } });
    expect((await eventsOf(id)).slice(1)).toEqual([
      { event: "investor.update_rejected", data: { investor_id: id, change_id: changeId, provider_remark: "ADDRESS PROOF MISMATCH FOR ABXXXXX34F" } },
    ]);
    // Decided, the investor can be changed again.
    expect((await patch(id, { occupation: "BUSINESS" })).body.pending_change).toMatchObject({ status: "PENDING", fields: ["occupation"] });
  });

  it("one change at a time: a second while one is PENDING is 409 INVALID_STATE", async () => {
    const { id, changeId } = await investorWithPendingChange();
    const second = await patch(id, { occupation: "BUSINESS" });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("INVALID_STATE");
    expect(second.body.error.message).toContain(changeId);
    expect(await app.prisma.investorChange.count({ where: { investorId: id } })).toBe(1);
  });

  it("refuses PAN, tax status, holding type and identities (field_not_allowed), unknown fields, an empty body and broken rules", async () => {
    const { id } = await pendingInvestor(app, token);
    const refused = await patch(id, { pan: "ABCDE1234F", tax_status: "NRI", holding_type: "JOINT", primary_holder: { name: "Asha R" }, contact: NEW_CONTACT });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("VALIDATION_ERROR");
    const details = refused.body.error.details as Array<{ path: string; reason: string; message: string }>;
    expect(details.map((d) => [d.path, d.reason])).toEqual([
      ["pan", "field_not_allowed"],
      ["primary_holder", "field_not_allowed"],
      ["tax_status", "field_not_allowed"],
      ["holding_type", "field_not_allowed"],
    ]);
    expect(details[0]!.message).toContain("a new registration");
    expect(refused.text).not.toContain("ABCDE1234F");

    const unknown = await patch(id, { contact: NEW_CONTACT, nickname: "A" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([{ path: "nickname", reason: "unknown_field", message: expect.any(String) }]);
    const empty = await patch(id, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([{ path: "", reason: "required", message: expect.stringContaining("contact, address") }]);
    const badShape = await patch(id, { contact: { ...NEW_CONTACT, mobile: "12" } });
    expect(badShape.body.error.details).toEqual([expect.objectContaining({ path: "contact.mobile", reason: "invalid_format" })]);
    const badRule = await patch(id, { nominees: [nomineeBody({ percentage: 60 })], address: { ...NEW_ADDRESS, pincode: "0123456" } });
    expect(badRule.status).toBe(400);
    expect(badRule.body.error.details.map((d: { path: string; reason: string }) => [d.path, d.reason])).toEqual([
      ["nominees", "rule_violated"],
      ["address.pincode", "invalid_format"],
    ]);
    expect((await storedDetails(id)).contact.mobile).toBe("9876543210");
  });

  it("another distributor's investor and an unknown id are 404; a REJECTED investor is 409", async () => {
    const { id } = await pendingInvestor(app, token);
    for (const [path, t] of [[id, otherToken], ["inv_nope", token]] as const) {
      const res = await patch(path, { occupation: "BUSINESS" }, { token: t });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token: otherToken })).status).toBe(404);
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token })).status).toBe(409);
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/reject`, { token })).status).toBe(200);
    expect((await patch(id, { occupation: "BUSINESS" })).status).toBe(409);
  });

  it("an Idempotency-Key replays the first answer and makes one change; the same key with another body is 409", async () => {
    const { id } = await registeredInvestor(app, token, investorBody());
    const first = await patch(id, { fatca: { ...investorBody().fatca, income_slab: "35" } }, { key: "patch-1" });
    const again = await patch(id, { fatca: { ...investorBody().fatca, income_slab: "35" } }, { key: "patch-1" });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await app.prisma.investorChange.count({ where: { investorId: id } })).toBe(1);
    const other = await patch(id, { occupation: "BUSINESS" }, { key: "patch-1" });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("CONFLICT");
  });
});
