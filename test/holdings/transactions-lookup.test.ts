import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInstallments } from "../../src/domains/orders/jobs/create-installments.js";
import { createDueInstallments } from "../../src/domains/orders/schedule.js";
import { transactionsQuery } from "../../src/domains/holdings/transactions.repo.js";
import { maskPan } from "../../src/platform/lib/mask.js";
import { useTestApp } from "../helpers/app.js";
import { randomPan } from "../helpers/factories.js";
import { runTask } from "../helpers/jobs.js";
import { allotOrder, allottedOrder, newTenant, type Tenant } from "../helpers/tenants.js";
import { acceptedOrder, createScheme, orderingInvestor, today } from "../helpers/orders.js";

/**
 * Issue 27 (history): the PAN lookup of transactions, tenancy between two distributors using the same folio
 * number, the single-holder rule, the systematic plans' lines, and the index the lists read.
 */
const feedDir = mkdtempSync(path.join(os.tmpdir(), "holdings-history-lookup-"));
const app = useTestApp({ HOLDINGS_FEED_DIR: feedDir });

let a: Tenant;
let b: Tenant;

const allot = (token: string, orderId: string, query: string) => allotOrder(app, token, orderId, query);

async function allotInFolio(t: Tenant, amount: number, folio: string): Promise<void> {
  const order = { scheme_code: "930301", order_type: "LUMPSUM_PURCHASE", amount, purchase_type: "FRESH" };
  await allottedOrder(app, t, order, `nav=10&folio_no=${encodeURIComponent(folio)}&allotment_date=2026-08-03`);
}

const refresh = (t: { token: string }) => app.http("GET", "/api/simulation/holdings/v1/refresh", { token: t.token });
const history = (t: Tenant) => app.http("GET", `/api/investors/v1/${t.investorId}/transactions`, { token: t.token });
const lookup = (t: { token: string }, json: Record<string, unknown>) => app.http("POST", "/api/holdings/v1/transactions", { token: t.token, json });

beforeAll(async () => {
  const fund = { amcCode: "SHAREDAMC", amcName: "Shared Mutual Fund", category: "Equity" };
  await createScheme(app, "930301", { isinGrowth: "INF930S01AA1", name: "Shared History Fund", nav: "10", ...fund });
  await createScheme(app, "930302", { isinGrowth: "INF930S01BB1", name: "Shared Debt Fund", nav: "25", ...fund });
  a = await newTenant(app);
  b = await newTenant(app);
  await allotInFolio(a, 5000, "SAME/1");
  await allotInFolio(b, 7000, "SAME/1");
  expect((await refresh(a)).status).toBe(200);
  expect((await refresh(b)).status).toBe(200);
});

afterAll(async () => {
  await rm(feedDir, { recursive: true, force: true });
});

describe("transactions by PAN and between distributors", () => {
  it("a shared folio number shows each distributor only its own lines", async () => {
    const own = (await history(a)).body.data;
    const theirs = (await history(b)).body.data;
    expect(own.map((t: { folio_no: string; amount: number }) => [t.folio_no, t.amount])).toEqual([["SAME/1", 5000]]);
    expect(theirs.map((t: { folio_no: string; amount: number }) => [t.folio_no, t.amount])).toEqual([["SAME/1", 7000]]);
    expect(own[0].transaction_no).not.toBe(theirs[0].transaction_no);
    expect((await app.http("GET", `/api/investors/v1/${a.investorId}/transactions`, { token: b.token })).status).toBe(404);
  });

  it("POST /api/holdings/v1/transactions answers the PAN's lines as the investor's list does, the PAN masked", async () => {
    const res = await lookup(a, { pan: a.pan });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pan: maskPan(a.pan), data: (await history(a)).body.data, next_cursor: null });
    expect(JSON.stringify(res.body)).not.toContain(a.pan);
    expect((await lookup(a, { pan: a.pan, from: "2026-08-04" })).body.data).toEqual([]);
    expect((await lookup(a, { pan: a.pan, from: "2026-08-03", to: "2026-08-03" })).body.data).toHaveLength(1);
  });

  it("a PAN with no folios under the ARN is 200 with an empty list; another distributor's investor's PAN too", async () => {
    const unknown = randomPan();
    expect(await lookup(a, { pan: unknown })).toMatchObject({ status: 200, body: { pan: maskPan(unknown), data: [], next_cursor: null } });
    expect((await lookup(a, { pan: b.pan })).body.data).toEqual([]);
  });

  it("refuses a bad PAN, a bad date, from after to and unknown fields with 400 on their path", async () => {
    for (const [json, path, reason] of [
      [{ pan: "ABCDE1234" }, "pan", "invalid_format"],
      [{}, "pan", "required"],
      [{ pan: a.pan, from: "2026-02-30" }, "from", "invalid_date"],
      [{ pan: a.pan, from: "2026-08-04", to: "2026-08-03" }, "from", "rule_violated"],
      [{ pan: a.pan, folio: "SAME/1" }, "folio", "unknown_field"],
    ] as const) {
      const res = await lookup(a, json);
      expect([json, res.status]).toEqual([json, 400]);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path, reason }] });
      expect(JSON.stringify(res.body)).not.toContain(a.pan);
    }
  });

  it("serves only single-holder folios: a folio the registrar reports as joint is left out", async () => {
    await app.prisma.holdingPosition.updateMany({ where: { folioNo: "SAME/1", schemeCode: "930301", panHash: { not: null } }, data: { holdingNature: "JOINT" } });
    try {
      expect((await history(a)).body.data).toEqual([]);
      expect((await lookup(a, { pan: a.pan })).body.data).toEqual([]);
    } finally {
      await app.prisma.holdingPosition.updateMany({ where: { folioNo: "SAME/1", schemeCode: "930301" }, data: { holdingNature: "SINGLE" } });
    }
    expect((await history(a)).body.data).toHaveLength(1);
  });
});

