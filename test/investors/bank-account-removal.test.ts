import { beforeAll, describe, expect, it } from "vitest";
import { sendInvestorChange } from "../../src/domains/investors/jobs/send-change.js";
import { useTestApp } from "../helpers/app.js";
import { mandateBody, registeredInvestor, twoDistributors, type TestInvestor } from "../helpers/investors.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedLink, LINK_SCHEME, lumpsumProposal, publicPath } from "../helpers/order-links.js";
import { acceptedOrder, createOpenScheme, lumpsumOrder, placedOrder } from "../helpers/orders.js";

const app = useTestApp();
let token = "";

beforeAll(async () => {
  ({ token } = await twoDistributors(app));
  await createOpenScheme(app, "BRM01");
});

const SECOND = { account_type: "SB", account_number: "77001122330001", ifsc: "ICIC0000001", is_primary: false };

const applyChange = async (investorId: string, changeId: string) => {
  await runTask(app, sendInvestorChange, { change_id: changeId });
  expect((await app.http("GET", `/api/simulation/investors/v1/${investorId}/apply-change`, { token })).status).toBe(200);
};

/** A REGISTERED investor with a second bank account (the exchange applied it); the second account's id. */
async function twoAccountInvestor(): Promise<TestInvestor & { secondId: string }> {
  const investor = await registeredInvestor(app, token);
  const added = await app.http("POST", `/api/investors/v1/${investor.id}/bank-accounts`, { token, json: SECOND });
  await applyChange(investor.id, added.body.pending_change.id);
  const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
  return { ...investor, secondId: view.body.bank_accounts[1].id };
}

const remove = (investorId: string, bankAccountId: string) =>
  app.http("DELETE", `/api/investors/v1/${investorId}/bank-accounts/${bankAccountId}`, { token, headers: { "idempotency-key": `rm-${bankAccountId}` } });
const placeOrder = (investor: TestInvestor, bankAccountId: string) =>
  app.http("POST", "/api/orders/v1/", { token, json: { investment_account_id: investor.account, ...lumpsumOrder("BRM01"), bank_account_id: bankAccountId } });
const createMandate = (investor: TestInvestor, bankAccountId: string) =>
  app.http("POST", "/api/mandates/v1", { token, json: mandateBody({ id: investor.id, bankAccountId }) });

describe("a removed bank account (soft removal)", () => {
  it("an ALLOTTED order naming it reads the same after; the investor no longer shows it; new orders and mandates naming it are 400", async () => {
    const investor = await twoAccountInvestor();
    const orderId = await acceptedOrder(app, { token, account: investor.account }, { ...lumpsumOrder("BRM01"), bank_account_id: investor.secondId });
    expect((await app.http("GET", `/api/simulation/orders/v1/${orderId}/allot`, { token })).status).toBe(200);
    const before = await app.http("GET", `/api/orders/v1/${orderId}`, { token });
    expect([before.status, before.body.status, before.body.bank_account_id]).toEqual([200, "ALLOTTED", investor.secondId]);

    const removed = await remove(investor.id, investor.secondId);
    expect(removed.status).toBe(200);
    expect((await remove(investor.id, investor.secondId)).body).toEqual(removed.body);
    await applyChange(investor.id, removed.body.pending_change.id);

    const after = await app.http("GET", `/api/orders/v1/${orderId}`, { token });
    expect([after.status, after.body]).toEqual([200, before.body]);
    const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
    expect(view.body.bank_accounts.map((a: { id: string }) => a.id)).toEqual([investor.bankAccountId]);
    expect(view.text).not.toContain("77001122330001");
    const row = await app.prisma.bankAccount.findUniqueOrThrow({ where: { id: investor.secondId } });
    expect([row.removedAt instanceof Date, row.isPrimary, row.removalChangeId]).toEqual([true, false, removed.body.pending_change.id]);

    const order = await placeOrder(investor, investor.secondId);
    expect(order.status).toBe(400);
    expect(order.body.error.details).toEqual([expect.objectContaining({ path: "bank_account_id", reason: "bank_account_not_found" })]);
    const mandate = await createMandate(investor, investor.secondId);
    expect(mandate.status).toBe(400);
    expect(mandate.body.error.details).toEqual([expect.objectContaining({ path: "bank_account_id", reason: "bank_account_not_found" })]);
    expect((await app.http("DELETE", `/api/investors/v1/${investor.id}/bank-accounts/${investor.secondId}`, { token })).status).toBe(404);
  });
});

