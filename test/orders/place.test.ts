import { beforeAll, describe, expect, it } from "vitest";
import { DISPATCH_ATTEMPTS } from "../../src/orders/orders.service.js";
import { dispatchOrder } from "../../src/orders/jobs/dispatch.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { orderingInvestor, today } from "../helpers/orders.js";
import { pendingInvestor } from "../helpers/investors.js";

const app = useTestApp();
let token = "";
let otherToken = "";
let account = "";
let investorId = "";
let mandateId = "";

const SCHEMES = [
  { code: "900001", purchase: true, sip: true, redeem: true, minPurchase: "5000.00", multiple: "1.00", minAdditional: "1000.00", minSip: "500.00", sipMultiple: "100.00", minRedemption: "1000.00" },
  { code: "900002", purchase: true, sip: true, redeem: true, minPurchase: "500.00", multiple: "500.00", minAdditional: "500.00", minSip: "500.00", sipMultiple: "500.00", minRedemption: null },
  { code: "900003", purchase: false, sip: false, redeem: true, minPurchase: null, multiple: null, minAdditional: null, minSip: null, sipMultiple: null, minRedemption: null },
  { code: "900004", purchase: true, sip: false, redeem: false, minPurchase: "100.00", multiple: null, minAdditional: null, minSip: null, sipMultiple: null, minRedemption: null },
];

beforeAll(async () => {
  for (const s of SCHEMES) {
    await app.prisma.scheme.create({
      data: {
        schemeCode: s.code, name: `Test Scheme ${s.code}`, amcCode: "TEST_AMC", amcName: "Test Mutual Fund", category: "Equity Scheme",
        schemeType: "Open Ended Schemes", purchaseAllowed: s.purchase, sipAllowed: s.sip, redemptionAllowed: s.redeem,
        minPurchaseAmount: s.minPurchase, purchaseMultiple: s.multiple, minAdditionalAmount: s.minAdditional,
        minSipAmount: s.minSip, sipMultiple: s.sipMultiple, minRedemptionAmount: s.minRedemption, nav: "12.3456", navDate: new Date("2026-11-20"),
      },
    });
  }
  ({ token, otherToken, account, investorId, mandateId } = await orderingInvestor(app, { mandate: true }));
});

const place = (json: Record<string, unknown>, options: { token?: string; path?: string } = {}) =>
  app.http("POST", options.path ?? "/api/orders/v1/", { token: options.token ?? token, json: { investment_account_id: account, ...json } });

const lumpsum = (overrides: Record<string, unknown> = {}) => ({ order_type: "LUMPSUM_PURCHASE", scheme_code: "900001", amount: 5000, purchase_type: "FRESH", ...overrides });
const sip = { frequency: "MONTHLY", start_date: today(), installments: 12, installment_day: 5 };
const dispatch = (id: string, attempts = 1) => runTask(app, dispatchOrder, { order_id: id }, { attempts, maxAttempts: DISPATCH_ATTEMPTS });

describe("POST /api/orders/v1/", () => {
  it("validates and persists a lump sum synchronously: exactly id, client_ref, created_at, order_type, status", async () => {
    const res = await place(lumpsum({ client_ref: "ord-1" }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["client_ref", "created_at", "id", "order_type", "status"]);
    expect(res.body).toMatchObject({ client_ref: "ord-1", order_type: "LUMPSUM_PURCHASE", status: "PENDING" });
    const order = await app.http("GET", `/api/orders/v1/${res.body.id}`, { token });
    expect(order.body).toMatchObject({ status: "PENDING", payment_status: "UNPAID", amount: 5000, investor_id: investorId, scheme_code: "900001", failure_code: null, nav: null });
    expect((await app.http("GET", `/api/orders/v1/${res.body.id}`, { token: otherToken })).status).toBe(404);
    const jobs = await queuedJobs(app, "orders__dispatch", "order_id", res.body.id);
    expect(jobs).toHaveLength(1);
  });

  it("is also served without the trailing slash", async () => {
    expect((await place(lumpsum(), { path: "/api/orders/v1" })).status).toBe(201);
  });

  it("accepts every order type with its own details", async () => {
    const accepted: Array<Record<string, unknown>> = [
      { order_type: "REDEMPTION", scheme_code: "900001", folio_no: "12345/67", all_units: true },
      { order_type: "REDEMPTION", scheme_code: "900001", folio_no: "12345/67", units: 10.125 },
      { order_type: "SWITCH", scheme_code: "900001", folio_no: "123", amount: 2000, switch: { to_scheme_code: "900002" } },
      { order_type: "SIP", scheme_code: "900001", amount: 1000, sip },
      { order_type: "XSIP", scheme_code: "900001", amount: 1000, sip, mandate_id: mandateId },
      { order_type: "STP", scheme_code: "900001", folio_no: "123", amount: 1000, stp: { to_scheme_code: "900002", frequency: "MONTHLY", start_date: today(), installments: 6 } },
      { order_type: "SWP", scheme_code: "900001", folio_no: "123", units: 5, swp: { frequency: "QUARTERLY", start_date: today(), installments: 4 } },
      { order_type: "LUMPSUM_PURCHASE", scheme_code: "900001", amount: 1000, purchase_type: "ADDITIONAL", folio_no: "123", euin: { code: "E123456", declaration: true } },
    ];
    for (const order of accepted) {
      const res = await place(order);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const redemption = (await place(accepted[0]!)).body;
    expect((await app.http("GET", `/api/orders/v1/${redemption.id}`, { token })).body.payment_status).toBe("NOT_REQUIRED");
  });

  it("tops up an ACCEPTED SIP of the same account, and not a PENDING one", async () => {
    const base = (await place({ order_type: "SIP", scheme_code: "900001", amount: 1000, sip })).body;
    const early = await place({ order_type: "SIP_TOPUP", amount: 500, sip: { sip_order_id: base.id } });
    expect(early.status).toBe(400);
    expect(early.body.error.details).toContainEqual(expect.objectContaining({ path: "sip.sip_order_id", reason: "sip_not_active" }));
    await dispatch(base.id);
    expect((await place({ order_type: "SIP_TOPUP", amount: 500, sip: { sip_order_id: base.id } })).status).toBe(201);
  });

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

  it("needs the caller's own account and a REGISTERED investor", async () => {
    expect((await place(lumpsum(), { token: otherToken })).status).toBe(404);
    const pending = await pendingInvestor(app, token);
    const res = await place({ ...lumpsum(), investment_account_id: pending.account });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ path: "investment_account_id", reason: "investor_not_registered" }));
  });

  it("answers a repeated client_ref with the same order, and another body with 409", async () => {
    const first = await place(lumpsum({ client_ref: "repeat-1" }));
    const again = await place(lumpsum({ client_ref: "repeat-1" }));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const different = await place(lumpsum({ client_ref: "repeat-1", amount: 6000 }));
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe("CONFLICT");
  });
});
