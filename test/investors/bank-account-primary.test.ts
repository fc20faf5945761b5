import { beforeAll, describe, expect, it } from "vitest";
import { sendInvestorChange } from "../../src/domains/investors/jobs/send-change.js";
import { useTestApp } from "../helpers/app.js";
import { pendingInvestor, registeredInvestor, twoDistributors, type TestInvestor } from "../helpers/investors.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const SECOND = { account_type: "SB", account_number: "88001122330001", ifsc: "ICIC0000001", is_primary: false };

const patch = (id: string, json: unknown, options: { token?: string; key?: string } = {}) =>
  app.http("PATCH", `/api/investors/v1/${id}`, { token: options.token ?? token, json, headers: options.key ? { "idempotency-key": options.key } : {} });
const primaries = async (investorId: string) =>
  (await app.prisma.bankAccount.findMany({ where: { investorId, isPrimary: true }, select: { id: true } })).map((a) => a.id);

/** An investor (PENDING, or REGISTERED with the exchange having applied the addition) with a second, not primary, bank account. */
async function twoAccountInvestor(registered: boolean): Promise<TestInvestor & { secondId: string }> {
  const investor = registered ? await registeredInvestor(app, token) : await pendingInvestor(app, token);
  const added = await app.http("POST", `/api/investors/v1/${investor.id}/bank-accounts`, { token, json: SECOND });
  if (registered) {
    await runTask(app, sendInvestorChange, { change_id: added.body.pending_change.id });
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
  }
  const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
  return { ...investor, secondId: view.body.bank_accounts[1].id };
}

describe("PATCH /api/investors/v1/{id} with bank_accounts (the primary flag)", () => {
  it("moves a PENDING investor's primary at once, masked; an Idempotency-Key replays the answer", async () => {
    const investor = await twoAccountInvestor(false);
    const res = await patch(investor.id, { bank_accounts: [{ id: investor.secondId, is_primary: true }] }, { key: "primary-1" });
    expect(res.status).toBe(200);
    expect(res.body.pending_change).toBeNull();
    expect(res.body.bank_accounts).toEqual([
      { id: investor.bankAccountId, account_type: "SB", account_number: "XXXXXXXX7890", ifsc: "HDFC0001234", is_primary: false },
      { id: investor.secondId, account_type: "SB", account_number: "XXXXXXXX0001", ifsc: "ICIC0000001", is_primary: true },
    ]);
    expect(res.text).not.toContain("88001122330001");
    expect(await primaries(investor.id)).toEqual([investor.secondId]);
    const again = await patch(investor.id, { bank_accounts: [{ id: investor.secondId, is_primary: true }] }, { key: "primary-1" });
    expect([again.status, again.body]).toEqual([200, res.body]);
    const other = await patch(investor.id, { bank_accounts: [{ id: investor.bankAccountId, is_primary: true }] }, { key: "primary-1" });
    expect(other.status).toBe(409);
  });

  it("a REGISTERED investor gets a pending change (fields bank_accounts) and keeps its primary until the exchange applies it", async () => {
    const investor = await twoAccountInvestor(true);
    const body = { bank_accounts: [{ id: investor.bankAccountId, is_primary: false }, { id: investor.secondId, is_primary: true }] };
    const res = await patch(investor.id, body, { key: "primary-2" });
    expect(res.status).toBe(200);
    expect(res.body.pending_change).toMatchObject({ status: "PENDING", fields: ["bank_accounts"], provider_remark: null });
    expect(res.body.bank_accounts.map((a: { is_primary: boolean }) => a.is_primary)).toEqual([true, false]);
    const changeId: string = res.body.pending_change.id;
    expect(await queuedJobs(app, "investors__send_change", "change_id", changeId)).toHaveLength(1);
    expect((await patch(investor.id, body, { key: "primary-2" })).body).toEqual(res.body);
    expect(await app.prisma.investorChange.count({ where: { investorId: investor.id, fields: { has: "bank_accounts" } } })).toBe(2);

    await runTask(app, sendInvestorChange, { change_id: changeId });
    expect(await primaries(investor.id)).toEqual([investor.bankAccountId]);
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
    const after = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
    expect(after.body.bank_accounts.map((a: { id: string; is_primary: boolean }) => [a.id, a.is_primary])).toEqual([
      [investor.bankAccountId, false],
      [investor.secondId, true],
    ]);
    expect(after.body.pending_change).toMatchObject({ id: changeId, status: "APPLIED" });
    const event = await app.prisma.event.findFirstOrThrow({ where: { resourceId: investor.id, event: "investor.updated", data: { path: ["change_id"], equals: changeId } } });
    expect(event.data).toEqual({ investor_id: investor.id, change_id: changeId, fields: ["bank_accounts"] });
  });

  it("refuses an unknown or removed id, an id twice, other fields, and anything but exactly one primary (400 with field paths)", async () => {
    const investor = await twoAccountInvestor(false);
    const unknown = await patch(investor.id, { bank_accounts: [{ id: "bnk_nope", is_primary: true }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([{ path: "bank_accounts[0].id", reason: "bank_account_not_found", message: expect.any(String) }]);
    const twice = await patch(investor.id, { bank_accounts: [{ id: investor.secondId, is_primary: true }, { id: investor.secondId, is_primary: false }] });
    expect(twice.body.error.details).toEqual([{ path: "bank_accounts[1].id", reason: "duplicate", message: "is listed twice" }]);
    const twoPrimaries = await patch(investor.id, { bank_accounts: [{ id: investor.bankAccountId, is_primary: true }, { id: investor.secondId, is_primary: true }] });
    expect(twoPrimaries.status).toBe(400);
    expect(twoPrimaries.body.error.details).toEqual([{ path: "bank_accounts", reason: "rule_violated", message: expect.stringContaining("exactly one bank account must be primary") }]);
    const none = await patch(investor.id, { bank_accounts: [{ id: investor.bankAccountId, is_primary: false }] });
    expect(none.body.error.details).toEqual([expect.objectContaining({ path: "bank_accounts", reason: "rule_violated" })]);
    const otherField = await patch(investor.id, { bank_accounts: [{ id: investor.secondId, is_primary: true, ifsc: "ICIC0000002" }] });
    expect(otherField.body.error.details).toEqual([expect.objectContaining({ path: "bank_accounts[0].ifsc", reason: "unknown_field" })]);
    expect(await primaries(investor.id)).toEqual([investor.bankAccountId]);
    expect((await patch(investor.id, { bank_accounts: [{ id: investor.secondId, is_primary: false }] })).status).toBe(200);

    expect((await app.http("DELETE", `/api/investors/v1/${investor.id}/bank-accounts/${investor.bankAccountId}`, { token })).status).toBe(200);
    const removed = await patch(investor.id, { bank_accounts: [{ id: investor.bankAccountId, is_primary: true }, { id: investor.secondId, is_primary: false }] });
    expect(removed.body.error.details).toEqual([expect.objectContaining({ path: "bank_accounts[0].id", reason: "bank_account_not_found" })]);
  });

  it("another distributor's investor is 404", async () => {
    const investor = await twoAccountInvestor(false);
    const res = await patch(investor.id, { bank_accounts: [{ id: investor.secondId, is_primary: true }] }, { token: otherToken });
    expect([res.status, res.body.error.code]).toEqual([404, "NOT_FOUND"]);
    expect(await primaries(investor.id)).toEqual([investor.bankAccountId]);
  });
});
