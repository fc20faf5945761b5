import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { allottedOrder, newTenant, type Tenant } from "../helpers/tenants.js";
import { createScheme } from "../helpers/orders.js";

/**
 * Issue 27 (history): the sandbox registrar writes transaction feed lines (CAMS WBR2, KFintech MFSD201) for what
 * it books; the refresh imports them; the investor's transactions and the PAN lookup list them, tenant-scoped.
 */
const feedDir = mkdtempSync(path.join(os.tmpdir(), "holdings-history-"));
const app = useTestApp({ HOLDINGS_FEED_DIR: feedDir });

let a: Tenant;
let b: Tenant;

const allotted = (t: Tenant, order: Record<string, unknown>, allot: string) => allottedOrder(app, t, { scheme_code: "930201", ...order }, allot);

const refresh = (t: Tenant) => app.http("GET", "/api/simulation/holdings/v1/refresh", { token: t.token });
const history = (t: Tenant, query = "", investorId = t.investorId) => app.http("GET", `/api/investors/v1/${investorId}/transactions${query}`, { token: t.token });
const lookup = (t: Tenant, json: Record<string, unknown>) => app.http("POST", "/api/holdings/v1/transactions", { token: t.token, json });
const types = (body: { data: Array<{ type: string }> }) => body.data.map((item) => item.type);

const TXN_NO = expect.stringMatching(/^\d{15}$/);
const SCHEME = { registrar: "CAMS", amc_code: "HISTAMC", folio_no: "HIST/1", reverses_transaction_no: null, stamp_duty: null, stt: null, tds: null };

beforeAll(async () => {
  const fund = { amcCode: "HISTAMC", amcName: "History Mutual Fund", category: "Equity" };
  await createScheme(app, "930201", { isinGrowth: "INF930H01AA1", name: "History Equity Fund", nav: "12.3456", ...fund });
  await createScheme(app, "930202", { isinGrowth: "INF930H01BB1", name: "History Liquid Fund", nav: "20", ...fund });
  // An AMC the sandbox books with KFintech.
  await createScheme(app, "930203", { isinGrowth: "INF846K01AA1", name: "Axis History Fund", nav: "50", amcCode: "AXIS", amcName: "Axis Mutual Fund", category: "Equity" });
  a = await newTenant(app);
  b = await newTenant(app);
});

afterAll(async () => {
  await rm(feedDir, { recursive: true, force: true });
});