describe("the systematic plans' installments", () => {
  it("an XSIP installment is a SIP line with its registration's SIP number; SWP and STP installments show their types", async () => {
    const ctx = await orderingInvestor(app, { mandate: true });
    const plan = { frequency: "WEEKLY", start_date: today(), installments: 2 };
    const xsip = await acceptedOrder(app, ctx, { order_type: "XSIP", scheme_code: "930301", amount: 1000, mandate_id: ctx.mandateId, sip: { ...plan, installment_day: 1 } });
    await runTask(app, createInstallments, {});
    await createDueInstallments(app.prisma, today());
    const child = async (orderId: string) => (await app.prisma.orderInstallment.findFirstOrThrow({ where: { orderId, installmentNo: 1 } })).childOrderId!;
    await allot(ctx.token, await child(xsip), "nav=10&folio_no=PLAN%2F1&allotment_date=2026-09-01");
    await refresh(ctx);

    const swp = await acceptedOrder(app, ctx, { order_type: "SWP", scheme_code: "930301", folio_no: "PLAN/1", units: 10, swp: plan });
    const stp = await acceptedOrder(app, ctx, { order_type: "STP", scheme_code: "930301", folio_no: "PLAN/1", amount: 250, stp: { ...plan, to_scheme_code: "930302" } });
    await runTask(app, createInstallments, {});
    await createDueInstallments(app.prisma, today());
    await allot(ctx.token, await child(swp), "nav=10&allotment_date=2026-09-02");
    await allot(ctx.token, await child(stp), "nav=10&allotment_date=2026-09-03");
    await refresh(ctx);

    const res = await app.http("GET", `/api/investors/v1/${ctx.investorId}/transactions`, { token: ctx.token });
    const lines = res.body.data.map((t: Record<string, unknown>) => [t.trade_date, t.type, t.registrar_type_code, t.scheme_code, t.amount, t.units, t.nav]);
    expect(lines.slice(2)).toEqual([
      ["2026-09-02", "SWP", "R", "930301", 100, 10, 10],
      ["2026-09-01", "SIP", "P", "930301", 1000, 100, 10],
    ]);
    expect([...lines.slice(0, 2)].sort()).toEqual([
      ["2026-09-03", "STP_IN", "SI", "930302", 250, 10, 25],
      ["2026-09-03", "STP_OUT", "SO", "930301", 250, 25, 10],
    ]);
  });
});

describe("the index the history lists read", () => {
  it("a PAN's transactions are read through indexes over a few thousand rows, never a sequential scan", async () => {
    const distributor = await app.prisma.distributor.findFirstOrThrow({ select: { id: true } });
    await app.prisma.$executeRawUnsafe(
      `INSERT INTO holding_transactions (registrar, amc_code, txn_no, distributor_id, folio_no, registrar_scheme_code, type,
         registrar_type_code, trade_date, pan_hash, feed_file_id)
       SELECT 'CAMS', 'BENCHAMC', 'X' || g, $1, 'F' || (g % 500), 'S' || (g % 7), 'PURCHASE', 'P',
              date '2020-01-01' + (g % 2000), 'hash' || (g % 400), 'hff_bench'
         FROM generate_series(1, 5000) g`,
      distributor.id,
    );
    // Its single-holder positions: the PAN's 500 folios (as many as a very large investor's).
    await app.prisma.$executeRawUnsafe(
      `INSERT INTO holding_positions (distributor_id, registrar, amc_code, folio_no, registrar_scheme_code, scheme_name, units,
         balance_date, holding_nature, pan_hash, feed_file_id)
       SELECT $1, 'CAMS', 'BENCHAMC', 'F' || g, 'S' || (g % 7), 'Bench', 1, date '2026-01-01', 'SINGLE', 'hash' || (g % 400), 'hff_bench'
         FROM generate_series(0, 499) g`,
      distributor.id,
    );
    await app.prisma.$executeRawUnsafe("ANALYZE holding_transactions");
    await app.prisma.$executeRawUnsafe("ANALYZE holding_positions");
    // The statement the lists run: a first page, and a later page (the cursor's row comparison) of one folio.
    for (const filter of [{ limit: 20 }, { folioNo: "F7", after: ["2024-01-01", "CAMS", "BENCHAMC", "X9"], limit: 20 }]) {
      const { sql, params } = transactionsQuery(distributor.id, "hash7", filter);
      const plan = await app.prisma.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>(`EXPLAIN ${sql}`, ...params);
      const text = plan.map((row) => row["QUERY PLAN"]).join("\n");
      if (process.env.SHOW_PLAN) console.log(text);
      // The PAN's single-holder folios (positions' PAN hash index), then each folio's transactions of the PAN
      // (transactions' PAN hash index and the (distributor, folio, ...) index): no new index for the import to keep.
      expect(text).toMatch(/(Bitmap Index Scan on|Index Scan using) holding_positions_(pan_hash_idx|pkey)/);
      expect(text).toMatch(/(Bitmap Index Scan on|Index Scan using) holding_transactions_(pan_hash_idx|distributor_id_folio_no_\w+)/);
      expect(text).not.toContain("Seq Scan");
    }
  });
});
