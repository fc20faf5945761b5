import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { createRuleSchemes, lumpsumOrder, orderingInvestor, today } from "../helpers/orders.js";

// Orders refused with 400: the body's shape and the scheme master's and account's rules.
const app = useTestApp();
let token = "";
let account = "";

beforeAll(async () => {
  await createRuleSchemes(app);
  ({ token, account } = await orderingInvestor(app));
});

const place = (json: Record<string, unknown>, options: { token?: string; path?: string } = {}) =>
  app.http("POST", options.path ?? "/api/orders/v1/", { token: options.token ?? token, json: { investment_account_id: account, ...json } });

const lumpsum = (overrides: Record<string, unknown> = {}) => lumpsumOrder("900001", overrides);
const sip = { frequency: "MONTHLY", start_date: today(), installments: 12, installment_day: 5 };

describe("POST /api/orders/v1/ refuses", () => {
  it.each([
    ["lump sum without amount", lumpsum({ amount: undefined }), "amount"],
    ["lump sum without purchase type", lumpsum({ purchase_type: undefined }), "purchase_type"],
    ["additional purchase without folio", lumpsum({ purchase_type: "ADDITIONAL", amount: 1000 }), "folio_no"],
    ["lump sum with units", lumpsum({ units: 5 }), "units"],
    ["redemption without folio", { order_type: "REDEMPTION", scheme_code: "900001", all_units: true }, "folio_no"],
    ["redemption with amount and units", { order_type: "REDEMPTION", scheme_code: "900001", folio_no: "1", amount: 1000, units: 3 }, ""],
    ["redemption with nothing to redeem", { order_type: "REDEMPTION", scheme_code: "900001", folio_no: "1" }, ""],
    ["switch without a target", { order_type: "SWITCH", scheme_code: "900001", folio_no: "1", all_units: true }, "switch"],
    ["SIP without schedule", { order_type: "SIP", scheme_code: "900001", amount: 1000 }, "sip"],
    ["SIP without installment day", { order_type: "SIP", scheme_code: "900001", amount: 1000, sip: { ...sip, installment_day: undefined } }, "sip.installment_day"],
    ["SIP with a day of 31", { order_type: "SIP", scheme_code: "900001", amount: 1000, sip: { ...sip, installment_day: 31 } }, "sip.installment_day"],
    ["SIP starting yesterday", { order_type: "SIP", scheme_code: "900001", amount: 1000, sip: { ...sip, start_date: "2020-01-01" } }, "sip.start_date"],
    ["XSIP without mandate", { order_type: "XSIP", scheme_code: "900001", amount: 1000, sip }, "mandate_id"],
    ["STP without folio", { order_type: "STP", scheme_code: "900001", amount: 1000, stp: { to_scheme_code: "900002", frequency: "MONTHLY", start_date: today(), installments: 6 } }, "folio_no"],
    ["SWP with all units", { order_type: "SWP", scheme_code: "900001", folio_no: "1", all_units: true, swp: { frequency: "MONTHLY", start_date: today(), installments: 3 } }, "all_units"],
    ["SIP top-up without its SIP", { order_type: "SIP_TOPUP", amount: 500 }, "sip.sip_order_id"],
    ["an stp object on a SIP", { order_type: "SIP", scheme_code: "900001", amount: 1000, sip, stp: { to_scheme_code: "900002", frequency: "MONTHLY", start_date: today(), installments: 1 } }, "stp"],
    ["an amount with 3 decimals", lumpsum({ amount: 5000.001 }), "amount"],
    ["an amount as a string", lumpsum({ amount: "5000" }), "amount"],
    ["a bad EUIN", lumpsum({ euin: { code: "123456", declaration: true } }), "euin.code"],
    ["an unknown order type", { order_type: "SPOT", scheme_code: "900001" }, "order_type"],
    ["no investment account", { investment_account_id: undefined, ...lumpsum() }, "investment_account_id"],
  ])("refuses %s (400, nothing written)", async (_name, body, path) => {
    const before = await app.prisma.order.count();
    const res = await place(body as Record<string, unknown>);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await app.prisma.order.count()).toBe(before);
  });

  it.each([
    ["an unknown scheme", lumpsum({ scheme_code: "999999" }), "scheme_code", "scheme_not_found"],
    ["a scheme closed to purchases", lumpsum({ scheme_code: "900003" }), "scheme_code", "purchase_not_allowed"],
    ["a scheme without SIPs", { order_type: "SIP", scheme_code: "900004", amount: 1000, sip }, "scheme_code", "sip_not_allowed"],
    ["a scheme closed to redemptions", { order_type: "REDEMPTION", scheme_code: "900004", folio_no: "1", all_units: true }, "scheme_code", "redemption_not_allowed"],
    ["an amount below the minimum", lumpsum({ amount: 4999 }), "amount", "amount_below_minimum"],
    ["an amount off the multiple", lumpsum({ scheme_code: "900002", amount: 750 }), "amount", "amount_not_multiple"],
    ["a SIP amount off the SIP multiple", { order_type: "SIP", scheme_code: "900001", amount: 550, sip }, "amount", "amount_not_multiple"],
    ["a switch into a closed scheme", { order_type: "SWITCH", scheme_code: "900001", folio_no: "1", all_units: true, switch: { to_scheme_code: "900003" } }, "switch.to_scheme_code", "purchase_not_allowed"],
    ["another investor's id", lumpsum({ investor_id: "inv_someone_else" }), "investor_id", "investor_mismatch"],
  ])("applies the scheme master and account rules: %s", async (_name, body, path, reason) => {
    const res = await place(body as Record<string, unknown>);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ path, reason }));
  });

  it.each([
    ["an amount below the minimum", lumpsum({ amount: 4999 }), "amount", "amount_below_minimum", "must be at least 5000 for exchange code BSE900001 (minimum 5000, multiples of 1)"],
    ["an amount off the multiple", lumpsum({ scheme_code: "900002", amount: 750 }), "amount", "amount_not_multiple", "must be a multiple of 500 for exchange code BSE900002 (minimum 500, multiples of 500)"],
    ["an unknown scheme", lumpsum({ scheme_code: "999999" }), "scheme_code", "scheme_not_found", "no scheme 999999 in the scheme master: find its code with GET /api/masters/v1/schemes"],
    ["a scheme closed to purchases", lumpsum({ scheme_code: "900003" }), "scheme_code", "purchase_not_allowed", "exchange code BSE900003 does not accept purchases: choose a scheme whose exchange code has purchase_allowed"],
  ])("says what to change: %s", async (_name, body, path, reason, message) => {
    const res = await place(body as Record<string, unknown>);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path, reason, message }]);
  });

});