describe("transaction history from the sandbox registrar's transaction feeds", () => {
  it("allot -> refresh -> the investor's transactions show the PURCHASE with its exact amount, units and NAV", async () => {
    expect(await history(a)).toMatchObject({ status: 200, body: { investor_id: a.investorId, data: [], next_cursor: null } });
    await allotted(a, { order_type: "LUMPSUM_PURCHASE", amount: 5000, purchase_type: "FRESH" }, "nav=12.3456&folio_no=HIST%2F1&allotment_date=2026-04-10");
    const res = await refresh(a);
    expect(res.body.message).toBe("Holdings refreshed: 2 feed(s) imported (1 positions, 1 transactions), 0 already imported, 0 rejected, 0 waiting");
    const listed = await history(a);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      investor_id: a.investorId,
      data: [
        {
          ...SCHEME, id: expect.stringMatching(/^CAMS:HISTAMC:\d{15}$/), scheme_code: "930201", scheme_name: "History Equity Fund", isin: "INF930H01AA1",
          type: "PURCHASE", registrar_type_code: "P", transaction_no: TXN_NO, trade_date: "2026-04-10", post_date: "2026-04-10",
          amount: 5000, units: 405.002, nav: 12.3456,
        },
      ],
      next_cursor: null,
    });
    expect(listed.body.data[0].id).toBe(`CAMS:HISTAMC:${listed.body.data[0].transaction_no}`);
    const stored = await app.prisma.holdingTransaction.findMany({ select: { amountPaise: true, panHash: true } });
    expect(stored).toEqual([{ amountPaise: 500000n, panHash: expect.stringMatching(/^[0-9a-f]+$/) }]);
    expect(JSON.stringify(listed.body)).not.toContain(a.pan);
  });

  it("a redemption and a switch show their types (the switch as its two legs), newest first", async () => {
    await allotted(a, { order_type: "REDEMPTION", folio_no: "HIST/1", units: 100.5 }, "nav=12.3456&allotment_date=2026-05-11");
    await allotted(a, { order_type: "SWITCH", folio_no: "HIST/1", units: 50, switch: { to_scheme_code: "930202" } }, "nav=12.3456&allotment_date=2026-06-12");
    await refresh(a);
    const { body } = await history(a);
    // Both legs of the switch share its trade date; between them the transaction number decides.
    expect([...types(body).slice(0, 2)].sort()).toEqual(["SWITCH_IN", "SWITCH_OUT"]);
    expect(types(body).slice(2)).toEqual(["REDEMPTION", "PURCHASE"]);
    const byType = Object.fromEntries(body.data.map((item: { type: string }) => [item.type, item]));
    expect(byType.REDEMPTION).toMatchObject({ registrar_type_code: "R", trade_date: "2026-05-11", amount: 1240.73, units: 100.5, nav: 12.3456, scheme_code: "930201" });
    expect(byType.SWITCH_OUT).toMatchObject({ registrar_type_code: "SO", trade_date: "2026-06-12", amount: 617.28, units: 50, nav: 12.3456, scheme_code: "930201" });
    expect(byType.SWITCH_IN).toMatchObject({
      registrar_type_code: "SI", trade_date: "2026-06-12", amount: 617.28, units: 30.864, nav: 20, scheme_code: "930202", scheme_name: "History Liquid Fund", folio_no: "HIST/1",
    });
    expect(body.data.map((item: { trade_date: string }) => item.trade_date)).toEqual(["2026-06-12", "2026-06-12", "2026-05-11", "2026-04-10"]);
    expect(new Set(body.data.map((item: { transaction_no: string }) => item.transaction_no)).size).toBe(4);
  });

  it("a second refresh adds nothing: the transaction numbers are stable", async () => {
    const before = await app.prisma.holdingTransaction.findMany({ orderBy: { txnNo: "asc" }, select: { txnNo: true, feedFileId: true } });
    const again = await refresh(a);
    expect(again.body.message).toMatch(/: 0 feed\(s\) imported/);
    expect(await app.prisma.holdingTransaction.findMany({ orderBy: { txnNo: "asc" }, select: { txnNo: true, feedFileId: true } })).toEqual(before);
  });

  it("writes KFintech's MFSD201 for a KFintech AMC (a first purchase in the folio is NEW)", async () => {
    await allotted(a, { order_type: "LUMPSUM_PURCHASE", amount: 1000, purchase_type: "FRESH", scheme_code: "930203" }, "nav=50&folio_no=AX%2F9&allotment_date=2026-07-01");
    await refresh(a);
    const { body } = await history(a, "?folio_no=AX%2F9");
    expect(body.data).toEqual([
      expect.objectContaining({
        registrar: "KFINTECH", amc_code: "AXIS", folio_no: "AX/9", scheme_code: "930203", isin: "INF846K01AA1", type: "PURCHASE",
        registrar_type_code: "NEW", trade_date: "2026-07-01", amount: 1000, units: 20, nav: 50,
      }),
    ]);
  });

  it("filters by type, scheme, folio and trade date (inclusive)", async () => {
    const listed = async (query: string) => types((await history(a, query)).body);
    expect(await listed("?type=REDEMPTION")).toEqual(["REDEMPTION"]);
    expect(await listed("?scheme_code=930202")).toEqual(["SWITCH_IN"]);
    expect(await listed("?folio_no=HIST%2F1&type=PURCHASE")).toEqual(["PURCHASE"]);
    expect(await listed("?from=2026-05-01&to=2026-06-01")).toEqual(["REDEMPTION"]);
    expect((await listed("?from=2026-06-12&to=2026-06-12")).sort()).toEqual(["SWITCH_IN", "SWITCH_OUT"]);
    expect(await listed("?to=2026-04-10")).toEqual(["PURCHASE"]);
    expect(await listed("?from=2026-07-02")).toEqual([]);
    expect(await listed("?folio_no=NONE%2F1")).toEqual([]);
  });

  it("pages newest first with limit and next_cursor, and the pages add up to the whole list", async () => {
    const all = (await history(a, "?limit=100")).body.data;
    expect(all).toHaveLength(5);
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await history(a, `?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
    expect((await history(a)).body.data).toEqual(all);
  });

  it("refuses bad filters with 400 on their path", async () => {
    const tampered = Buffer.from(JSON.stringify(["2026-99-99", "CAMS", "HISTAMC", "1"])).toString("base64url");
    for (const [query, path, reason] of [
      ["?from=2026-02-30", "from", "invalid_date"],
      ["?to=2026-13-01", "to", "invalid_date"],
      ["?from=2026-06-02&to=2026-06-01", "from", "rule_violated"],
      ["?type=BUY", "type", "invalid_value"],
      ["?limit=0", "limit", "too_small"],
      ["?limit=101", "limit", "too_big"],
      ["?cursor=not-a-cursor", "cursor", "invalid_cursor"],
      [`?cursor=${tampered}`, "cursor", "invalid_cursor"],
      ["?isin=INF930H01AA1", "isin", "unknown_field"],
    ] as const) {
      const res = await history(a, query);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: expect.any(String), details: [{ path, message: expect.any(String), reason }] },
        request_id: expect.any(String),
      });
    }
  });

  it("another distributor's investor is 404; the caller's other investor sees none of these", async () => {
    expect(await history(b, "", a.investorId)).toMatchObject({ status: 404, body: { success: false, error: { code: "NOT_FOUND" } } });
    expect((await history(b)).body).toEqual({ investor_id: b.investorId, data: [], next_cursor: null });
    expect((await history(a, "", "inv_unknown")).status).toBe(404);
  });
});
