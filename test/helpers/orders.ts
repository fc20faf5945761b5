import { expect } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { todayInIndia } from "../../src/platform/lib/india-date.js";
import type { Prisma } from "../../src/platform/db/client.js";
import type { TestApp } from "./app.js";
import { runTask } from "./jobs.js";
import { registeredInvestor, registeredMandate, twoDistributors } from "./investors.js";

/** Today in India, the service's "today". */
export const today = () => todayInIndia();
/** The date in India `days` from now. */
export const dayPlus = (days: number) => todayInIndia(new Date(Date.now() + days * 86_400_000));

/** The SIP master's days 1-28, as the test schemes offer them. */
export const ANY_DAY = Array.from({ length: 28 }, (_, i) => i + 1);

/** An ISIN for a test scheme's code (12 characters, never a real one). */
export const testIsin = (schemeCode: string) => `INT${schemeCode.padStart(9, "0")}`;

/**
 * A scheme row and its exchange code `BSE<scheme code>` (serving both holding modes), open for purchases, SIPs
 * and redemptions without minimums unless `fields` says otherwise: the scheme's trading fields become the
 * exchange row's rules (and MONTHLY, QUARTERLY and WEEKLY SIP rules on any day 1-28 when SIPs are allowed), as
 * the exchange's masters would give them.
 */
export async function createScheme(app: TestApp, schemeCode: string, fields: Partial<Prisma.SchemeUncheckedCreateInput> = {}) {
  const isin = await createAmfiScheme(app, schemeCode, fields);
  const purchase = fields.purchaseAllowed ?? true;
  const redeem = fields.redemptionAllowed ?? true;
  const sip = fields.sipAllowed ?? true;
  await createExchangeCode(app, `BSE${schemeCode}`, isin, {
    purchaseAllowed: purchase, redemptionAllowed: redeem, sipAllowed: sip, stpAllowed: purchase && redeem, swpAllowed: redeem, switchAllowed: purchase && redeem,
    minPurchaseAmount: fields.minPurchaseAmount as string | null | undefined, purchaseMultiple: fields.purchaseMultiple as string | null | undefined,
    minAdditionalAmount: fields.minAdditionalAmount as string | null | undefined, minRedemptionAmount: fields.minRedemptionAmount as string | null | undefined,
  }, sip ? { minAmount: (fields.minSipAmount as string | null | undefined) ?? null, multiple: (fields.sipMultiple as string | null | undefined) ?? null } : null);
}

/** Only our scheme master's row (AMFI's), with its growth ISIN (testIsin unless given): its exchange codes come from elsewhere. */
export async function createAmfiScheme(app: TestApp, schemeCode: string, fields: Partial<Prisma.SchemeUncheckedCreateInput> = {}): Promise<string> {
  const isin = fields.isinGrowth ?? testIsin(schemeCode);
  await app.prisma.scheme.create({
    data: { schemeCode, name: `Test Scheme ${schemeCode}`, amcCode: "TEST_AMC", amcName: "Test Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes", isinGrowth: isin, ...fields },
  });
  return isin;
}

/**
 * An exchange scheme master row (mode BOTH, active, every flag Y unless `fields` says otherwise) and, unless
 * `sip` is null, its SIP master rows for MONTHLY, QUARTERLY and WEEKLY on any day 1-28.
 */
export async function createExchangeCode(
  app: TestApp,
  code: string,
  isin: string,
  fields: Partial<Prisma.ExchangeSchemeUncheckedCreateInput> = {},
  sip: Partial<Prisma.ExchangeSipRuleUncheckedCreateInput> | null = {},
) {
  await app.prisma.exchangeScheme.create({
    data: {
      code, isin, name: `Exchange ${code}`, transactionMode: "BOTH", purchaseAllowed: true, redemptionAllowed: true, sipAllowed: true,
      stpAllowed: true, swpAllowed: true, switchAllowed: true, ...fields,
    },
  });
  if (sip) {
    await app.prisma.exchangeSipRule.createMany({
      data: (["MONTHLY", "QUARTERLY", "WEEKLY"] as const).map((frequency) => ({ code, frequency, dates: ANY_DAY, minInstallments: 1, ...sip })),
    });
  }
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
