import { beforeAll, describe, expect, it } from "vitest";
import { DISPATCH_ATTEMPTS } from "../../src/domains/orders/orders.service.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { createRuleSchemes, lumpsumOrder, orderingInvestor, today } from "../helpers/orders.js";

// Placing orders that are accepted; refusals are in place-errors.test.ts, tenancy in place-tenancy.test.ts.
const app = useTestApp();
let token = "";
let otherToken = "";
let account = "";
let investorId = "";
let mandateId = "";

beforeAll(async () => {
  await createRuleSchemes(app);
  ({ token, otherToken, account, investorId, mandateId } = await orderingInvestor(app, { mandate: true }));
});

const place = (json: Record<string, unknown>, options: { token?: string; path?: string } = {}) =>
  app.http("POST", options.path ?? "/api/orders/v1/", { token: options.token ?? token, json: { investment_account_id: account, ...json } });

const lumpsum = (overrides: Record<string, unknown> = {}) => lumpsumOrder("900001", overrides);
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
    // A top-up is an additional purchase at the exchange: the additional purchase minimum (1,000) applies.
    const small = await place({ order_type: "SIP_TOPUP", amount: 500, sip: { sip_order_id: base.id } });
    expect(small.body.error.details).toEqual([{ path: "amount", reason: "amount_below_minimum", message: "must be at least 1000 for exchange code BSE900001 (minimum 1000, multiples of 1)" }]);
    expect((await place({ order_type: "SIP_TOPUP", amount: 1000, sip: { sip_order_id: base.id } })).status).toBe(201);
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
