import { beforeAll, describe, expect, it } from "vitest";
import { sendInvestorChange } from "../../src/domains/investors/jobs/send-change.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { pendingInvestor, registeredInvestor, registeredMandate, twoDistributors } from "../helpers/investors.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { createOpenScheme, lumpsumOrder, placedOrder } from "../helpers/orders.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const account = (n: number, overrides: Record<string, unknown> = {}) => ({
  account_type: "SB",
  account_number: `9900112233${String(n).padStart(4, "0")}`,
  ifsc: "ICIC0000001",
  is_primary: false,
  ...overrides,
});

const add = (id: string, json: unknown, options: { token?: string; key?: string } = {}) =>
  app.http("POST", `/api/investors/v1/${id}/bank-accounts`, { token: options.token ?? token, json, headers: options.key ? { "idempotency-key": options.key } : {} });
const remove = (id: string, bankAccountId: string, options: { token?: string } = {}) =>
  app.http("DELETE", `/api/investors/v1/${id}/bank-accounts/${bankAccountId}`, { token: options.token ?? token });

describe("POST /api/investors/v1/{id}/bank-accounts", () => {
  it("adds a bank account to a PENDING investor at once, masked; a primary one takes the primary's place", async () => {
    const { id, bankAccountId } = await pendingInvestor(app, token);
    const res = await add(id, account(1, { is_primary: true }), { key: "bank-add-1" });
    expect(res.status).toBe(200);
    expect(res.body.pending_change).toBeNull();
    expect(res.body.bank_accounts).toEqual([
      { id: bankAccountId, account_type: "SB", account_number: "XXXXXXXX7890", ifsc: "HDFC0001234", is_primary: false },
      { id: expect.stringMatching(/^bnk_/), account_type: "SB", account_number: "XXXXXXXX0001", ifsc: "ICIC0000001", is_primary: true },
    ]);
    expect(res.text).not.toContain("99001122330001");
    const row = await app.prisma.bankAccount.findUniqueOrThrow({ where: { id: res.body.bank_accounts[1].id } });
    expect(row.accountNumberEncrypted).not.toContain("99001122330001");
    const again = await add(id, account(1, { is_primary: true }), { key: "bank-add-1" });
    expect(again.body).toEqual(res.body);
    expect(await app.prisma.bankAccount.count({ where: { investorId: id } })).toBe(2);
  });

  it("a REGISTERED investor gets a pending change, keeps its accounts until the exchange applies it, then has the new one", async () => {
    const { id, bankAccountId } = await registeredInvestor(app, token);
    const res = await add(id, account(2));
    expect(res.status).toBe(200);
    expect(res.body.bank_accounts).toHaveLength(1);
    expect(res.body.pending_change).toMatchObject({ status: "PENDING", fields: ["bank_accounts"] });
    const changeId: string = res.body.pending_change.id;
    const row = await app.prisma.investorChange.findUniqueOrThrow({ where: { id: changeId } });
    expect(row.valuesEncrypted).not.toContain("99001122330002");
    await queuedJobs(app, "investors__send_change", "change_id", changeId);
    await runTask(app, sendInvestorChange, { change_id: changeId });
    expect((await add(id, account(3))).status).toBe(409);
    expect((await remove(id, bankAccountId)).status).toBe(409);
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token })).status).toBe(200);
    const after = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(after.body.bank_accounts).toEqual([
      expect.objectContaining({ id: bankAccountId, is_primary: true }),
      expect.objectContaining({ account_number: "XXXXXXXX0002", is_primary: false }),
    ]);
    expect(after.body.pending_change).toMatchObject({ id: changeId, status: "APPLIED" });

    // A removal the same way.
    const removed = await remove(id, after.body.bank_accounts[1].id);
    expect(removed.status).toBe(200);
    expect(removed.body.bank_accounts).toHaveLength(2);
    await runTask(app, sendInvestorChange, { change_id: removed.body.pending_change.id });
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token })).status).toBe(200);
    expect((await app.http("GET", `/api/investors/v1/${id}`, { token })).body.bank_accounts).toEqual([expect.objectContaining({ id: bankAccountId })]);
  });

  it("refuses a sixth account (409 INVALID_STATE)", async () => {
    const { id } = await pendingInvestor(app, token);
    for (const n of [11, 12, 13, 14]) expect((await add(id, account(n))).status).toBe(200);
    const sixth = await add(id, account(15));
    expect(sixth.status).toBe(409);
    expect(sixth.body.error.code).toBe("INVALID_STATE");
    expect(await app.prisma.bankAccount.count({ where: { investorId: id } })).toBe(5);
  });

  it("refuses bad input with field paths: shape, unknown fields, a type not for the tax status, an account it has", async () => {
    const { id } = await pendingInvestor(app, token);
    const shape = await add(id, { account_type: "SB", account_number: "12", ifsc: "nope", is_primary: false, nickname: "x" });
    expect(shape.status).toBe(400);
    expect(shape.body.error.code).toBe("VALIDATION_ERROR");
    expect(shape.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["account_number", "ifsc", "nickname"]);
    const nre = await add(id, account(21, { account_type: "NE" }));
    expect(nre.status).toBe(400);
    expect(nre.body.error.details).toEqual([expect.objectContaining({ path: "account_type", reason: "invalid_value" })]);
    const twice = await add(id, { account_type: "SB", account_number: "001234567890", ifsc: "HDFC0001234", is_primary: false });
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([expect.objectContaining({ path: "account_number", reason: "duplicate" })]);
  });

  it("another distributor's investor and an unknown id are 404", async () => {
    const { id, bankAccountId } = await pendingInvestor(app, token);
    expect((await add(id, account(31), { token: otherToken })).status).toBe(404);
    expect((await add("inv_nope", account(31))).status).toBe(404);
    expect((await remove(id, bankAccountId, { token: otherToken })).status).toBe(404);
    const other = await pendingInvestor(app, otherToken);
    const stranger = await remove(id, other.bankAccountId);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error.code).toBe("NOT_FOUND");
  });
});

