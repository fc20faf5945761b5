import { CONNECT_TIMEOUT_MS } from "../../platform/db/connection-errors.js";
import { Decimal } from "../../platform/lib/money.js";
import pg from "pg";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { newId } from "../../platform/lib/ids.js";
import { maskPansInText } from "../../platform/lib/mask.js";
import { readCamsFeedBatches } from "../../integrations/registrars/feeds/cams.js";
import { FeedFileError, type FeedBatch, type FeedFile, type FeedItem, type FeedPosition, type FeedProblem, type Registrar } from "../../integrations/registrars/feeds/feed.js";
import { readKfintechFeedBatches } from "../../integrations/registrars/feeds/kfintech.js";
import { arnResolver, copyWriter, MAX_PROBLEMS_KEPT, panHasher, recordProblem } from "./feed-copy.js";

/**
 * The registrar import: one feed batch (a KFintech MFSD203 file, or a CAMS WBR22 file with its WBR9) into the
 * positions table, in one transaction on a dedicated connection (COPY needs the pg protocol directly).
 *
 * 1. Under an advisory lock (one import per registrar at a time, across processes), a batch whose content hash is
 *    already recorded is a DUPLICATE and changes nothing.
 * 2. The parsed rows are streamed with COPY straight into holding_positions, its key deferred to the end of the
 *    transaction (no per-row INSERT, no second copy of the rows; memory flat). A row whose ARN is no distributor's
 *    is counted and skipped; a malformed row is a problem (file, line, reason) and skipped; a malformed file
 *    (FeedFileError) rolls everything back and is recorded REJECTED. Our scheme code is found through the ISIN.
 * 3. Per distributor of the batch: when its newest balance date is not older than the set stored for the
 *    registrar (holding_snapshots), its previous positions of the registrar are deleted; otherwise the new rows are
 *    (stale). The key is then checked: rows repeating a key within the batch make the batch go again through a
 *    temporary staging table that keeps the first row of each key and counts the others.
 * 4. The batch is recorded (registrar, names, SHA-256, counts, first problems, outcome), then COMMIT: a lookup
 *    sees either the whole previous set or the whole new one.
 */

/** holding_feed_files.outcome (the database checks the same list). */
export const IMPORT_OUTCOMES = ["IMPORTED", "DUPLICATE", "REJECTED"] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

export interface ImportReport {
  /** Only on a transaction feed's report (import-transactions.ts); a positions batch has none. */
  kind?: "TRANSACTIONS";
  registrar: Registrar;
  file: string;
  companion: string | null;
  outcome: ImportOutcome;
  feed_file_id: string | null;
  /** The newest balance date in the batch. */
  balance_date: string | null;
  /** Well-formed position rows read. */
  rows: number;
  imported: number;
  skipped_unknown_arn: number;
  skipped_stale: number;
  skipped_duplicate: number;
  /** Malformed rows skipped (both files of a CAMS batch). */
  problem_count: number;
  /** The first problems (PAN-shaped text masked). */
  problems: FeedProblem[];
  /** Why a REJECTED batch was rejected. */
  reason: string | null;
  /** Milliseconds spent reading and staging the rows, and replacing the positions. */
  timing_ms: { stage: number; replace: number };
}

export const IMPORT_LOCK = 7206006;

const POSITION_COLUMNS = [
  "distributor_id", "registrar", "amc_code", "folio_no", "registrar_scheme_code", "scheme_code", "amc_name", "isin",
  "scheme_name", "units", "nav", "nav_date", "market_value", "balance_date", "holding_nature", "pan_hash",
  "feed_file_id",
] as const;
const KEY = "distributor_id, amc_code, folio_no, registrar_scheme_code";

interface Context {
  batch: FeedBatch;
  cipher: DataCipher;
  feedFileId: string;
  distributors: Map<string, string>;
  schemes: Map<string, { schemeCode: string; amcName: string }>;
  /** Per distributor in the batch: its newest balance date and row count. */
  seen: Map<string, { newest: string; rows: number }>;
}

/** Imports one batch on `client` (a dedicated connection, not in a transaction). */
export async function importBatch(client: pg.ClientBase, cipher: DataCipher, batch: FeedBatch): Promise<ImportReport> {
  try {
    return await importOnce(client, cipher, batch, "direct");
  } catch (error) {
    // Rows repeating a key within the batch: read it again through a staging table that keeps the first of each.
    if ((error as { code?: string }).code !== "23505") throw error;
    return await importOnce(client, cipher, batch, "staged");
  }
}

