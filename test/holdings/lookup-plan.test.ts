import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { positionsWithHistory } from "../../src/domains/holdings/pan-positions.repo.js";
import { deriveSchemeRules } from "../../src/domains/masters/exchange-schemes.repo.js";
import { panOf } from "../../bench/scale/ids.js";
import { createDistributors } from "../../bench/scale/people.js";
import { copyPositions } from "../../bench/scale/positions.js";
import { useTestApp } from "../helpers/app.js";
import { nodesOf, planOfStatementOn, rowsRemoved, scansOf } from "../helpers/scale-data.js";

// The PAN lookup's one statement (pan-positions.repo.ts: positions, their schemes' facts and transactions) on the
// generator's shapes (bench/scale/positions.ts: five positions a PAN over 40,000 positions, eight distributors),
// with a scheme master and transaction history around them: every table is reached through an index, for the
// PAN's rows only; the exchange's codes are not read (each scheme's lock-in is derived onto it at import).

const app = useTestApp();
let distributors: string[];

beforeAll(async () => {
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    distributors = await createDistributors(app.services);
    await copyPositions(client, app.services, distributors, { investors: 8_000, orders: 0, events: 0, deliveries: 0, positions: 40_000 }, () => {});
    // The master's 500 schemes the positions name, 4,500 others, an exchange code with a lock-in for every tenth.
    await client.query(`INSERT INTO schemes (scheme_code, isin_growth, name, amc_code, amc_name, category, scheme_type)
      SELECT (100000 + n)::text, 'INF000B' || lpad(n::text, 4, '0') || '1', 'Scheme ' || n, 'AMC' || (n % 40), 'Bench Mutual Fund',
             CASE WHEN n % 10 = 0 THEN 'ELSS' ELSE 'Equity Scheme' END, 'Open Ended Schemes'
        FROM generate_series(0, 4999) AS n`);
    await client.query(`INSERT INTO exchange_schemes (code, isin, name, transaction_mode, purchase_allowed, redemption_allowed, sip_allowed, stp_allowed, swp_allowed, switch_allowed, lock_in)
      SELECT 'BSE' || n, 'INF000B' || lpad(n::text, 4, '0') || '1', 'Scheme ' || n, 'BOTH', true, true, true, true, true, true, CASE WHEN n % 10 = 0 THEN '3 Years' END
        FROM generate_series(0, 4999) AS n`);
    // What a master import derives: each scheme's lock-in kept with it.
    await deriveSchemeRules(app.prisma);
    // Three transactions for every position: 120,000 rows.
    await client.query(`INSERT INTO holding_transactions (registrar, amc_code, txn_no, distributor_id, folio_no, registrar_scheme_code, scheme_code, type,
        registrar_type_code, trade_date, amount_paise, units, nav, pan_hash, feed_file_id)
      SELECT p.registrar, p.amc_code, p.folio_no || '-' || p.registrar_scheme_code || '-' || k, p.distributor_id, p.folio_no, p.registrar_scheme_code, p.scheme_code,
             'PURCHASE', 'P', DATE '2024-01-01' + k * 30, 100000 * (k + 1), 10.5 * (k + 1), 95.2381, p.pan_hash, 'htf_plan'
        FROM holding_positions p, generate_series(1, 3) AS k`);
    for (const table of ["holding_positions", "holding_transactions", "schemes", "exchange_schemes"]) await client.query(`ANALYZE ${table}`);
  } finally {
    await client.end();
  }
}, 120_000);

/** A generated PAN's hash and its distributor. */
async function aPan(): Promise<{ distributorId: string; panHash: string }> {
  const [row] = await app.prisma.$queryRawUnsafe<Array<{ distributor_id: string; pan_hash: string }>>(
    `SELECT distributor_id, pan_hash FROM holding_positions WHERE pan_hash = $1 LIMIT 1`, app.services.cipher.lookupHash(panOf(12)));
  return { distributorId: row!.distributor_id, panHash: row!.pan_hash };
}

