import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { today } from "../helpers/orders.js";
import { mandateBody, registeredInvestor, registeredMandate, twoDistributors, type TestInvestor } from "../helpers/investors.js";

const app = useTestApp();
let token = "";
let otherToken = "";
let asha: TestInvestor;
let ravi: TestInvestor;
/** Oldest first: asha's PENDING, asha's REGISTERED, asha's PENDING, ravi's PENDING. */
let created: string[] = [];

const list = (query = "", as = token) => app.http("GET", `/api/mandates/v1${query}`, { token: as });
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((m) => m.id);

async function pendingMandate(investor: TestInvestor, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, overrides) });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  // Own distributors: the lists do not depend on what other tests created.
  ({ token, otherToken } = await twoDistributors(app));
  asha = await registeredInvestor(app, token);
  ravi = await registeredInvestor(app, token);
  created = [
    await pendingMandate(asha, { client_ref: "list-1", end_date: "2040-12-31" }),
    await registeredMandate(app, token, asha),
    await pendingMandate(asha, { mandate_type: "PHYSICAL" }),
    await pendingMandate(ravi),
  ];
});

describe("GET /api/mandates/v1", () => {
  it("lists the distributor's mandates newest first, each as GET /api/mandates/v1/{id} shows it", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...created].reverse());
    expect(res.body.next_cursor).toBeNull();
    for (const item of res.body.data) expect(item).toEqual((await app.http("GET", `/api/mandates/v1/${item.id}`, { token })).body);
    expect(res.body.data[3]).toEqual({
      id: created[0],
      investor_id: asha.id,
      bank_account_id: asha.bankAccountId,
      bank_account_number: "XXXXXXXX7890",
      ifsc: "HDFC0001234",
      mandate_type: "ENACH",
      amount_limit: 25000.5,
      start_date: today(),
      end_date: "2040-12-31",
      status: "PENDING",
      exchange_mandate_id: null,
      provider_remark: null,
      auth_url: null,
      client_ref: "list-1",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain("1234567890");
  });

  it("filters by investor_id and status, together and apart", async () => {
    expect(ids(await list(`?investor_id=${asha.id}`))).toEqual([created[2], created[1], created[0]]);
    expect(ids(await list(`?investor_id=${ravi.id}`))).toEqual([created[3]]);
    expect(ids(await list("?status=REGISTERED"))).toEqual([created[1]]);
    expect(ids(await list(`?status=PENDING&investor_id=${asha.id}`))).toEqual([created[2], created[0]]);
    expect((await list("?status=CANCELLED")).body).toEqual({ data: [], next_cursor: null });
  });

  it("pages with limit and cursor", async () => {
    const page1 = await list("?limit=2");
    expect(ids(page1)).toEqual([created[3], created[2]]);
    expect(page1.body.next_cursor).toEqual(expect.any(String));
    const page2 = await list(`?limit=2&cursor=${page1.body.next_cursor}`);
    expect(ids(page2)).toEqual([created[1], created[0]]);
    expect(page2.body.next_cursor).toBeNull();

    const filtered1 = await list(`?investor_id=${asha.id}&limit=2`);
    expect(ids(filtered1)).toEqual([created[2], created[1]]);
    const filtered2 = await list(`?investor_id=${asha.id}&limit=2&cursor=${filtered1.body.next_cursor}`);
    expect(filtered2.body).toEqual({ data: [expect.objectContaining({ id: created[0] })], next_cursor: null });
  });

  it("shows another distributor nothing: its own list is empty, and our investor_id gives it an empty list, not 404", async () => {
    expect(await list("", otherToken)).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    expect(await list(`?investor_id=${asha.id}`, otherToken)).toMatchObject({ status: 200, body: { data: [], next_cursor: null } });
    expect((await list("?investor_id=inv_unknown")).body).toEqual({ data: [], next_cursor: null });
  });

  it("refuses a bad status, limit or cursor, and an unknown query parameter, with 400 on its path", async () => {
    const damaged = Buffer.from(JSON.stringify([1, 2])).toString("base64url");
    for (const [query, path, reason] of [
      ["?status=ACTIVE", "status", "invalid_value"],
      ["?limit=0", "limit", "too_small"],
      ["?limit=101", "limit", "too_big"],
      ["?limit=ten", "limit", "invalid_type"],
      ["?cursor=not-a-cursor", "cursor", "invalid_cursor"],
      [`?cursor=${damaged}`, "cursor", "invalid_cursor"],
      [`?investor_id=${"x".repeat(65)}`, "investor_id", "too_big"],
      ["?order_id=ord_1", "order_id", "unknown_field"],
    ] as const) {
      const res = await list(query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path, message: expect.any(String), reason }] },
        request_id: expect.any(String),
      });
    }
    expect((await app.http("GET", "/api/mandates/v1")).status).toBe(401);
  });
});