describe("a removal the exchange has not yet decided", () => {
  it("refuses a new order or mandate naming the account (400 on bank_account_id, saying it is being removed)", async () => {
    const investor = await twoAccountInvestor();
    const removed = await remove(investor.id, investor.secondId);
    expect(removed.body.pending_change).toMatchObject({ status: "PENDING", fields: ["bank_accounts"] });
    for (const res of [await placeOrder(investor, investor.secondId), await createMandate(investor, investor.secondId)]) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details).toEqual([{ path: "bank_account_id", reason: "rule_violated", message: expect.stringContaining("is being removed") }]);
    }
    expect(await app.prisma.mandate.count({ where: { bankAccountId: investor.secondId } })).toBe(0);
    expect((await placeOrder(investor, investor.bankAccountId)).status).toBe(201);
  });

  it("refuses paying an order link by net banking from the account (400 on bank_account_id)", async () => {
    const investor = await twoAccountInvestor();
    await createOpenScheme(app, LINK_SCHEME);
    const { linkId } = await acceptedLink(app, token, lumpsumProposal(investor));
    await remove(investor.id, investor.secondId);
    const res = await app.http("POST", publicPath(linkId, "pay"), { token, json: { mode: "NETBANKING", bank_account_id: investor.secondId } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "bank_account_id", reason: "rule_violated", message: expect.stringContaining("is being removed") }]);
    expect(await app.prisma.payment.count({ where: { bankAccountId: investor.secondId } })).toBe(0);
  });

  it("the job rejects the removal, unsent, when an order came to name the account meanwhile", async () => {
    const investor = await twoAccountInvestor();
    const removed = await remove(investor.id, investor.secondId);
    const changeId: string = removed.body.pending_change.id;
    // What a placement racing the removal would leave: a live order naming the account.
    const orderId = await placedOrder(app, { token, account: investor.account }, lumpsumOrder("BRM01"));
    await app.prisma.order.update({ where: { id: orderId }, data: { bankAccountId: investor.secondId } });
    await runTask(app, sendInvestorChange, { change_id: changeId });
    const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
    const remark = `bank account ${investor.secondId} is named by a PENDING or ACCEPTED order placed while its removal was pending; it was not removed`;
    expect(view.body.pending_change).toMatchObject({ id: changeId, status: "REJECTED", provider_remark: remark });
    expect(view.body.bank_accounts).toHaveLength(2);
    const event = await app.prisma.event.findFirstOrThrow({ where: { resourceId: investor.id, event: "investor.update_rejected" } });
    expect(event.data).toEqual({ investor_id: investor.id, change_id: changeId, provider_remark: remark });
    expect((await app.prisma.bankAccount.findUniqueOrThrow({ where: { id: investor.secondId } })).removedAt).toBeNull();
  });

  it("the exchange's answer is checked again: a mandate made meanwhile keeps the account and rejects the change", async () => {
    const investor = await twoAccountInvestor();
    const removed = await remove(investor.id, investor.secondId);
    const changeId: string = removed.body.pending_change.id;
    await runTask(app, sendInvestorChange, { change_id: changeId });
    // What a mandate racing the removal would leave.
    const mandate = await createMandate(investor, investor.bankAccountId);
    await app.prisma.mandate.update({ where: { id: mandate.body.id }, data: { bankAccountId: investor.secondId } });
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
    const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
    expect(view.body.pending_change).toMatchObject({ status: "REJECTED", provider_remark: expect.stringContaining("is named by a mandate made while its removal was pending") });
    expect(view.body.bank_accounts.map((a: { id: string }) => a.id)).toEqual([investor.bankAccountId, investor.secondId]);
    expect(await app.prisma.event.count({ where: { resourceId: investor.id, event: "investor.updated", data: { path: ["change_id"], equals: changeId } } })).toBe(0);
  });
});