describe("DELETE /api/investors/v1/{id}/bank-accounts/{bank_account_id}", () => {
  it("refuses the only account", async () => {
    const { id, bankAccountId } = await pendingInvestor(app, token);
    const res = await remove(id, bankAccountId);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("INVALID_STATE");
  });

  it("refuses an account a mandate names", async () => {
    const investor = await registeredInvestor(app, token, investorBody());
    await registeredMandate(app, token, investor);
    const added = await add(investor.id, account(41));
    await runTask(app, sendInvestorChange, { change_id: added.body.pending_change.id });
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
    const res = await remove(investor.id, investor.bankAccountId);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("INVALID_STATE");
    expect(res.body.error.message).toContain("mandate");
  });

  it("refuses an account a PENDING or ACCEPTED order names, and allows it once the order is done", async () => {
    const investor = await registeredInvestor(app, token);
    const added = await add(investor.id, account(61));
    await runTask(app, sendInvestorChange, { change_id: added.body.pending_change.id });
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
    await createOpenScheme(app, "BNK61");
    const orderId = await placedOrder(app, { token, account: investor.account }, lumpsumOrder("BNK61"));
    await app.prisma.order.update({ where: { id: orderId }, data: { bankAccountId: investor.bankAccountId } });
    const res = await remove(investor.id, investor.bankAccountId);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain("order");
    await app.prisma.order.update({ where: { id: orderId }, data: { status: "CANCELLED" } });
    expect((await remove(investor.id, investor.bankAccountId)).status).toBe(200);
  });

  it("removes a PENDING investor's account at once (the row stays, marked removed); removing the primary makes the oldest left primary", async () => {
    const { id, bankAccountId } = await pendingInvestor(app, token);
    const added = await add(id, account(51));
    const res = await remove(id, bankAccountId);
    expect(res.status).toBe(200);
    expect(res.body.bank_accounts).toEqual([{ id: added.body.bank_accounts[1].id, account_type: "SB", account_number: "XXXXXXXX0051", ifsc: "ICIC0000001", is_primary: true }]);
    const row = await app.prisma.bankAccount.findUniqueOrThrow({ where: { id: bankAccountId } });
    expect([row.removedAt instanceof Date, row.isPrimary]).toEqual([true, false]);
  });
});
