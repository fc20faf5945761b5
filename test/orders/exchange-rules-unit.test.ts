import { describe, expect, it } from "vitest";
import type { HoldingMode } from "../../src/domains/investors/investor.states.js";
import { Decimal } from "../../src/platform/lib/money.js";
import { allowedFlag, chooseExchangeCode, exchangeModeOf, noCodeMessage, takesOrdersOn } from "../../src/domains/orders/exchange-code.js";
import { exchangeViolations, mandateValidityViolations, targetViolations } from "../../src/domains/orders/exchange-rules.js";
import type { PlacementCode, PlacementScheme, PlacementSipRule } from "../../src/domains/orders/placement.repo.js";
import type { PlaceOrderInput } from "../../src/domains/orders/orders.schemas.js";
import type { OrderType } from "../../src/domains/orders/order-types.js";

/**
 * Placement's exchange rules without a database (exchange-masters.md): the code an order names, and every
 * limit of the scheme master and the SIP master, pinned exactly for mutation testing (npm run
 * mutate:exchange-rules). Placement over HTTP is tested in exchange-rules.test.ts.
 */

const TODAY = "2026-11-26";
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const dec = (value: string | null) => (value === null ? null : new Decimal(value));

/** A code of mode BOTH, active, every flag Y, no limits and no SIP rules, unless `fields` says otherwise. */
function code(name: string, fields: Partial<PlacementCode> = {}): PlacementCode {
  return {
    code: name, uniqueNo: null, isin: "INF000A01AA1", transactionMode: "BOTH", active: true, amcActive: true, startDate: null, endDate: null, reopeningDate: null,
    purchaseAllowed: true, redemptionAllowed: true, sipAllowed: true, stpAllowed: true, swpAllowed: true, switchAllowed: true, schemeType: "EQUITY",
    minPurchaseAmount: null, minAdditionalAmount: null, maxPurchaseAmount: null, purchaseMultiple: null, minRedemptionAmount: null, maxRedemptionAmount: null,
    redemptionAmountMultiple: null, minRedemptionUnits: null, maxRedemptionUnits: null, redemptionUnitsMultiple: null, sipRules: [],
    ...fields,
  };
}

function sipRule(frequency: string, fields: Partial<Omit<PlacementSipRule, "minAmount" | "maxAmount" | "multiple">> & { minAmount?: string | null; maxAmount?: string | null; multiple?: string | null } = {}): PlacementSipRule {
  const { minAmount = null, maxAmount = null, multiple = null, ...rest } = fields;
  return { frequency, dates: [1, 15], active: true, minInstallments: null, maxInstallments: null, minGapDays: null, maxGapDays: null, ...rest, minAmount: dec(minAmount), maxAmount: dec(maxAmount), multiple: dec(multiple) };
}

function scheme(codes: PlacementCode[], fields: Partial<PlacementScheme> = {}): PlacementScheme {
  return { schemeCode: "118955", isinGrowth: "INF000A01AA1", isinReinvestment: null, nav: new Decimal("10"), codes, ...fields };
}

const order = (orderType: OrderType, fields: Partial<PlaceOrderInput> = {}): PlaceOrderInput => ({
  investment_account_id: "acc_1", order_type: orderType, scheme_code: "118955", ...fields,
});