describe("the PAN lookup's statement at scale", () => {
  it("reads the PAN's positions by its hash index, each one's transactions and scheme by index: no sequential scan, nothing read and thrown away beyond the PAN's rows", async () => {
    const { distributorId, panHash } = await aPan();
    const plan = await planOfStatementOn(app.prisma, "holding_positions", () => positionsWithHistory(app.prisma, distributorId, panHash));
    const nodes = nodesOf(plan);
    expect(nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"])).toEqual([]);
    const scans = (table: string) => scansOf(plan, table).map((n) => n["Node Type"]);
    expect(scans("holding_positions").every((type) => ["Index Scan", "Bitmap Heap Scan"].includes(type))).toBe(true);
    expect(nodes.some((n) => n["Index Name"] === "holding_positions_pan_hash_idx")).toBe(true);
    expect(scans("holding_transactions")).toEqual(["Index Scan"]);
    expect(scansOf(plan, "holding_transactions")[0]!["Index Name"]).toBe("holding_transactions_distributor_id_folio_no_scheme_code_tr_idx");
    expect(scans("schemes")).toEqual(["Index Scan"]);
    expect(scans("exchange_schemes")).toEqual([]);
    // Five positions (one of them a joint folio for every third PAN group), three transactions each: nothing else read.
    expect(plan["Actual Rows"]).toBeGreaterThanOrEqual(4);
    expect(rowsRemoved(plan)).toBeLessThanOrEqual(5);
  });

  it("gives a position's transactions by trade date, same-day ones in the order they were imported, then by number", async () => {
    const { distributorId, panHash } = await aPan();
    const [position] = await app.prisma.$queryRawUnsafe<Array<{ registrar: string; amc_code: string; folio_no: string; registrar_scheme_code: string; scheme_code: string | null }>>(
      `SELECT registrar, amc_code, folio_no, registrar_scheme_code, scheme_code FROM holding_positions
        WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE' ORDER BY registrar, amc_code, folio_no LIMIT 1`, panHash, distributorId);
    const p = position!;
    // Numbers and import times against the date order: 2024-06-01 imported last; on 2024-06-02 Z-1 imported after Z-9 and Z-10, which
    // were imported together (then by number, as texts: "Z-10" < "Z-9").
    for (const [no, date, importedAt] of [["Z-9", "2024-06-02", "2026-11-20 10:00:00+00"], ["Z-10", "2024-06-02", "2026-11-20 10:00:00+00"],
      ["Z-1", "2024-06-02", "2026-11-20 10:00:00.5+00"], ["Z-0", "2024-06-01", "2026-11-21 08:00:00+00"], ["Z-5", "2024-06-03", "2026-11-19 08:00:00+00"]] as const) {
      await app.prisma.$executeRawUnsafe(
        `INSERT INTO holding_transactions (registrar, amc_code, txn_no, distributor_id, folio_no, registrar_scheme_code, scheme_code, type, registrar_type_code,
           trade_date, amount_paise, units, nav, pan_hash, feed_file_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'PURCHASE', 'P', $8::date, 100000, 1, 1000, $9, 'htf_order', $10::timestamptz)`,
        p.registrar, p.amc_code, no, distributorId, p.folio_no, p.registrar_scheme_code, p.scheme_code, date, panHash, importedAt);
    }
    try {
      const rows = await positionsWithHistory(app.prisma, distributorId, panHash);
      const row = rows.find((r) => r.registrar === p.registrar && r.folio_no === p.folio_no && r.scheme_code === (p.scheme_code ?? p.registrar_scheme_code))!;
      expect(row.txns.map((t) => t.txn_no).filter((no) => no.startsWith("Z-"))).toEqual(["Z-0", "Z-10", "Z-9", "Z-1", "Z-5"]);
      expect(row.txns.map((t) => t.trade_date)).toEqual([...row.txns.map((t) => t.trade_date)].sort());
    } finally {
      await app.prisma.$executeRawUnsafe(`DELETE FROM holding_transactions WHERE feed_file_id = 'htf_order'`);
    }
  });

  it("answers the PAN's single-holder positions with their transactions", async () => {
    const { distributorId, panHash } = await aPan();
    const rows = await positionsWithHistory(app.prisma, distributorId, panHash);
    const [single] = await app.prisma.$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM holding_positions WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE'`, panHash, distributorId);
    expect(rows).toHaveLength(Number(single!.n));
    expect(rows.map((r) => r.txns.length)).toEqual(rows.map(() => 3));
    // The master's lock-in, as derived: '3 Years' for every tenth scheme (the positions' schemes are 100000 + n).
    expect(rows.map((r) => r.lock_in)).toEqual(rows.map((r) => (Number(r.scheme_code) % 10 === 0 ? "3 Years" : null)));
  });
});
