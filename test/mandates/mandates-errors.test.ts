import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { mandateBody, pendingInvestor, registeredInvestor, twoDistributors } from "../helpers/investors.js";

// Mandates refused: an investor that is not REGISTERED or not the caller's, a foreign bank account, bad fields.
const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

describe("mandates", () => {
  it("need a REGISTERED investor of the caller and one of its own bank accounts", async () => {
    const pending = await pendingInvestor(app, token);
    const notRegistered = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(pending) });
    expect(notRegistered.status).toBe(409);
    expect(notRegistered.body.error.code).toBe("INVALID_STATE");

    const investor = await registeredInvestor(app, token);
    expect((await app.http("POST", "/api/mandates/v1", { token: otherToken, json: mandateBody(investor) })).status).toBe(404);
    const foreignAccount = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, { bank_account_id: pending.bankAccountId }) });
    expect(foreignAccount.status).toBe(400);
    expect(foreignAccount.body.error.details).toEqual([{ path: "bank_account_id", message: `is not a bank account of ${investor.id}: use an id from its bank_accounts`, reason: "bank_account_not_found" }]);
  });

  it.each([
    ["a zero amount", { amount_limit: 0 }, "amount_limit"],
    ["an amount over 1 crore", { amount_limit: 10_000_000.01 }, "amount_limit"],
    ["three decimals", { amount_limit: 100.005 }, "amount_limit"],
    ["an amount as a string", { amount_limit: "5000" }, "amount_limit"],
    ["an unknown type", { mandate_type: "UPI" }, "mandate_type"],
    ["a start in the past", { start_date: "2020-01-01" }, "start_date"],
    ["an end before the start", { end_date: "2020-01-01" }, "end_date"],
    ["more than 40 years", { end_date: "2099-01-01" }, "end_date"],
    ["an unknown field", { frequency: "MONTHLY" }, "frequency"],
  ])("refuse %s", async (_name, change, path) => {
    const investor = await registeredInvestor(app, token);
    const res = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, change) });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await app.prisma.mandate.count({ where: { investorId: investor.id } })).toBe(0);
  });
});
