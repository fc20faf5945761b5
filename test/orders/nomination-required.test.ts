import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { registeredInvestor, twoDistributors } from "../helpers/investors.js";
import { createOpenScheme, lumpsumOrder, today } from "../helpers/orders.js";
import { formOf, sameOrigin, sendPage } from "../helpers/pages.js";

// A new folio outside a demat account needs nominees or a confirmed opt-out (servicing.md, Nomination).
const app = useTestApp();
let token = "";

beforeAll(async () => {
  await createOpenScheme(app, "970001");
  ({ token } = await twoDistributors(app));
});

const place = (account: string, json: Record<string, unknown>) =>
  app.http("POST", "/api/orders/v1/", { token, json: { investment_account_id: account, ...json } });

const fresh = () => lumpsumOrder("970001", { amount: 1000 });
const sip = (orderType = "SIP") => ({ order_type: orderType, scheme_code: "970001", amount: 1000, sip: { frequency: "MONTHLY", start_date: today(), installments: 6, installment_day: 28 } });

const REFUSAL = {
  path: "investment_account_id",
  reason: "nomination_required",
  message:
    "the investor has neither nominees nor an opt-out: add nominees (PATCH /api/investors/v1/{id} with `nominees`) or ask the investor " +
    "to opt out (POST /api/investors/v1/{id}/nomination-opt-out and send them the link)",
};

describe("nomination_required at placement", () => {
  it("refuses a FRESH purchase and a SIP for a PHYSICAL investor without nominees or an opt-out (400), and places nothing", async () => {
    const investor = await registeredInvestor(app, token, investorBody({ nominees: [] }));
    for (const body of [fresh(), sip()]) {
      const res = await place(investor.account, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details).toEqual([REFUSAL]);
    }
    expect(await app.prisma.order.count({ where: { investorId: investor.id } })).toBe(0);
  });

  it("does not touch an ADDITIONAL purchase or a redemption", async () => {
    const investor = await registeredInvestor(app, token, investorBody({ nominees: [] }));
    const additional = await place(investor.account, lumpsumOrder("970001", { amount: 1000, purchase_type: "ADDITIONAL", folio_no: "F/970001" }));
    expect(additional.status).toBe(201);
    const redemption = await place(investor.account, { order_type: "REDEMPTION", scheme_code: "970001", folio_no: "F/970001", amount: 100 });
    expect(redemption.body.error?.details ?? []).not.toContainEqual(expect.objectContaining({ reason: "nomination_required" }));
  });

  it("does not apply to a demat holding (the depository holds the nomination)", async () => {
    const investor = await registeredInvestor(app, token, investorBody({ nominees: [], demat: { mode: "CDSL", client_id: "1234567890123456" } }));
    expect((await place(investor.account, fresh())).status).toBe(201);
    expect((await place(investor.account, sip())).status).toBe(201);
  });

  it("places once the investor has opted out on the consent page", async () => {
    const investor = await registeredInvestor(app, token, investorBody({ nominees: [] }));
    const consent = await app.http("POST", `/api/investors/v1/${investor.id}/nomination-opt-out`, { token });
    const page = await sendPage(app, "GET", `/consents/${consent.body.id}`);
    const form = formOf(page.headers, page.text);
    expect((await sendPage(app, "POST", `/consents/${consent.body.id}/confirm`, { form: { form_token: form.token }, headers: sameOrigin(form.cookie) })).status).toBe(303);
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
    expect((await place(investor.account, fresh())).status).toBe(201);
  });
});
