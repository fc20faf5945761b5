import { expect } from "vitest";
import { dispatchOrder } from "../../src/orders/jobs/dispatch.js";
import { todayInIndia } from "../../src/lib/india-date.js";
import type { Prisma } from "../../src/db/client.js";
import type { TestApp } from "./app.js";
import { runTask } from "./jobs.js";
import { registeredInvestor, registeredMandate, twoDistributors } from "./investors.js";

/** Today in India, the service's "today". */
export const today = () => todayInIndia();
/** The date in India `days` from now. */
export const dayPlus = (days: number) => todayInIndia(new Date(Date.now() + days * 86_400_000));

/** A scheme row: open for purchases, SIPs and redemptions without minimums unless `fields` says otherwise. */
export async function createScheme(app: TestApp, schemeCode: string, fields: Partial<Prisma.SchemeUncheckedCreateInput> = {}) {
  await app.prisma.scheme.create({
    data: { schemeCode, name: `Test Scheme ${schemeCode}`, amcCode: "TEST_AMC", amcName: "Test Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes", ...fields },
  });
}

/** A scheme open for purchases, SIPs and redemptions, without minimums. */
export const createOpenScheme = (app: TestApp, schemeCode: string, name = `Test Scheme ${schemeCode}`) => createScheme(app, schemeCode, { name });

/**
 * The schemes whose trading rules the order tests exercise: 900001 with minimums and multiples,
 * 900002 in steps of 500, 900003 closed to purchases and SIPs, 900004 closed to SIPs and redemptions.
 */
export async function createRuleSchemes(app: TestApp) {
  const SCHEMES = [
    { code: "900001", purchase: true, sip: true, redeem: true, minPurchase: "5000.00", multiple: "1.00", minAdditional: "1000.00", minSip: "500.00", sipMultiple: "100.00", minRedemption: "1000.00" },
    { code: "900002", purchase: true, sip: true, redeem: true, minPurchase: "500.00", multiple: "500.00", minAdditional: "500.00", minSip: "500.00", sipMultiple: "500.00", minRedemption: null },
    { code: "900003", purchase: false, sip: false, redeem: true, minPurchase: null, multiple: null, minAdditional: null, minSip: null, sipMultiple: null, minRedemption: null },
    { code: "900004", purchase: true, sip: false, redeem: false, minPurchase: "100.00", multiple: null, minAdditional: null, minSip: null, sipMultiple: null, minRedemption: null },
  ];
  for (const s of SCHEMES) {
    await createScheme(app, s.code, {
      purchaseAllowed: s.purchase, sipAllowed: s.sip, redemptionAllowed: s.redeem,
      minPurchaseAmount: s.minPurchase, purchaseMultiple: s.multiple, minAdditionalAmount: s.minAdditional,
      minSipAmount: s.minSip, sipMultiple: s.sipMultiple, minRedemptionAmount: s.minRedemption, nav: "12.3456", navDate: new Date("2026-11-20"),
    });
  }
}

/** A LUMPSUM_PURCHASE order body (FRESH, 5,000) in `schemeCode`; the caller adds the account. */
export const lumpsumOrder = (schemeCode: string, overrides: Record<string, unknown> = {}) =>
  ({ order_type: "LUMPSUM_PURCHASE", scheme_code: schemeCode, amount: 5000, purchase_type: "FRESH", ...overrides });

/**
 * A distributor with a REGISTERED investor (and, with `mandate`, a REGISTERED mandate of limit
 * 50,000), plus a second distributor for tenancy checks.
 */
export async function orderingInvestor(app: TestApp, options: { mandate?: boolean } = {}) {
  const { token, otherToken } = await twoDistributors(app);
  const investor = await registeredInvestor(app, token);
  const mandateId = options.mandate ? await registeredMandate(app, token, investor) : "";
  return { token, otherToken, investorId: investor.id, account: investor.account, mandateId };
}

/** Places an order on `ctx`'s account with `ctx`'s token (201 asserted); its id. */
export async function placedOrder(app: TestApp, ctx: { token: string; account: string }, json: Record<string, unknown>): Promise<string> {
  const res = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: { investment_account_id: ctx.account, ...json } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** Places an order and runs its dispatch job once, as the worker would: the exchange's answer is applied; its id. */
export async function acceptedOrder(app: TestApp, ctx: { token: string; account: string }, json: Record<string, unknown>): Promise<string> {
  const id = await placedOrder(app, ctx, json);
  await runTask(app, dispatchOrder, { order_id: id });
  return id;
}

export const eventNames = async (app: TestApp, resourceId: string) =>
  (await app.prisma.event.findMany({ where: { resourceId }, orderBy: { id: "asc" }, select: { event: true } })).map((e) => e.event);
