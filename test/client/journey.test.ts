import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMfClient, fetchToken, type MfClient } from "../../client/index.js";
import { useTestApp } from "../helpers/app.js";
import { randomPan } from "../helpers/factories.js";
import { createScheme } from "../helpers/orders.js";

// The generated client against a real app over HTTP: if openapi.json misdescribed a path, a body or an
// answer, this file would not compile (npm run typecheck) or the calls below would fail.
const feedDir = mkdtempSync(path.join(os.tmpdir(), "client-journey-"));
const app = useTestApp({ HOLDINGS_FEED_DIR: feedDir });
let mf: MfClient;

beforeAll(async () => {
  await createScheme(app, "940001", { isinGrowth: "INF940T01AA1", name: "Client Journey Fund", amcCode: "CLIENTAMC", amcName: "Client Mutual Fund", category: "Equity", nav: "25.0000" });
  const distributor = await app.newDistributor();
  mf = createMfClient({ baseUrl: app.baseUrl, token: await fetchToken(app.baseUrl, distributor.client_id, distributor.client_secret) });
});

afterAll(() => rmSync(feedDir, { recursive: true, force: true }));

describe("the typed client (openapi-typescript + openapi-fetch)", () => {
  it("onboards an investor, places an order, has it allotted and finds the units by PAN", async () => {
    const pan = randomPan();
    const created = await mf.POST("/api/investors/v1", {
      headers: { "Idempotency-Key": `client-journey-${pan}` },
      body: {
        primary_holder: { pan, name: "Asha Rao", date_of_birth: "1988-04-12", gender: "F", occupation: "PRIVATE_SECTOR_SERVICE", kyc_type: "KRA" },
        tax_status: "INDIVIDUAL",
        holding_type: "SINGLE",
        contact: { email: "asha@example.in", mobile: "9876543210", email_relation: "SELF", mobile_relation: "SELF" },
        address: { line1: "12 MG Road", city: "Pune", state_code: "MH", pincode: "411001", country_code: "IN" },
        fatca: { occupation_type: "SERVICE", income_slab: "34", pep: "NO", source_of_wealth: "SALARY", country_of_birth: "IN", place_of_birth: "Pune", tax_resident_other_country: false },
        bank_accounts: [{ account_type: "SB", account_number: "001234567890", ifsc: "HDFC0001234", is_primary: true }],
        nominees: [
          {
            name: "Ravi Rao", relationship: "SPOUSE", percentage: 100, date_of_birth: "1986-07-21",
            identity: { type: "PAN", number: "BCDPR2345K" },
            contact: { mobile: "9811122233", address: { line1: "12 MG Road", city: "Pune", state: "MH", pincode: "411001", country: "IN" } },
          },
        ],
      },
    });
    expect(created.response.status).toBe(201);
    const investor = created.data!;
    expect(investor.status).toBe("PENDING");
    expect(investor.primary_holder.pan).toBe(`${pan.slice(0, 2)}XXXXX${pan.slice(7)}`);

    const registered = await mf.GET("/api/simulation/investors/v1/{id}/register", { params: { path: { id: investor.id } } });
    expect(registered.response.status).toBe(200);
    expect((await mf.GET("/api/investors/v1/{id}", { params: { path: { id: investor.id } } })).data?.status).toBe("REGISTERED");

    const placed = await mf.POST("/api/orders/v1/", {
      body: { investment_account_id: investor.investment_account_id, order_type: "LUMPSUM_PURCHASE", scheme_code: "940001", purchase_type: "FRESH", amount: 5000, client_ref: `client-${pan}` },
    });
    expect(placed.response.status).toBe(201);
    const orderId = placed.data!.id;
    expect(placed.data).toMatchObject({ order_type: "LUMPSUM_PURCHASE", status: "PENDING", client_ref: `client-${pan}` });

    expect((await mf.GET("/api/simulation/orders/v1/{id}/accept", { params: { path: { id: orderId } } })).response.status).toBe(200);
    const allot = await mf.GET("/api/simulation/orders/v1/{id}/allot", { params: { path: { id: orderId }, query: { nav: 25, folio_no: "CLIENT/1" } } });
    expect(allot.response.status).toBe(200);
    const order = await mf.GET("/api/orders/v1/{id}", { params: { path: { id: orderId } } });
    expect(order.data).toMatchObject({ status: "ALLOTTED", units: 200, nav: 25, folio_no: "CLIENT/1", allotted_amount: 5000 });

    expect((await mf.GET("/api/simulation/holdings/v1/refresh")).response.status).toBe(200);
    const holdings = await mf.POST("/api/holdings/v1/lookup", { body: { pan } });
    expect(holdings.response.status).toBe(200);
    expect(holdings.data!.holdings).toEqual([
      expect.objectContaining({ registrar: "CAMS", amc_code: "CLIENTAMC", folio_no: "CLIENT/1", scheme_code: "940001", units: 200, nav: 25, market_value: 5000 }),
    ]);
    expect(holdings.data!.summary).toMatchObject({ positions: 1, total_market_value: 5000 });
  });

  it("answers a refusal as the typed error envelope", async () => {
    const refused = await mf.POST("/api/holdings/v1/lookup", { body: { pan: "not-a-pan" } });
    expect(refused.response.status).toBe(400);
    expect(refused.data).toBeUndefined();
    expect(refused.error).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", details: [expect.objectContaining({ path: "pan" })] } });
  });

  it("without a token, every /api call is 401", async () => {
    const anonymous = createMfClient({ baseUrl: app.baseUrl });
    expect((await anonymous.GET("/api/masters/v1/investor-options")).response.status).toBe(401);
  });
});