/** Each permutation of `items` (so a choice never depends on the order the codes come in). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

const choose = (codes: PlacementCode[], o: { holdingMode?: HoldingMode | null; orderType?: OrderType; side?: "from" | "into"; preferredIsin?: string | null } = {}) => {
  const chosen = permutations(codes).map((p) => chooseExchangeCode(p, { holdingMode: o.holdingMode ?? null, orderType: o.orderType ?? "LUMPSUM_PURCHASE", side: o.side, preferredIsin: o.preferredIsin === undefined ? "INF000A01AA1" : o.preferredIsin }, TODAY)?.code ?? null);
  expect(new Set(chosen).size, `the same code whatever the order of ${codes.map((c) => c.code).join(", ")}`).toBe(1);
  return chosen[0];
};

describe("allowedFlag", () => {
  it.each([
    ["LUMPSUM_PURCHASE", "purchaseAllowed"], ["SIP_TOPUP", "purchaseAllowed"], ["REDEMPTION", "redemptionAllowed"], ["SIP", "sipAllowed"],
    ["XSIP", "sipAllowed"], ["STP", "stpAllowed"], ["SWP", "swpAllowed"], ["SWITCH", "switchAllowed"],
  ] as const)("%s out of a code needs %s", (type, flag) => {
    expect(allowedFlag(type)).toBe(flag);
    expect(allowedFlag(type, "from")).toBe(flag);
  });
  it("into a code: an STP needs the STP flag, anything else moved in the switch flag", () => {
    expect(allowedFlag("STP", "into")).toBe("stpAllowed");
    expect(allowedFlag("SWITCH", "into")).toBe("switchAllowed");
    expect(allowedFlag("LUMPSUM_PURCHASE", "into")).toBe("switchAllowed");
    expect(allowedFlag("SWP", "into")).toBe("switchAllowed");
  });
});

describe("exchangeModeOf", () => {
  it("a depository's account is DEMAT; physical folios, or no mode given, PHYSICAL", () => {
    expect(exchangeModeOf("CDSL")).toBe("DEMAT");
    expect(exchangeModeOf("NSDL")).toBe("DEMAT");
    expect(exchangeModeOf("PHYSICAL")).toBe("PHYSICAL");
    expect(exchangeModeOf(null)).toBe("PHYSICAL");
  });
});

describe("takesOrdersOn", () => {
  it.each([
    ["no dates", {}, true],
    ["inactive (no longer listed)", { active: false }, false],
    ["its AMC inactive", { amcActive: false }, false],
    ["inactive with its AMC inactive", { active: false, amcActive: false }, false],
    ["started today", { startDate: day("2026-11-26") }, true],
    ["started yesterday", { startDate: day("2026-11-25") }, true],
    ["starting tomorrow", { startDate: day("2026-11-27") }, false],
    ["ending today", { endDate: day("2026-11-26") }, true],
    ["ending tomorrow", { endDate: day("2026-11-27") }, true],
    ["ended yesterday", { endDate: day("2026-11-25") }, false],
    ["within its start and end", { startDate: day("2013-04-01"), endDate: day("9999-12-31") }, true],
    ["a one-day window today", { startDate: day("2026-11-26"), endDate: day("2026-11-26") }, true],
    ["ended, reopened today", { endDate: day("2026-01-01"), reopeningDate: day("2026-11-26") }, true],
    ["ended, reopened earlier", { endDate: day("2026-01-01"), reopeningDate: day("2026-06-01") }, true],
    ["ended, reopening tomorrow", { endDate: day("2026-01-01"), reopeningDate: day("2026-11-27") }, false],
    ["not started, but reopened", { startDate: day("2027-01-01"), reopeningDate: day("2026-11-01") }, true],
    ["reopened, but inactive", { endDate: day("2026-01-01"), reopeningDate: day("2026-06-01"), active: false }, false],
    ["reopened, but its AMC inactive", { endDate: day("2026-01-01"), reopeningDate: day("2026-06-01"), amcActive: false }, false],
    ["within its dates, a reopening date to come", { reopeningDate: day("2026-12-01") }, true],
    ["reopened, then ended again", { reopeningDate: day("2026-03-01"), endDate: day("2026-06-01") }, false],
    ["reopened, then ended again on the reopening day", { reopeningDate: day("2026-03-01"), endDate: day("2026-03-01") }, false],
    ["reopened with no end date", { startDate: day("2027-01-01"), reopeningDate: day("2026-03-01"), endDate: null }, true],
  ] as const)("%s: %s", (_, fields, takes) => {
    expect(takesOrdersOn(code("X", fields), TODAY)).toBe(takes);
  });
});

describe("chooseExchangeCode", () => {
  const dp = code("EX-DP", { uniqueNo: 1 });
  const p = code("EX-P", { uniqueNo: 2, transactionMode: "PHYSICAL" });
  const d = code("EX-D", { uniqueNo: 3, transactionMode: "DEMAT" });

  it("the exact mode before BOTH, BOTH when the mode has none, none when only the other mode", () => {
    expect(choose([dp, p, d], { holdingMode: null })).toBe("EX-P");
    expect(choose([dp, p, d], { holdingMode: "PHYSICAL" })).toBe("EX-P");
    expect(choose([dp, p, d], { holdingMode: "CDSL" })).toBe("EX-D");
    expect(choose([dp, p, d], { holdingMode: "NSDL" })).toBe("EX-D");
    expect(choose([dp, d], { holdingMode: "PHYSICAL" })).toBe("EX-DP");
    expect(choose([dp, p], { holdingMode: "CDSL" })).toBe("EX-DP");
    expect(choose([d], { holdingMode: "PHYSICAL" })).toBeNull();
    expect(choose([p], { holdingMode: "NSDL" })).toBeNull();
    expect(choose([], { holdingMode: "NSDL" })).toBeNull();
  });

  it("the exact mode wins even when its flag is N, its ISIN not the growth one and its Unique No higher", () => {
    const exact = code("EX-P", { uniqueNo: 9, transactionMode: "PHYSICAL", purchaseAllowed: false, isin: "INF000A01AB9" });
    expect(choose([dp, exact])).toBe("EX-P");
  });

  it("then the code whose flag allows the order type, whatever its ISIN or Unique No", () => {
    const old = code("EX-P-OLD", { uniqueNo: 0, transactionMode: "PHYSICAL", purchaseAllowed: false });
    const other = code("EX-P-NEW", { uniqueNo: 5, transactionMode: "PHYSICAL", isin: "INF000A01AB9" });
    expect(choose([old, other])).toBe("EX-P-NEW");
    expect(choose([old, other], { orderType: "REDEMPTION" })).toBe("EX-P-OLD");
    const noSip = code("A", { uniqueNo: 1, sipAllowed: false });
    const noStp = code("B", { uniqueNo: 2, stpAllowed: false });
    const noSwp = code("C", { uniqueNo: 3, swpAllowed: false });
    expect(choose([noSip, noStp, noSwp], { orderType: "SIP" })).toBe("B");
    expect(choose([noSip, noStp, noSwp], { orderType: "XSIP" })).toBe("B");
    expect(choose([noSip, noStp, noSwp], { orderType: "STP" })).toBe("A");
    expect(choose([noStp, noSwp], { orderType: "SWP" })).toBe("B");
    const noRedeem = code("R", { uniqueNo: 1, redemptionAllowed: false });
    expect(choose([noRedeem, noStp], { orderType: "REDEMPTION" })).toBe("B");
    const noSwitch = code("S", { uniqueNo: 1, switchAllowed: false });
    expect(choose([noSwitch, noStp], { orderType: "SWITCH" })).toBe("B");
    // Out of a code, purchases do not matter.
    const noPurchase = code("N", { uniqueNo: 1, purchaseAllowed: false });
    expect(choose([noPurchase, noStp], { orderType: "SWITCH" })).toBe("N");
  });

  it("a target: the flag into it (switch or STP), and purchases", () => {
    const switchOnly = code("T1", { uniqueNo: 1, purchaseAllowed: false });
    const both = code("T2", { uniqueNo: 2 });
    expect(choose([switchOnly, both], { orderType: "SWITCH", side: "into" })).toBe("T2");
    const noSwitchIn = code("T0", { uniqueNo: 0, switchAllowed: false });
    expect(choose([noSwitchIn, both], { orderType: "SWITCH", side: "into" })).toBe("T2");
    const noStpIn = code("T0", { uniqueNo: 0, stpAllowed: false });
    expect(choose([noStpIn, both], { orderType: "STP", side: "into" })).toBe("T2");
    expect(choose([noSwitchIn, both], { orderType: "STP", side: "into" })).toBe("T0");
    // Nothing better: the best there is (its refusals are the rules' to report).
    expect(choose([switchOnly], { orderType: "SWITCH", side: "into" })).toBe("T1");
  });

  it("then the scheme's preferred ISIN, whatever the Unique No", () => {
    const growth = code("G", { uniqueNo: 7, isin: "INF000A01AA1" });
    const reinvest = code("R", { uniqueNo: 1, isin: "INF000A01AB9" });
    expect(choose([growth, reinvest])).toBe("G");
    expect(choose([growth, reinvest], { preferredIsin: "INF000A01AB9" })).toBe("R");
    // No preferred ISIN: the Unique No decides.
    expect(choose([growth, reinvest], { preferredIsin: null })).toBe("R");
  });

  it("then the lowest Unique No (none last), then the code's name", () => {
    expect(choose([code("B", { uniqueNo: 2 }), code("A", { uniqueNo: 3 }), code("C", { uniqueNo: 10 })])).toBe("B");
    expect(choose([code("B", { uniqueNo: 0 }), code("A", { uniqueNo: null })])).toBe("B");
    expect(choose([code("B", { uniqueNo: 2 }), code("A", { uniqueNo: 2 })])).toBe("A");
    expect(choose([code("B"), code("A"), code("C")])).toBe("A");
    expect(choose([code("AB"), code("A")])).toBe("A");
  });

  it("only codes that take orders today", () => {
    const closed = code("CLOSED", { uniqueNo: 1, transactionMode: "PHYSICAL", endDate: day("2026-11-25") });
    const inactive = code("GONE", { uniqueNo: 2, transactionMode: "PHYSICAL", active: false });
    const amc = code("AMC", { uniqueNo: 3, transactionMode: "PHYSICAL", amcActive: false });
    const open = code("OPEN", { uniqueNo: 9 });
    expect(choose([closed, inactive, amc, open])).toBe("OPEN");
    expect(choose([closed, inactive, amc])).toBeNull();
    const reopened = code("REOPENED", { uniqueNo: 4, transactionMode: "PHYSICAL", endDate: day("2026-01-01"), reopeningDate: day("2026-11-26") });
    expect(choose([closed, reopened, open])).toBe("REOPENED");
  });

  it("keeps the order codes of equal rank and name come in", () => {
    const first = code("SAME", { uniqueNo: 1 });
    const second = code("SAME", { uniqueNo: 1 });
    expect(chooseExchangeCode([first, second], { holdingMode: null, orderType: "SIP", preferredIsin: null }, TODAY)).toBe(first);
    expect(chooseExchangeCode([second, first], { holdingMode: null, orderType: "SIP", preferredIsin: null }, TODAY)).toBe(second);
  });
});

describe("noCodeMessage", () => {
  it("no code at all", () => {
    expect(noCodeMessage("118955", [], "CDSL", TODAY)).toBe("the exchange lists no code for scheme 118955: it cannot be traded on the exchange");
  });
  it("none takes orders today", () => {
    const codes = [code("A", { active: false }), code("B", { endDate: day("2026-11-25") }), code("C", { amcActive: false, transactionMode: "DEMAT" })];
    expect(noCodeMessage("118955", codes, null, TODAY)).toBe("no exchange code of scheme 118955 takes orders today (inactive, closed, or outside its start and end dates)");
  });
  it("none for the mode: names the modes the open codes serve, once each", () => {
    const codes = [code("D1", { transactionMode: "DEMAT" }), code("P0", { transactionMode: "PHYSICAL", active: false }), code("D2", { transactionMode: "DEMAT" })];
    expect(noCodeMessage("118955", codes, "PHYSICAL", TODAY)).toBe("the exchange lists no PHYSICAL code for scheme 118955 (only DEMAT): choose another scheme or holding mode");
    const two = [code("P1", { transactionMode: "PHYSICAL" }), code("X", { transactionMode: "BOTH", startDate: day("2027-01-01") }), code("D1", { transactionMode: "DEMAT" }), code("P2", { transactionMode: "PHYSICAL" })];
    expect(noCodeMessage("42", two, "NSDL", TODAY)).toBe("the exchange lists no DEMAT code for scheme 42 (only PHYSICAL, DEMAT): choose another scheme or holding mode");
  });
});

// --- exchangeViolations --------------------------------------------------------------------------------

const resolve = (o: PlaceOrderInput, codes: PlacementCode[], holdingMode: HoldingMode | null = null, amountPath?: string) =>
  exchangeViolations(o, scheme(codes), holdingMode, TODAY, amountPath);
const violations = (o: PlaceOrderInput, codes: PlacementCode[], holdingMode: HoldingMode | null = null, amountPath?: string) =>
  resolve(o, codes, holdingMode, amountPath).violations;

describe("exchangeViolations: the scheme and its code", () => {
  it("no scheme in the master", () => {
    expect(exchangeViolations(order("LUMPSUM_PURCHASE", { scheme_code: "999999", amount: 5000 }), null, null, TODAY)).toEqual({
      code: null,
      violations: [{ path: "scheme_code", reason: "scheme_not_found", message: "no scheme 999999 in the scheme master: find its code with GET /api/masters/v1/schemes" }],
    });
    expect(exchangeViolations(order("SIP_TOPUP", { scheme_code: undefined }), null, null, TODAY).violations[0]!.message).toBe(
      "no scheme undefined in the scheme master: find its code with GET /api/masters/v1/schemes",
    );
  });

  it("no code for the holding mode: scheme_not_tradable with the reason", () => {
    expect(exchangeViolations(order("LUMPSUM_PURCHASE", { amount: 5000 }), scheme([code("D", { transactionMode: "DEMAT" })], { schemeCode: "980002" }), "PHYSICAL", TODAY)).toEqual({
      code: null,
      violations: [{ path: "scheme_code", reason: "scheme_not_tradable", message: "the exchange lists no PHYSICAL code for scheme 980002 (only DEMAT): choose another scheme or holding mode" }],
    });
    expect(resolve(order("REDEMPTION", { units: 1 }), [code("X", { active: false })], "CDSL").violations).toEqual([
      { path: "scheme_code", reason: "scheme_not_tradable", message: "no exchange code of scheme 118955 takes orders today (inactive, closed, or outside its start and end dates)" },
    ]);
  });

  it("answers the code chosen for the holding mode, and no violation when every rule is met", () => {
    const p = code("EX-P", { uniqueNo: 2, transactionMode: "PHYSICAL" });
    const d = code("EX-D", { uniqueNo: 3, transactionMode: "DEMAT" });
    expect(resolve(order("LUMPSUM_PURCHASE", { amount: 5000 }), [p, d], "CDSL")).toEqual({ code: d, violations: [] });
    expect(resolve(order("LUMPSUM_PURCHASE", { amount: 5000 }), [p, d], null)).toEqual({ code: p, violations: [] });
  });

  it("prefers the scheme's growth ISIN, else its reinvestment ISIN", () => {
    const growth = code("G", { uniqueNo: 5, isin: "INF000A01AA1" });
    const reinvest = code("R", { uniqueNo: 1, isin: "INF000A01AB9" });
    const lumpsum = order("LUMPSUM_PURCHASE", { amount: 5000 });
    expect(exchangeViolations(lumpsum, scheme([growth, reinvest], { isinGrowth: "INF000A01AA1", isinReinvestment: "INF000A01AB9" }), null, TODAY).code?.code).toBe("G");
    expect(exchangeViolations(lumpsum, scheme([reinvest, growth], { isinGrowth: null, isinReinvestment: "INF000A01AA1" }), null, TODAY).code?.code).toBe("G");
    expect(exchangeViolations(lumpsum, scheme([growth, reinvest], { isinGrowth: null, isinReinvestment: null }), null, TODAY).code?.code).toBe("R");
  });

  it.each([
    ["LUMPSUM_PURCHASE", { amount: 5000 }, "purchaseAllowed", "purchase_not_allowed", "purchases", "purchase_allowed"],
    ["SIP_TOPUP", { amount: 5000, sip: { sip_order_id: "ord_1" } }, "purchaseAllowed", "purchase_not_allowed", "purchases", "purchase_allowed"],
    ["REDEMPTION", { all_units: true }, "redemptionAllowed", "redemption_not_allowed", "redemptions", "redemption_allowed"],
    ["SIP", { amount: 1000 }, "sipAllowed", "sip_not_allowed", "SIPs", "sip_allowed"],
    ["XSIP", { amount: 1000 }, "sipAllowed", "sip_not_allowed", "SIPs", "sip_allowed"],
    ["STP", { amount: 1000 }, "stpAllowed", "stp_not_allowed", "STPs", "stp_allowed"],
    ["SWP", { amount: 1000 }, "swpAllowed", "swp_not_allowed", "SWPs", "swp_allowed"],
    ["SWITCH", { all_units: true }, "switchAllowed", "switch_not_allowed", "switches", "switch_allowed"],
  ] as const)("%s needs the code's %s", (type, fields, flag, reason, what, flagName) => {
    expect(violations(order(type, fields), [code("EX9", { [flag]: false })])).toEqual([
      { path: "scheme_code", reason, message: `exchange code EX9 does not accept ${what}: choose a scheme whose exchange code has ${flagName}` },
    ]);
    expect(violations(order(type, fields), [code("EX9")])).toEqual([]);
  });
});

describe("exchangeViolations: purchase limits", () => {
  const limits = code("EX4", { minPurchaseAmount: dec("1000"), minAdditionalAmount: dec("500"), maxPurchaseAmount: dec("100000"), purchaseMultiple: dec("100") });
  const terms = "(minimum 1000, maximum 100000, multiples of 100)";

  it.each([
    [900, [["amount_below_minimum", `must be at least 1000 for exchange code EX4 ${terms}`]]],
    [1000, []],
    [1100, []],
    [100000, []],
    [100100, [["amount_above_maximum", `must be at most 100000 for exchange code EX4 ${terms}`]]],
    [1050, [["amount_not_multiple", `must be a multiple of 100 for exchange code EX4 ${terms}`]]],
    [950, [["amount_below_minimum", `must be at least 1000 for exchange code EX4 ${terms}`], ["amount_not_multiple", `must be a multiple of 100 for exchange code EX4 ${terms}`]]],
    [100050, [["amount_above_maximum", `must be at most 100000 for exchange code EX4 ${terms}`], ["amount_not_multiple", `must be a multiple of 100 for exchange code EX4 ${terms}`]]],
    [1000.01, [["amount_not_multiple", `must be a multiple of 100 for exchange code EX4 ${terms}`]]],
  ] as const)("a fresh purchase of %d", (amount, expected) => {
    expect(violations(order("LUMPSUM_PURCHASE", { amount, purchase_type: "FRESH" }), [limits])).toEqual(expected.map(([reason, message]) => ({ path: "amount", reason, message })));
    expect(violations(order("LUMPSUM_PURCHASE", { amount }), [limits])).toEqual(expected.map(([reason, message]) => ({ path: "amount", reason, message })));
  });

  it("ADDITIONAL and SIP_TOPUP: the additional minimum, else the fresh one", () => {
    const topUp = { sip: { sip_order_id: "ord_1" } };
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 500, purchase_type: "ADDITIONAL", folio_no: "F1" }), [limits])).toEqual([]);
    expect(violations(order("SIP_TOPUP", { amount: 500, ...topUp }), [limits])).toEqual([]);
    const below = { path: "amount", reason: "amount_below_minimum", message: "must be at least 500 for exchange code EX4 (minimum 500, maximum 100000, multiples of 100)" };
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 400, purchase_type: "ADDITIONAL", folio_no: "F1" }), [limits])).toEqual([below]);
    expect(violations(order("SIP_TOPUP", { amount: 400, ...topUp }), [limits])).toEqual([below]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 500, purchase_type: "FRESH" }), [limits])).toEqual([
      { path: "amount", reason: "amount_below_minimum", message: `must be at least 1000 for exchange code EX4 ${terms}` },
    ]);
    const noAdditional = code("EX5", { minPurchaseAmount: dec("1000"), minAdditionalAmount: null });
    const fresh = { path: "amount", reason: "amount_below_minimum", message: "must be at least 1000 for exchange code EX5 (minimum 1000)" };
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 500, purchase_type: "ADDITIONAL", folio_no: "F1" }), [noAdditional])).toEqual([fresh]);
    expect(violations(order("SIP_TOPUP", { amount: 500, ...topUp }), [noAdditional])).toEqual([fresh]);
    // An additional minimum above the fresh one is still the additional one.
    const higher = code("EX6", { minPurchaseAmount: dec("100"), minAdditionalAmount: dec("1000") });
    expect(violations(order("SIP_TOPUP", { amount: 500, ...topUp }), [higher]).map((v) => v.message)).toEqual(["must be at least 1000 for exchange code EX6 (minimum 1000)"]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 500 }), [higher])).toEqual([]);
  });

  it("names only the limits the code has; a zero multiple is none", () => {
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 200001 }), [code("M", { maxPurchaseAmount: dec("200000") })])).toEqual([
      { path: "amount", reason: "amount_above_maximum", message: "must be at most 200000 for exchange code M (maximum 200000)" },
    ]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 150 }), [code("M", { purchaseMultiple: dec("100") })])).toEqual([
      { path: "amount", reason: "amount_not_multiple", message: "must be a multiple of 100 for exchange code M (multiples of 100)" },
    ]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 150 }), [code("M", { minPurchaseAmount: dec("500"), purchaseMultiple: dec("0") })])).toEqual([
      { path: "amount", reason: "amount_below_minimum", message: "must be at least 500 for exchange code M (minimum 500)" },
    ]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 150.5 }), [code("M", { purchaseMultiple: dec("0.00") })])).toEqual([]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 1 }), [code("M")])).toEqual([]);
  });

  it("exact decimals: 0.1 + 0.2 is 0.30; paise multiples", () => {
    const paise = code("P", { minPurchaseAmount: dec("0.3"), maxPurchaseAmount: dec("0.3"), purchaseMultiple: dec("0.1") });
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 0.1 + 0.2 }), [paise])).toEqual([]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 1000.1 }), [code("M", { purchaseMultiple: dec("0.1") })])).toEqual([]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 1000.15 }), [code("M", { purchaseMultiple: dec("0.1") })])).toEqual([
      { path: "amount", reason: "amount_not_multiple", message: "must be a multiple of 0.1 for exchange code M (multiples of 0.1)" },
    ]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 1.15 }), [code("M", { purchaseMultiple: dec("0.05") })])).toEqual([]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 999.99 }), [code("M", { minPurchaseAmount: dec("1000.00") })]).map((v) => v.message)).toEqual([
      "must be at least 1000 for exchange code M (minimum 1000)",
    ]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 5000.004 }), [code("M", { maxPurchaseAmount: dec("5000") })])).toEqual([]);
  });

  it("no amount: no limit to check", () => {
    expect(violations(order("LUMPSUM_PURCHASE"), [limits])).toEqual([]);
  });

  it("the amount's path is the caller's", () => {
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 50 }), [limits], null, "items.0.amount").map((v) => v.path)).toEqual(["items.0.amount", "items.0.amount"]);
  });
});

describe("exchangeViolations: redemption limits", () => {
  const limits = code("EX4", {
    minRedemptionAmount: dec("500"), maxRedemptionAmount: dec("50000"), redemptionAmountMultiple: dec("10"),
    minRedemptionUnits: dec("1"), maxRedemptionUnits: dec("1000"), redemptionUnitsMultiple: dec("0.5"),
    minPurchaseAmount: dec("100000"),
  });
  const amountTerms = "(minimum 500, maximum 50000, multiples of 10)";
  const unitTerms = "(minimum 1, maximum 1000, multiples of 0.5)";

  it.each([
    [490, [["amount_below_minimum", `must be at least 500 for exchange code EX4 ${amountTerms}`]]],
    [500, []],
    [50000, []],
    [50010, [["amount_above_maximum", `must be at most 50000 for exchange code EX4 ${amountTerms}`]]],
    [505, [["amount_not_multiple", `must be a multiple of 10 for exchange code EX4 ${amountTerms}`]]],
  ] as const)("an amount of %d", (amount, expected) => {
    expect(violations(order("REDEMPTION", { amount, folio_no: "F1" }), [limits])).toEqual(expected.map(([reason, message]) => ({ path: "amount", reason, message })));
  });

  it.each([
    [0.5, [["units_below_minimum", `must be at least 1 for exchange code EX4 ${unitTerms}`]]],
    [1, []],
    [1.5, []],
    [2.5, []],
    [1000, []],
    [1000.5, [["units_above_maximum", `must be at most 1000 for exchange code EX4 ${unitTerms}`]]],
    [1.25, [["units_not_multiple", `must be a multiple of 0.5 for exchange code EX4 ${unitTerms}`]]],
    [0.75, [["units_below_minimum", `must be at least 1 for exchange code EX4 ${unitTerms}`], ["units_not_multiple", `must be a multiple of 0.5 for exchange code EX4 ${unitTerms}`]]],
    [1.001, [["units_not_multiple", `must be a multiple of 0.5 for exchange code EX4 ${unitTerms}`]]],
  ] as const)("%d units", (units, expected) => {
    expect(violations(order("REDEMPTION", { units, folio_no: "F1" }), [limits])).toEqual(expected.map(([reason, message]) => ({ path: "units", reason, message })));
  });

  it("units are exact to 3 decimals: 0.1 + 0.2 units is 0.3", () => {
    const tenths = code("U", { minRedemptionUnits: dec("0.3"), maxRedemptionUnits: dec("0.3"), redemptionUnitsMultiple: dec("0.1") });
    expect(violations(order("REDEMPTION", { units: 0.1 + 0.2 }), [tenths])).toEqual([]);
    expect(violations(order("REDEMPTION", { units: 0.3 }), [code("U", { redemptionUnitsMultiple: dec("0.001") })])).toEqual([]);
    expect(violations(order("REDEMPTION", { units: 12.3456 }), [code("U", { redemptionUnitsMultiple: dec("0.001"), maxRedemptionUnits: dec("12.346") })])).toEqual([]);
  });

  it("the units' path is always units; the amount's the caller's", () => {
    expect(violations(order("REDEMPTION", { units: 0.5, amount: 1 }), [limits], null, "x.amount").map((v) => v.path)).toEqual(["x.amount", "x.amount", "units"]);
  });

  it("all_units is exempt from every limit", () => {
    expect(violations(order("REDEMPTION", { all_units: true }), [limits])).toEqual([]);
    expect(violations(order("REDEMPTION", { all_units: true, units: 0.25, amount: 1 }), [limits])).toEqual([]);
    expect(violations(order("REDEMPTION", { all_units: false, units: 0.25 }), [limits]).map((v) => v.reason)).toEqual(["units_below_minimum", "units_not_multiple"]);
  });

  it("no quantity, or none of the limits: nothing to check", () => {
    expect(violations(order("REDEMPTION", { folio_no: "F1" }), [limits])).toEqual([]);
    expect(violations(order("REDEMPTION", { units: 0.001, amount: 0.01 }), [code("U")])).toEqual([]);
  });

  it("a switch has no limits of its own; its purchase limits are not a redemption's", () => {
    expect(violations(order("SWITCH", { amount: 1, switch: { to_scheme_code: "2" } }), [limits])).toEqual([]);
    expect(violations(order("SWITCH", { units: 0.25, switch: { to_scheme_code: "2" } }), [limits])).toEqual([]);
  });
});

describe("exchangeViolations: SIP registrations against the SIP master", () => {
  const monthly = sipRule("MONTHLY", { dates: [1, 15], minAmount: "500", maxAmount: "10000", multiple: "100", minInstallments: 6, maxInstallments: 60 });
  const quarterly = sipRule("QUARTERLY", { dates: [1], active: false });
  const ex4 = code("EX4", { sipRules: [monthly, quarterly], minPurchaseAmount: dec("100000") });
  const sip = (fields: Partial<NonNullable<PlaceOrderInput["sip"]>> = {}) => ({ frequency: "MONTHLY" as const, start_date: "2026-12-01", installments: 12, installment_day: 15, ...fields });
  const terms = "(minimum 500, maximum 10000, multiples of 100)";

  it("a registration within every rule", () => {
    expect(violations(order("SIP", { amount: 1000, sip: sip() }), [ex4])).toEqual([]);
    expect(violations(order("XSIP", { amount: 10000, mandate_id: "m1", sip: sip({ installment_day: 1, installments: 6 }) }), [ex4])).toEqual([]);
    expect(violations(order("SIP", { amount: 500, sip: sip({ installments: 60 }) }), [ex4])).toEqual([]);
  });

  it("a frequency the master does not offer (an inactive row is none)", () => {
    expect(violations(order("SIP", { amount: 1000, sip: sip({ frequency: "QUARTERLY" }) }), [ex4])).toEqual([
      { path: "sip.frequency", reason: "sip_frequency_not_allowed", message: "exchange code EX4 takes MONTHLY SIPs only" },
    ]);
    const two = code("EX7", { sipRules: [sipRule("MONTHLY"), sipRule("QUARTERLY"), sipRule("DAILY", { active: false })] });
    expect(violations(order("XSIP", { amount: 1000, sip: sip({ frequency: "WEEKLY" }) }), [two])).toEqual([
      { path: "sip.frequency", reason: "sip_frequency_not_allowed", message: "exchange code EX7 takes MONTHLY, QUARTERLY SIPs only" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip() }), [code("EX8", { sipRules: [quarterly] })])).toEqual([
      { path: "sip.frequency", reason: "sip_frequency_not_allowed", message: "the exchange's SIP master offers no frequency for exchange code EX8" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip() }), [code("EX8")])).toEqual([
      { path: "sip.frequency", reason: "sip_frequency_not_allowed", message: "the exchange's SIP master offers no frequency for exchange code EX8" },
    ]);
  });

  it("an installment day the master does not list", () => {
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installment_day: 10 }) }), [ex4])).toEqual([
      { path: "sip.installment_day", reason: "sip_date_not_allowed", message: "exchange code EX4 takes MONTHLY installments on days 1, 15 only" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installment_day: undefined }) }), [ex4])).toEqual([]);
  });

  it.each([
    [400, [["amount_below_minimum", `must be at least 500 for MONTHLY plans of exchange code EX4 ${terms}`]]],
    [10100, [["amount_above_maximum", `must be at most 10000 for MONTHLY plans of exchange code EX4 ${terms}`]]],
    [550, [["amount_not_multiple", `must be a multiple of 100 for MONTHLY plans of exchange code EX4 ${terms}`]]],
  ] as const)("an installment of %d", (amount, expected) => {
    expect(violations(order("SIP", { amount, sip: sip() }), [ex4])).toEqual(expected.map(([reason, message]) => ({ path: "amount", reason, message })));
    expect(violations(order("SIP", { amount, sip: sip() }), [ex4], null, "plan.amount").map((v) => v.path)).toEqual(["plan.amount"]);
  });

  it("the first installment within the master's gap after today (registration, India)", () => {
    // The default plan's first installment: 2026-12-15, 19 days after TODAY (2026-11-26).
    const gaps = (minGapDays: number | null, maxGapDays: number | null) => code("EXG", { sipRules: [sipRule("MONTHLY", { minGapDays, maxGapDays, dates: [1, 15, 26] })] });
    expect(violations(order("SIP", { amount: 1000, sip: sip() }), [gaps(19, 19)])).toEqual([]);
    expect(violations(order("XSIP", { amount: 1000, sip: sip() }), [gaps(20, null)])).toEqual([
      { path: "sip.start_date", reason: "sip_start_too_soon", message: "the first installment falls on 2026-12-15, 19 days from today; exchange code EXG needs at least 20 (a first installment on or after 2026-12-16)" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip() }), [gaps(null, 18)])).toEqual([
      { path: "sip.start_date", reason: "sip_start_too_late", message: "the first installment falls on 2026-12-15, 19 days from today; exchange code EXG takes at most 18 (a first installment on or before 2026-12-14)" },
    ]);
    // The first installment is the installment day on or after the start date: today itself is a gap of 0.
    expect(violations(order("SIP", { amount: 1000, sip: sip({ start_date: TODAY, installment_day: 26 }) }), [gaps(1, null)])).toEqual([
      { path: "sip.start_date", reason: "sip_start_too_soon", message: "the first installment falls on 2026-11-26, 0 days from today; exchange code EXG needs at least 1 (a first installment on or after 2026-11-27)" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ start_date: TODAY, installment_day: 26 }) }), [gaps(0, 0)])).toEqual([]);
    // Across a year end, by calendar days.
    expect(violations(order("SIP", { amount: 1000, sip: sip({ start_date: "2027-01-01", installment_day: 1 }) }), [gaps(null, 36)])).toEqual([]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ start_date: "2027-01-01", installment_day: 1 }) }), [gaps(null, 35)])).toEqual([
      { path: "sip.start_date", reason: "sip_start_too_late", message: "the first installment falls on 2027-01-01, 36 days from today; exchange code EXG takes at most 35 (a first installment on or before 2026-12-31)" },
    ]);
    // A start already past (an order link's proposal, whose dates are checked at confirmation) breaks no gap that is not set.
    expect(violations(order("SIP", { amount: 1000, sip: sip({ start_date: "2026-11-01", installment_day: 1 }) }), [gaps(null, null)])).toEqual([]);
    // Without a start date or day (the schema reports those), and for an STP's plan, no gap is checked.
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installment_day: undefined }) }), [gaps(100, null)])).toEqual([]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ start_date: undefined }) }), [gaps(100, null)])).toEqual([]);
  });

  it("a number of installments out of the master's range", () => {
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 5 }) }), [ex4])).toEqual([
      { path: "sip.installments", reason: "installments_out_of_range", message: "must be between 6 and 60 for MONTHLY plans of exchange code EX4" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 61 }) }), [ex4])).toEqual([
      { path: "sip.installments", reason: "installments_out_of_range", message: "must be between 6 and 60 for MONTHLY plans of exchange code EX4" },
    ]);
    const atLeast = code("EX9", { sipRules: [sipRule("MONTHLY", { minInstallments: 12 })] });
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 11 }) }), [atLeast])).toEqual([
      { path: "sip.installments", reason: "installments_out_of_range", message: "must be at least 12 for MONTHLY plans of exchange code EX9" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 1200 }) }), [atLeast])).toEqual([]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 12 }) }), [atLeast])).toEqual([]);
    const atMost = code("EX9", { sipRules: [sipRule("MONTHLY", { maxInstallments: 24 })] });
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 25 }) }), [atMost])).toEqual([
      { path: "sip.installments", reason: "installments_out_of_range", message: "must be at most 24 for MONTHLY plans of exchange code EX9" },
    ]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 24 }) }), [atMost])).toEqual([]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 1 }) }), [atMost])).toEqual([]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: 1 }) }), [code("EX9", { sipRules: [sipRule("MONTHLY")] })])).toEqual([]);
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: undefined }) }), [ex4])).toEqual([]);
  });

  it("every violation at once, in order: flag, day, amount, installments", () => {
    const closed = code("EX4", { sipAllowed: false, sipRules: [monthly] });
    expect(violations(order("SIP", { amount: 450, sip: sip({ installment_day: 2, installments: 2 }) }), [closed]).map((v) => v.reason)).toEqual([
      "sip_not_allowed", "sip_date_not_allowed", "amount_below_minimum", "amount_not_multiple", "installments_out_of_range",
    ]);
  });

  it("no plan frequency (or no plan): the SIP master is not read", () => {
    expect(violations(order("SIP", { amount: 1, sip: sip({ frequency: undefined }) }), [ex4])).toEqual([]);
    expect(violations(order("SIP", { amount: 1 }), [ex4])).toEqual([]);
  });

  it("no amount: the day and installments are still checked", () => {
    expect(violations(order("SIP", { sip: sip({ installment_day: 3, installments: 2 }) }), [ex4]).map((v) => v.reason)).toEqual(["sip_date_not_allowed", "installments_out_of_range"]);
  });

  it("a top-up is a purchase: the SIP master is not read, even with a frequency in its sip object", () => {
    expect(violations(order("SIP_TOPUP", { amount: 100001, sip: { sip_order_id: "ord_1" } }), [ex4])).toEqual([]);
    expect(violations(order("SIP_TOPUP", { amount: 100000, sip: { sip_order_id: "ord_1", frequency: "MONTHLY", installment_day: 2, installments: 1 } }), [ex4])).toEqual([]);
    expect(violations(order("LUMPSUM_PURCHASE", { amount: 100000, sip: { frequency: "MONTHLY", installment_day: 2, installments: 1 } }), [ex4])).toEqual([]);
  });

  it("no minimum number of installments: none is too few (not even one the request schema refuses)", () => {
    const atMost = code("EX9", { sipRules: [sipRule("MONTHLY", { maxInstallments: 24 })] });
    expect(violations(order("SIP", { amount: 1000, sip: sip({ installments: -1 }) }), [atMost])).toEqual([]);
  });
});

describe("exchangeViolations: STP and SWP against the SIP master where it has a row", () => {
  const monthly = sipRule("MONTHLY", { dates: [1], minAmount: "1000", maxAmount: "5000", multiple: "500", minInstallments: 6, maxInstallments: 12 });
  const ex = code("EX", { sipRules: [monthly, sipRule("WEEKLY", { active: false, minAmount: "999999" })], minPurchaseAmount: dec("100000"), minRedemptionAmount: dec("100000") });
  const plan = (frequency: "MONTHLY" | "QUARTERLY" | "WEEKLY" = "MONTHLY", installments = 6) => ({ frequency, start_date: "2026-12-07", installments });

  it("the amount by the row of the plan's frequency", () => {
    expect(violations(order("STP", { amount: 1500, stp: { to_scheme_code: "2", ...plan() } }), [ex])).toEqual([]);
    expect(violations(order("STP", { amount: 750, stp: { to_scheme_code: "2", ...plan() } }), [ex])).toEqual([
      { path: "amount", reason: "amount_below_minimum", message: "must be at least 1000 for MONTHLY plans of exchange code EX (minimum 1000, maximum 5000, multiples of 500)" },
      { path: "amount", reason: "amount_not_multiple", message: "must be a multiple of 500 for MONTHLY plans of exchange code EX (minimum 1000, maximum 5000, multiples of 500)" },
    ]);
    expect(violations(order("SWP", { amount: 5500, swp: plan() }), [ex])).toEqual([
      { path: "amount", reason: "amount_above_maximum", message: "must be at most 5000 for MONTHLY plans of exchange code EX (minimum 1000, maximum 5000, multiples of 500)" },
    ]);
    expect(violations(order("SWP", { amount: 5500, swp: plan() }), [ex], null, "swp_amount").map((v) => v.path)).toEqual(["swp_amount"]);
  });

  it("no row for the frequency (or an inactive one): nothing to check", () => {
    expect(violations(order("STP", { amount: 1, stp: { to_scheme_code: "2", ...plan("QUARTERLY") } }), [ex])).toEqual([]);
    expect(violations(order("SWP", { amount: 1, swp: plan("WEEKLY") }), [ex])).toEqual([]);
    expect(violations(order("SWP", { amount: 1, swp: plan() }), [code("EX")])).toEqual([]);
  });

  it("no day or number of installments rule for a transfer; an SWP in units has no amount to check", () => {
    expect(violations(order("STP", { amount: 1000, stp: { to_scheme_code: "2", ...plan("MONTHLY", 100) } }), [ex])).toEqual([]);
    expect(violations(order("SWP", { units: 0.5, swp: plan("MONTHLY", 1) }), [ex])).toEqual([]);
  });

  it("the plan object as placed decides (a sip object on a transfer is still no registration)", () => {
    // Inputs the request schema refuses, read consistently: the SIP master's day and installments bind registrations only.
    expect(violations(order("SWP", { amount: 1000, sip: { frequency: "MONTHLY", installment_day: 28, installments: 1 } }), [ex])).toEqual([]);
    expect(violations(order("SWP", { amount: 1000, sip: { frequency: "QUARTERLY" } }), [ex])).toEqual([]);
    // A registration's plan read from another object names that object.
    expect(violations(order("SIP", { amount: 1000, stp: { to_scheme_code: "2", ...plan("QUARTERLY") } }), [ex]).map((v) => v.path)).toEqual(["stp.frequency"]);
    expect(violations(order("SIP", { amount: 1000, swp: plan("QUARTERLY") }), [ex]).map((v) => v.path)).toEqual(["swp.frequency"]);
    expect(violations(order("SIP", { amount: 1000, stp: { to_scheme_code: "2", ...plan("MONTHLY", 2) } }), [ex]).map((v) => v.path)).toEqual(["stp.installments"]);
    expect(violations(order("SIP", { amount: 1000, swp: plan("MONTHLY", 13) }), [ex]).map((v) => v.path)).toEqual(["swp.installments"]);
  });
});

// --- targetViolations ----------------------------------------------------------------------------------

describe("targetViolations", () => {
  const switchOrder = order("SWITCH", { all_units: true, switch: { to_scheme_code: "980005" } });
  const stpOrder = order("STP", { amount: 1000, stp: { to_scheme_code: "980005", frequency: "MONTHLY", start_date: "2026-12-07", installments: 6 } });
  const target = (codes: PlacementCode[], fields: Partial<PlacementScheme> = {}) => scheme(codes, { schemeCode: "980005", ...fields });

  it("no target scheme", () => {
    expect(targetViolations(switchOrder, null, "980099", null, TODAY)).toEqual({
      code: null,
      violations: [{ path: "switch.to_scheme_code", reason: "scheme_not_found", message: "no scheme 980099 in the scheme master: find its code with GET /api/masters/v1/schemes" }],
    });
    expect(targetViolations(stpOrder, null, "980098", null, TODAY).violations).toEqual([
      { path: "stp.to_scheme_code", reason: "scheme_not_found", message: "no scheme 980098 in the scheme master: find its code with GET /api/masters/v1/schemes" },
    ]);
  });

  it("no target code for the holding mode", () => {
    expect(targetViolations(switchOrder, target([code("P", { transactionMode: "PHYSICAL" })]), "980005", "CDSL", TODAY)).toEqual({
      code: null,
      violations: [{ path: "switch.to_scheme_code", reason: "scheme_not_tradable", message: "the exchange lists no DEMAT code for scheme 980005 (only PHYSICAL): choose another scheme or holding mode" }],
    });
    expect(targetViolations(stpOrder, target([]), "980005", null, TODAY).violations).toEqual([
      { path: "stp.to_scheme_code", reason: "scheme_not_tradable", message: "the exchange lists no code for scheme 980005: it cannot be traded on the exchange" },
    ]);
  });

  it("the target's code for the mode, taking purchases and the switch or STP into it", () => {
    const p = code("T-P", { transactionMode: "PHYSICAL", uniqueNo: 2 });
    const d = code("T-D", { transactionMode: "DEMAT", uniqueNo: 1 });
    expect(targetViolations(switchOrder, target([d, p]), "980005", "PHYSICAL", TODAY)).toEqual({ code: p, violations: [] });
    expect(targetViolations(stpOrder, target([d, p]), "980005", "NSDL", TODAY)).toEqual({ code: d, violations: [] });
    // Into it: a code taking purchases and the switch before one that does not, whatever its Unique No.
    const noPurchase = code("T-0", { uniqueNo: 0, purchaseAllowed: false });
    const good = code("T-9", { uniqueNo: 9 });
    expect(targetViolations(switchOrder, target([noPurchase, good]), "980005", null, TODAY).code?.code).toBe("T-9");
    // The target's growth ISIN, else its reinvestment one.
    const g = code("G", { uniqueNo: 5, isin: "INF000A01AC7" });
    const r = code("R", { uniqueNo: 1, isin: "INF000A01AD5" });
    expect(targetViolations(switchOrder, target([r, g], { isinGrowth: "INF000A01AC7" }), "980005", null, TODAY).code?.code).toBe("G");
    expect(targetViolations(switchOrder, target([r, g], { isinGrowth: null, isinReinvestment: "INF000A01AC7" }), "980005", null, TODAY).code?.code).toBe("G");
    expect(targetViolations(switchOrder, target([g, r], { isinGrowth: null, isinReinvestment: null }), "980005", null, TODAY).code?.code).toBe("R");
  });

  it("a target code refusing purchases, or the switch or STP into it", () => {
    expect(targetViolations(switchOrder, target([code("EX5", { purchaseAllowed: false })]), "980005", null, TODAY).violations).toEqual([
      { path: "switch.to_scheme_code", reason: "purchase_not_allowed", message: "exchange code EX5 does not accept purchases: choose a scheme whose exchange code has purchase_allowed" },
    ]);
    expect(targetViolations(switchOrder, target([code("EX5", { switchAllowed: false, stpAllowed: false })]), "980005", null, TODAY).violations).toEqual([
      { path: "switch.to_scheme_code", reason: "switch_not_allowed", message: "exchange code EX5 does not accept switches: choose a scheme whose exchange code has switch_allowed" },
    ]);
    expect(targetViolations(stpOrder, target([code("EX5", { switchAllowed: false, stpAllowed: false })]), "980005", null, TODAY).violations).toEqual([
      { path: "stp.to_scheme_code", reason: "stp_not_allowed", message: "exchange code EX5 does not accept STPs: choose a scheme whose exchange code has stp_allowed" },
    ]);
    expect(targetViolations(stpOrder, target([code("EX5", { switchAllowed: false })]), "980005", null, TODAY).violations).toEqual([]);
    expect(targetViolations(switchOrder, target([code("EX5", { stpAllowed: false, redemptionAllowed: false, sipAllowed: false })]), "980005", null, TODAY).violations).toEqual([]);
    expect(targetViolations(stpOrder, target([code("EX5", { purchaseAllowed: false, stpAllowed: false })]), "980005", null, TODAY).violations.map((v) => v.reason)).toEqual([
      "purchase_not_allowed", "stp_not_allowed",
    ]);
  });
});

// --- mandateValidityViolations -------------------------------------------------------------------------

describe("mandateValidityViolations", () => {
  const xsip = (fields: Partial<NonNullable<PlaceOrderInput["sip"]>> = {}) =>
    order("XSIP", { amount: 1000, mandate_id: "m1", sip: { frequency: "MONTHLY", start_date: "2026-12-01", installments: 6, installment_day: 10, ...fields } });
  const mandate = (start: string, end: string | null) => ({ startDate: day(start), endDate: end === null ? null : day(end) });

  it("every installment within the mandate's validity", () => {
    expect(mandateValidityViolations(xsip(), mandate("2026-12-01", null))).toEqual([]);
    expect(mandateValidityViolations(xsip(), mandate("2026-11-01", "2027-05-10"))).toEqual([]);
    expect(mandateValidityViolations(xsip({ start_date: "2027-05-10", installments: 1 }), mandate("2026-11-01", "2027-05-10"))).toEqual([]);
  });

  it("a plan starting before the mandate", () => {
    expect(mandateValidityViolations(xsip(), mandate("2026-12-02", null))).toEqual([
      { path: "sip.start_date", reason: "before_mandate_start", message: "must be on or after the mandate's start date 2026-12-02" },
    ]);
    expect(mandateValidityViolations(xsip(), mandate("2026-12-02", "2026-11-30"))).toEqual([
      { path: "sip.start_date", reason: "before_mandate_start", message: "must be on or after the mandate's start date 2026-12-02" },
    ]);
  });

  it("a plan starting after the mandate's end", () => {
    expect(mandateValidityViolations(xsip(), mandate("2026-01-01", "2026-11-30"))).toEqual([
      { path: "sip.start_date", reason: "after_mandate_end", message: "must be on or before the mandate's end date 2026-11-30" },
    ]);
  });

  it("installments beyond the mandate's end: the first that does not fit", () => {
    expect(mandateValidityViolations(xsip(), mandate("2026-11-01", "2027-05-09"))).toEqual([
      { path: "sip.installments", reason: "beyond_mandate_end", message: "installment 6 falls on 2027-05-10, after the mandate's end date 2027-05-09 (at most 5 fit)" },
    ]);
    expect(mandateValidityViolations(xsip({ start_date: "2026-12-01" }), mandate("2026-11-01", "2026-12-01"))).toEqual([
      { path: "sip.installments", reason: "beyond_mandate_end", message: "installment 1 falls on 2026-12-10, after the mandate's end date 2026-12-01 (at most 0 fit)" },
    ]);
    expect(mandateValidityViolations(xsip({ frequency: "WEEKLY", installments: 3 }), mandate("2026-11-01", "2026-12-14"))).toEqual([
      { path: "sip.installments", reason: "beyond_mandate_end", message: "installment 3 falls on 2026-12-15, after the mandate's end date 2026-12-14 (at most 2 fit)" },
    ]);
  });

  it("only for an order debited by a mandate, with a whole plan", () => {
    const late = mandate("2027-01-01", "2027-01-02");
    expect(mandateValidityViolations(xsip(), late).map((v) => v.reason)).toEqual(["before_mandate_start"]);
    expect(mandateValidityViolations({ ...xsip(), order_type: "SIP" }, late)).toEqual([]);
    expect(mandateValidityViolations({ ...xsip(), order_type: "LUMPSUM_PURCHASE" }, late)).toEqual([]);
    expect(mandateValidityViolations(order("XSIP", { amount: 1000 }), late)).toEqual([]);
    for (const field of ["frequency", "start_date", "installments", "installment_day"] as const) {
      expect(mandateValidityViolations(xsip({ [field]: undefined }), late), field).toEqual([]);
      expect(mandateValidityViolations(xsip({ [field]: undefined }), mandate("2020-01-01", "2020-01-02")), field).toEqual([]);
    }
  });
});
