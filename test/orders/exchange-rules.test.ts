import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { createAmfiScheme, createExchangeCode, dayPlus, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";

/**
 * Placement on the exchange's own codes (exchange-masters.md): the code for the order's holding mode, kept on
 * the order, and every rule of the exchange's scheme master and SIP master a 400 naming its field and reason.
 */
const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

const sip = { frequency: "MONTHLY", start_date: dayPlus(1), installments: 12, installment_day: 15 };
const plan = { frequency: "MONTHLY", start_date: dayPlus(1), installments: 6 };

beforeAll(async () => {
  ctx = await orderingInvestor(app);
  // 980001: a code per mode, and one for both (the exact mode wins over BOTH).
  const isin1 = await createAmfiScheme(app, "980001");
  await createExchangeCode(app, "EX1-DP", isin1, { uniqueNo: 1 });
  await createExchangeCode(app, "EX1-P", isin1, { uniqueNo: 2, transactionMode: "PHYSICAL" });
  await createExchangeCode(app, "EX1-D", isin1, { uniqueNo: 3, transactionMode: "DEMAT" });
  // A code whose purchase flag is N is passed over for one that allows it, whatever its Unique No.
  await createExchangeCode(app, "EX1-P-OLD", isin1, { uniqueNo: 0, transactionMode: "PHYSICAL", purchaseAllowed: false });
  // 980002: demat only. 980003: its only code closed (ended yesterday), another inactive.
  await createExchangeCode(app, "EX2-D", await createAmfiScheme(app, "980002"), { transactionMode: "DEMAT" });
  const isin3 = await createAmfiScheme(app, "980003");
  await createExchangeCode(app, "EX3-ENDED", isin3, { endDate: new Date(`${dayPlus(-1)}T00:00:00Z`) });
  await createExchangeCode(app, "EX3-GONE", isin3, { active: false });
  // 980004: every limit of the scheme master and the SIP master; no STP, SWP or switch.
  await createExchangeCode(app, "EX4", await createAmfiScheme(app, "980004"), {
    minPurchaseAmount: "1000", minAdditionalAmount: "500", maxPurchaseAmount: "100000", purchaseMultiple: "100",
    minRedemptionAmount: "500", maxRedemptionAmount: "50000", redemptionAmountMultiple: "10",
    minRedemptionUnits: "1", maxRedemptionUnits: "1000", redemptionUnitsMultiple: "0.5",
    stpAllowed: false, swpAllowed: false, switchAllowed: false,
  }, null);
  await app.prisma.exchangeSipRule.create({
    data: { code: "EX4", frequency: "MONTHLY", dates: [1, 15], minAmount: "500", maxAmount: "10000", multiple: "100", minInstallments: 6, maxInstallments: 60 },
  });
  await app.prisma.exchangeSipRule.create({ data: { code: "EX4", frequency: "QUARTERLY", dates: [1], active: false } });
  // 980005: takes no switch or STP into it.
  await createExchangeCode(app, "EX5", await createAmfiScheme(app, "980005"), { switchAllowed: false, stpAllowed: false });
  // 980006: an AMC that takes no orders.
  await createExchangeCode(app, "EX6", await createAmfiScheme(app, "980006"), { amcActive: false });
});

const place = (json: Record<string, unknown>) => app.http("POST", "/api/orders/v1/", { token: ctx.token, json: { investment_account_id: ctx.account, ...json } });
const refusal = async (json: Record<string, unknown>) => {
  const before = await app.prisma.order.count();
  const res = await place(json);
  expect(res.status, res.text).toBe(400);
  expect(await app.prisma.order.count()).toBe(before);
  return res.body.error.details;
};

describe("each order names the exchange's code for its holding mode", () => {
  it.each([
    [undefined, "EX1-P"],
    ["PHYSICAL", "EX1-P"],
    ["CDSL", "EX1-D"],
    ["NSDL", "EX1-D"],
  ])("holding mode %s takes %s, kept on the order and shown", async (holdingMode, code) => {
    const res = await place(lumpsumOrder("980001", holdingMode ? { holding_mode: holdingMode } : {}));
    expect(res.status, res.text).toBe(201);
    const order = await app.http("GET", `/api/orders/v1/${res.body.id}`, { token: ctx.token });
    expect([order.body.scheme_code, order.body.exchange_scheme_code]).toEqual(["980001", code]);
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: res.body.id } })).exchangeSchemeCode).toBe(code);
  });

  it("a switch's target gets its own code for the same mode", async () => {
    const res = await place({ order_type: "SWITCH", scheme_code: "980001", folio_no: "EX/1", units: 2, holding_mode: "CDSL", switch: { to_scheme_code: "980004" } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: "switch.to_scheme_code", reason: "switch_not_allowed", message: "exchange code EX4 does not accept switches: choose a scheme whose exchange code has switch_allowed" },
    ]);
    const ok = await place({ order_type: "SWITCH", scheme_code: "980004", folio_no: "EX/1", units: 2, switch: { to_scheme_code: "980001" } });
    expect(ok.body.error.details).toEqual([{ path: "scheme_code", reason: "switch_not_allowed", message: "exchange code EX4 does not accept switches: choose a scheme whose exchange code has switch_allowed" }]);
    const placed = await place({ order_type: "SWITCH", scheme_code: "980001", folio_no: "EX/1", units: 2, holding_mode: "CDSL", switch: { to_scheme_code: "980002" } });
    expect(placed.status, placed.text).toBe(201);
    const order = (await app.http("GET", `/api/orders/v1/${placed.body.id}`, { token: ctx.token })).body;
    expect([order.exchange_scheme_code, order.switch]).toEqual(["EX1-D", { to_scheme_code: "980002", to_exchange_scheme_code: "EX2-D" }]);
  });

  it.each([
    ["a mode the exchange does not list", lumpsumOrder("980002"), "the exchange lists no PHYSICAL code for scheme 980002 (only DEMAT): choose another scheme or holding mode"],
    ["codes ended or no longer listed", lumpsumOrder("980003", { holding_mode: "CDSL" }), "no exchange code of scheme 980003 takes orders today (inactive, closed, or outside its start and end dates)"],
    ["an AMC that takes no orders", lumpsumOrder("980006"), "no exchange code of scheme 980006 takes orders today (inactive, closed, or outside its start and end dates)"],
  ])("none: 400 scheme_not_tradable saying why (%s)", async (_name, body, message) => {
    expect(await refusal(body)).toEqual([{ path: "scheme_code", reason: "scheme_not_tradable", message }]);
  });

  it("a scheme the exchange does not list at all", async () => {
    await createAmfiScheme(app, "980009");
    expect(await refusal(lumpsumOrder("980009"))).toEqual([
      { path: "scheme_code", reason: "scheme_not_tradable", message: "the exchange lists no code for scheme 980009: it cannot be traded on the exchange" },
    ]);
  });
});