function emptyReport(batch: FeedBatch): ImportReport {
  return {
    registrar: batch.registrar, file: batch.file.name, companion: batch.companion?.name ?? null, outcome: "IMPORTED",
    feed_file_id: null, balance_date: null, rows: 0, imported: 0, skipped_unknown_arn: 0, skipped_stale: 0,
    skipped_duplicate: 0, problem_count: 0, problems: [], reason: null, timing_ms: { stage: 0, replace: 0 },
  };
}

/**
 * `direct`: rows are COPied straight into holding_positions under a deferred key, the distributors' previous rows
 * deleted afterwards, the key checked before COMMIT (a repeated key fails with 23505). `staged`: COPY into a
 * temporary table, then insert the first row of each key.
 */
async function importOnce(client: pg.ClientBase, cipher: DataCipher, batch: FeedBatch, mode: "direct" | "staged"): Promise<ImportReport> {
  const report = emptyReport(batch);
  await client.query("BEGIN");
  try {
    // One import per registrar at a time, across processes; the two registrars import side by side.
    await client.query("SELECT pg_advisory_xact_lock($1, $2)", [IMPORT_LOCK, batch.registrar === "CAMS" ? 1 : 2]);
    const seen = await client.query("SELECT id FROM holding_feed_files WHERE registrar = $1 AND content_sha256 = $2", [
      batch.registrar,
      batch.sha256,
    ]);
    if (seen.rowCount) {
      await client.query("ROLLBACK");
      return { ...report, outcome: "DUPLICATE", feed_file_id: seen.rows[0].id as string };
    }
    const ctx: Context = {
      batch, cipher, feedFileId: newId("hff"), distributors: await distributorsByArn(client), schemes: await schemesByIsin(client), seen: new Map(),
    };
    report.feed_file_id = ctx.feedFileId;
    const started = performance.now();
    if (mode === "direct") {
      await client.query("SET CONSTRAINTS holding_positions_pkey DEFERRED");
    } else {
      await client.query("CREATE TEMP TABLE holdings_stage (LIKE holding_positions, seq bigint NOT NULL) ON COMMIT DROP");
    }
    try {
      await stream(client, ctx, report, mode === "direct" ? "holding_positions" : "holdings_stage", mode === "staged");
    } catch (error) {
      if (!(error instanceof FeedFileError)) throw error;
      await client.query("ROLLBACK");
      return await recordRejected(client, batch, report, error);
    }
    report.timing_ms.stage = Math.round(performance.now() - started);
    const replacing = performance.now();
    await replacePositions(client, ctx, report, mode);
    await insertFeedFile(client, ctx.feedFileId, batch, report);
    await client.query("COMMIT");
    report.timing_ms.replace = Math.round(performance.now() - replacing);
    return report;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Distributor ids by ARN digits (leading zeros dropped): `ARN-000123`, `ARN-123` and `123` are one code. */
export async function distributorsByArn(client: pg.ClientBase): Promise<Map<string, string>> {
  const { rows } = await client.query<{ id: string; arn: string }>("SELECT id, arn FROM distributors");
  return new Map(rows.map((row) => [arnKey(row.arn), row.id]));
}

export function arnKey(arn: string): string {
  const match = /^(?:ARN[\s-]*)?0*(\d+)$/i.exec(arn.trim());
  return match ? `ARN-${match[1]}` : arn.trim().toUpperCase();
}

/** Our scheme code (and AMC name) for each ISIN of the scheme master, growth or reinvestment; the lowest code wins. */
export async function schemesByIsin(client: pg.ClientBase): Promise<Map<string, { schemeCode: string; amcName: string }>> {
  const { rows } = await client.query<{ isin: string; scheme_code: string; amc_name: string }>(
    `SELECT DISTINCT ON (isin) isin, scheme_code, amc_name FROM (
       SELECT isin_growth AS isin, scheme_code, amc_name FROM schemes WHERE isin_growth IS NOT NULL
       UNION ALL SELECT isin_reinvestment, scheme_code, amc_name FROM schemes WHERE isin_reinvestment IS NOT NULL) i
     ORDER BY isin, scheme_code`,
  );
  return new Map(rows.map((r) => [r.isin, { schemeCode: r.scheme_code, amcName: r.amc_name }]));
}

/** The batch's items, a chunk's worth at a time. */
function readBatch(batch: FeedBatch): AsyncGenerator<FeedItem[]> {
  if (batch.registrar === "KFINTECH") return readKfintechFeedBatches(batch.file);
  if (!batch.companion) throw new FeedFileError(batch.file.name, "a CAMS WBR22 file needs its WBR9 file");
  return readCamsFeedBatches({ positions: batch.file, investors: batch.companion });
}

/** Streams the batch's positions with COPY into `table`; counts, problems and per-distributor dates into the report. */
async function stream(client: pg.ClientBase, ctx: Context, report: ImportReport, table: string, withSeq: boolean): Promise<void> {
  const columns = withSeq ? [...POSITION_COLUMNS, "seq"] : POSITION_COLUMNS;
  const writer = copyWriter(client, `COPY ${table} (${columns.join(", ")}) FROM STDIN`);
  // The keyed hash of each PAN (a position keeps no PAN, in clear or encrypted).
  const panHash = panHasher(ctx.cipher);
  const distributorOf = arnResolver(ctx.distributors, arnKey);
  const tail = `\t${ctx.feedFileId}${withSeq ? "\t" : "\n"}`;
  const registrar = `\t${ctx.batch.registrar}\t`;
  try {
    reading: for await (const items of readBatch(ctx.batch)) {
      for (const item of items) {
        if (writer.failed) break reading;
        if (item.kind === "problem") {
          recordProblem(report, item.problem);
          continue;
        }
        const p = item.position;
        report.rows++;
        const distributorId = distributorOf(p.arn);
        if (distributorId === undefined) {
          report.skipped_unknown_arn++;
          continue;
        }
        const mine = ctx.seen.get(distributorId);
        if (mine === undefined) ctx.seen.set(distributorId, { newest: p.balance_date, rows: 1 });
        else {
          mine.rows++;
          if (p.balance_date > mine.newest) mine.newest = p.balance_date;
        }
        if (report.balance_date === null || p.balance_date > report.balance_date) report.balance_date = p.balance_date;
        const scheme = p.isin === null ? undefined : ctx.schemes.get(p.isin);
        const marketValue = p.market_value ?? (p.nav === null ? null : new Decimal(p.units).times(p.nav).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2));
        // One concatenation per row (no array, no join): this runs a million times per feed. Decimals, dates, the
        // holding nature and the checked ISIN are our own normalised text (digits, dots, dashes, letters): only text
        // as the files or the scheme master give it needs escaping.
        writer.add(
          distributorId + registrar + copyText(p.amc_code) + "\t" + copyText(p.folio_no) + "\t" + copyText(p.scheme_code) + "\t" +
          copyText(scheme?.schemeCode ?? null) + "\t" + copyText(p.amc_name ?? scheme?.amcName ?? null) + "\t" + (p.isin ?? "\\N") + "\t" +
          copyText(p.scheme_name) + "\t" + p.units + "\t" + (p.nav ?? "\\N") + "\t" + (p.nav_date ?? "\\N") + "\t" +
          (marketValue ?? "\\N") + "\t" + p.balance_date + "\t" + p.holding_nature + "\t" + panHash(p.pan) + tail +
          (withSeq ? `${report.rows}\n` : ""),
        );
        if (writer.full) await writer.flush();
      }
    }
  } catch (error) {
    writer.abort();
    throw error;
  }
  await writer.finish();
}

const COPY_SPECIAL = /[\\\t\n\r]/;

/** A value in COPY's text format: \N for null; backslash, tab and line breaks escaped. */
export function copyText(value: string | null): string {
  if (value === null) return "\\N";
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/**
 * Per distributor of the batch: when its newest balance date is not older than the stored set's, its previous
 * positions of this registrar are deleted and the new ones kept; otherwise the new ones are dropped (stale).
 */
async function replacePositions(client: pg.ClientBase, ctx: Context, report: ImportReport, mode: "direct" | "staged"): Promise<void> {
  const registrar = ctx.batch.registrar;
  const ids = [...ctx.seen.keys()];
  const { rows: stored } = await client.query<{ distributor_id: string; balance_date: string }>(
    "SELECT distributor_id, balance_date::text FROM holding_snapshots WHERE registrar = $1 AND distributor_id = ANY($2::text[])",
    [registrar, ids],
  );
  const storedDate = new Map(stored.map((s) => [s.distributor_id, s.balance_date]));
  const fresh = ids.filter((id) => !(storedDate.get(id)! > ctx.seen.get(id)!.newest));
  const stale = ids.filter((id) => !fresh.includes(id));
  const freshRows = fresh.reduce((n, id) => n + ctx.seen.get(id)!.rows, 0);
  report.skipped_stale = stale.reduce((n, id) => n + ctx.seen.get(id)!.rows, 0);
  const replaced = fresh.filter((id) => storedDate.has(id));

  if (mode === "direct") {
    if (replaced.length > 0) {
      await client.query("DELETE FROM holding_positions WHERE registrar = $1 AND distributor_id = ANY($2::text[]) AND feed_file_id <> $3", [registrar, replaced, ctx.feedFileId]);
    }
    if (stale.length > 0) {
      await client.query("DELETE FROM holding_positions WHERE registrar = $1 AND distributor_id = ANY($2::text[]) AND feed_file_id = $3", [registrar, stale, ctx.feedFileId]);
    }
    // Raises 23505 here when two rows of the batch share a key (importBatch then takes the staged way).
    await client.query("SET CONSTRAINTS holding_positions_pkey IMMEDIATE");
    report.imported = freshRows;
  } else {
    if (replaced.length > 0) {
      await client.query("DELETE FROM holding_positions WHERE registrar = $1 AND distributor_id = ANY($2::text[])", [registrar, replaced]);
    }
    const inserted = await client.query(
      `INSERT INTO holding_positions (${POSITION_COLUMNS.join(", ")})
       SELECT DISTINCT ON (${KEY}) ${POSITION_COLUMNS.join(", ")} FROM holdings_stage
        WHERE distributor_id = ANY($1::text[]) ORDER BY ${KEY}, seq`,
      [fresh],
    );
    report.imported = inserted.rowCount ?? 0;
    report.skipped_duplicate = freshRows - report.imported;
    if (report.skipped_duplicate > 0 && report.problems.length < MAX_PROBLEMS_KEPT) {
      report.problems.push({
        file: ctx.batch.file.name,
        line: 0,
        reason: `${report.skipped_duplicate} row(s) repeat an earlier row's distributor, AMC, folio and scheme; the first was kept`,
      });
    }
  }
  if (fresh.length > 0) {
    await client.query(
      `INSERT INTO holding_snapshots (distributor_id, registrar, balance_date, feed_file_id, positions)
       SELECT id, $1, newest::date, $2, n FROM unnest($3::text[], $4::text[], $5::int[]) AS s(id, newest, n)
       ON CONFLICT (distributor_id, registrar) DO UPDATE
         SET balance_date = excluded.balance_date, feed_file_id = excluded.feed_file_id, positions = excluded.positions`,
      [registrar, ctx.feedFileId, fresh, fresh.map((id) => ctx.seen.get(id)!.newest), fresh.map((id) => ctx.seen.get(id)!.rows)],
    );
  }
}

async function recordRejected(client: pg.ClientBase, batch: FeedBatch, report: ImportReport, error: FeedFileError): Promise<ImportReport> {
  const rejected: ImportReport = {
    ...report,
    outcome: "REJECTED",
    imported: 0,
    reason: maskPansInText(error.message),
    problems: [...report.problems, { file: error.file, line: 0, reason: maskPansInText(error.reason) }].slice(0, MAX_PROBLEMS_KEPT),
  };
  await insertFeedFile(client, rejected.feed_file_id!, batch, rejected);
  return rejected;
}

async function insertFeedFile(client: pg.ClientBase, id: string, batch: FeedBatch, r: ImportReport): Promise<void> {
  await client.query(
    `INSERT INTO holding_feed_files (id, registrar, file_name, companion_name, content_sha256, outcome, balance_date, rows,
       imported, skipped_unknown_arn, skipped_stale, skipped_duplicate, problem_count, problems)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (registrar, content_sha256) DO NOTHING`,
    [
      id, batch.registrar, r.file, r.companion, batch.sha256, r.outcome, r.balance_date, r.rows, r.imported,
      r.skipped_unknown_arn, r.skipped_stale, r.skipped_duplicate, r.problem_count, JSON.stringify(r.problems),
    ],
  );
}

/** A dedicated connection for imports (COPY needs the pg protocol directly, outside Prisma). */
export async function withImportClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A connection lost mid-import (a database restart) fails the query in flight, which the job reports;
  // without a listener pg's 'error' event would crash the process.
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
