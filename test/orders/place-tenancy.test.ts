import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { pendingInvestor } from "../helpers/investors.js";
import { createRuleSchemes, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";

// Whose account an order may be placed on.
const app = useTestApp();
let token = "";
let otherToken = "";
let account = "";

beforeAll(async () => {
  await createRuleSchemes(app);
  ({ token, otherToken, account } = await orderingInvestor(app));
});

const place = (json: Record<string, unknown>, options: { token?: string; path?: string } = {}) =>
  app.http("POST", options.path ?? "/api/orders/v1/", { token: options.token ?? token, json: { investment_account_id: account, ...json } });

const lumpsum = (overrides: Record<string, unknown> = {}) => lumpsumOrder("900001", overrides);

describe("POST /api/orders/v1/ and tenancy", () => {
  it("needs the caller's own account and a REGISTERED investor", async () => {
    expect((await place(lumpsum(), { token: otherToken })).status).toBe(404);
    const pending = await pendingInvestor(app, token);
    const res = await place({ ...lumpsum(), investment_account_id: pending.account });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ path: "investment_account_id", reason: "investor_not_registered" }));
  });
});