describe("placement enforces the exchange's rules", () => {
  const limits = "(minimum 1000, maximum 100000, multiples of 100)";
  it.each([
    ["a fresh purchase below the minimum", lumpsumOrder("980004", { amount: 900 }), "amount", "amount_below_minimum", `must be at least 1000 for exchange code EX4 ${limits}`],
    ["a purchase above the maximum", lumpsumOrder("980004", { amount: 100100 }), "amount", "amount_above_maximum", `must be at most 100000 for exchange code EX4 ${limits}`],
    ["a purchase off the multiple", lumpsumOrder("980004", { amount: 1050 }), "amount", "amount_not_multiple", `must be a multiple of 100 for exchange code EX4 ${limits}`],
    ["an additional purchase below its minimum", lumpsumOrder("980004", { amount: 400, purchase_type: "ADDITIONAL", folio_no: "EX/4" }), "amount", "amount_below_minimum",
      "must be at least 500 for exchange code EX4 (minimum 500, maximum 100000, multiples of 100)"],
    ["a redemption amount below the minimum", { order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", amount: 490 }, "amount", "amount_below_minimum",
      "must be at least 500 for exchange code EX4 (minimum 500, maximum 50000, multiples of 10)"],
    ["a redemption amount above the maximum", { order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", amount: 50010 }, "amount", "amount_above_maximum",
      "must be at most 50000 for exchange code EX4 (minimum 500, maximum 50000, multiples of 10)"],
    ["a redemption amount off the multiple", { order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", amount: 505.5 }, "amount", "amount_not_multiple",
      "must be a multiple of 10 for exchange code EX4 (minimum 500, maximum 50000, multiples of 10)"],
    ["redeemed units below the minimum", { order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", units: 0.5 }, "units", "units_below_minimum",
      "must be at least 1 for exchange code EX4 (minimum 1, maximum 1000, multiples of 0.5)"],
    ["redeemed units above the maximum", { order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", units: 1000.5 }, "units", "units_above_maximum",
      "must be at most 1000 for exchange code EX4 (minimum 1, maximum 1000, multiples of 0.5)"],
    ["redeemed units off the multiple", { order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", units: 1.25 }, "units", "units_not_multiple",
      "must be a multiple of 0.5 for exchange code EX4 (minimum 1, maximum 1000, multiples of 0.5)"],
    ["a SIP frequency the SIP master does not offer", { order_type: "SIP", scheme_code: "980004", amount: 1000, sip: { ...sip, frequency: "QUARTERLY" } }, "sip.frequency", "sip_frequency_not_allowed",
      "exchange code EX4 takes MONTHLY SIPs only"],
    ["a SIP day the SIP master does not list", { order_type: "SIP", scheme_code: "980004", amount: 1000, sip: { ...sip, installment_day: 5 } }, "sip.installment_day", "sip_date_not_allowed",
      "exchange code EX4 takes MONTHLY installments on days 1, 15 only"],
    ["too few installments", { order_type: "SIP", scheme_code: "980004", amount: 1000, sip: { ...sip, installments: 5 } }, "sip.installments", "installments_out_of_range",
      "must be between 6 and 60 for MONTHLY plans of exchange code EX4"],
    ["too many installments", { order_type: "SIP", scheme_code: "980004", amount: 1000, sip: { ...sip, installments: 61 } }, "sip.installments", "installments_out_of_range",
      "must be between 6 and 60 for MONTHLY plans of exchange code EX4"],
    ["a SIP amount above the SIP maximum", { order_type: "SIP", scheme_code: "980004", amount: 10100, sip }, "amount", "amount_above_maximum",
      "must be at most 10000 for MONTHLY plans of exchange code EX4 (minimum 500, maximum 10000, multiples of 100)"],
    ["a SIP amount below the SIP minimum", { order_type: "SIP", scheme_code: "980004", amount: 400, sip }, "amount", "amount_below_minimum",
      "must be at least 500 for MONTHLY plans of exchange code EX4 (minimum 500, maximum 10000, multiples of 100)"],
    ["an SWP out of a code without SWPs", { order_type: "SWP", scheme_code: "980004", folio_no: "EX/4", amount: 1000, swp: plan }, "scheme_code", "swp_not_allowed",
      "exchange code EX4 does not accept SWPs: choose a scheme whose exchange code has swp_allowed"],
    ["an STP out of a code without STPs", { order_type: "STP", scheme_code: "980004", folio_no: "EX/4", amount: 1000, stp: { ...plan, to_scheme_code: "980001" } }, "scheme_code", "stp_not_allowed",
      "exchange code EX4 does not accept STPs: choose a scheme whose exchange code has stp_allowed"],
  ])("%s", async (_name, body, path, reason, message) => {
    expect(await refusal(body as Record<string, unknown>)).toEqual([{ path, reason, message }]);
  });

  it("an STP into a code that takes none, and the SIP master's amount for an STP where it has a row", async () => {
    expect(await refusal({ order_type: "STP", scheme_code: "980001", folio_no: "EX/1", amount: 1000, stp: { ...plan, to_scheme_code: "980005" } })).toEqual([
      { path: "stp.to_scheme_code", reason: "stp_not_allowed", message: "exchange code EX5 does not accept STPs: choose a scheme whose exchange code has stp_allowed" },
    ]);
    // An STP out of 980001 (physical) takes EX1-P-OLD: it allows STPs, and its Unique No is the lowest.
    await app.prisma.exchangeSipRule.updateMany({ where: { code: { in: ["EX1-P", "EX1-P-OLD"] }, frequency: "MONTHLY" }, data: { minAmount: "1500" } });
    expect(await refusal({ order_type: "STP", scheme_code: "980001", folio_no: "EX/1", amount: 1000, stp: { ...plan, to_scheme_code: "980002" }, holding_mode: "PHYSICAL" })).toContainEqual(
      { path: "stp.to_scheme_code", reason: "scheme_not_tradable", message: "the exchange lists no PHYSICAL code for scheme 980002 (only DEMAT): choose another scheme or holding mode" },
    );
    const stp = await refusal({ order_type: "STP", scheme_code: "980001", folio_no: "EX/1", amount: 1000, stp: { ...plan, to_scheme_code: "980004" } });
    expect(stp).toContainEqual({ path: "amount", reason: "amount_below_minimum", message: "must be at least 1500 for MONTHLY plans of exchange code EX1-P-OLD (minimum 1500)" });
  });

  it("all units is exempt from the redemption limits; an order within every limit is placed", async () => {
    expect((await place({ order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", all_units: true })).status).toBe(201);
    expect((await place({ order_type: "REDEMPTION", scheme_code: "980004", folio_no: "EX/4", units: 12.5 })).status).toBe(201);
    expect((await place(lumpsumOrder("980004", { amount: 1200 }))).status).toBe(201);
    const placed = await place({ order_type: "SIP", scheme_code: "980004", amount: 1000, sip: { ...sip, installment_day: 1 } });
    expect(placed.status, placed.text).toBe(201);
  });

  it("a SIP whose first installment is sooner than the SIP master's gap", async () => {
    await createExchangeCode(app, "EX7", await createAmfiScheme(app, "980007"), {}, { minGapDays: 400 });
    const details = await refusal({ order_type: "SIP", scheme_code: "980007", amount: 1000, sip });
    expect(details).toHaveLength(1);
    expect(details[0]).toMatchObject({ path: "sip.start_date", reason: "sip_start_too_soon" });
    expect(details[0].message).toMatch(/^the first installment falls on \d{4}-\d{2}-15, \d+ days from today; exchange code EX7 needs at least 400 \(a first installment on or after \d{4}-\d{2}-\d{2}\)$/);
  });

  it("an order link runs the same rules at creation", async () => {
    const res = await app.http("POST", "/api/order-links/v1", {
      token: ctx.token,
      json: { investment_account_id: ctx.account, order_type: "SIP", scheme_code: "980004", amount: 1000, sip: { ...sip, installment_day: 20 } },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "sip.installment_day", reason: "sip_date_not_allowed", message: "exchange code EX4 takes MONTHLY installments on days 1, 15 only" }]);
  });
});
