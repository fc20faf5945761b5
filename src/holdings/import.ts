import { once } from "node:events";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { DataCipher } from "../lib/crypto.js";
import { PAN_PATTERN } from "../lib/formats.js";
import { newId } from "../lib/ids.js";
import { maskPansInText } from "../lib/mask.js";
import { readCamsFeed } from "./registrars/cams.js";
import { FeedFileError, type FeedFile, type FeedItem, type FeedPosition, type FeedProblem, type Registrar } from "./registrars/feed.js";
import { readKfintechFeed } from "./registrars/kfintech.js";

/**
 * The registrar import: one feed batch (a KFintech MFSD203 file, or a CAMS WBR22 file with its WBR9) into the
 * positions table.
 *
 * 1. In one transaction on a dedicated connection, under an advisory lock (one import at a time across processes):
 *    a batch whose content hash is already recorded is a DUPLICATE and changes nothing.
 * 2. The parsed rows are streamed with COPY into a temporary staging table (no per-row INSERT, memory flat):
 *    a row whose ARN is no distributor's is counted and skipped; a malformed row is a problem (file, line,
 *    reason) and skipped; a malformed file (FeedFileError) rolls everything back and is recorded REJECTED.
 * 3. For each distributor in the batch whose newest balance date is not older than what is stored for that
 *    registrar, the registrar's positions of the distributor are deleted and the staged ones inserted; older
 *    batches are counted as stale. Rows repeating an earlier row's key are counted; the first one is kept.
 * 4. The batch is recorded (registrar, names, SHA-256, counts, first problems, outcome), then COMMIT: a lookup
 *    sees either the whole previous set or the whole new one.
 */

export interface FeedBatch {
  registrar: Registrar;
  /** The positions file (WBR22 or MFSD203). */
  file: FeedFile;
  /** CAMS only: the WBR9 investor file read with it. */
  companion?: FeedFile;
  /** SHA-256 of the batch's content (for CAMS, over both files). */
  sha256: string;
}

export type ImportOutcome = "IMPORTED" | "DUPLICATE" | "REJECTED";

export interface ImportReport {
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
}

const MAX_PROBLEMS_KEPT = 100;
const PAN_CACHE_LIMIT = 50_000;
const IMPORT_LOCK = 7206006;

const STAGE_COLUMNS = [
  "seq", "distributor_id", "amc_code", "amc_name", "folio_no", "registrar_scheme_code", "isin", "scheme_name", "units", "nav",
  "nav_date", "market_value", "balance_date", "holding_nature", "pan_hash", "pan_encrypted",
] as const;

const CREATE_STAGE = `CREATE TEMP TABLE holdings_stage (
  seq bigint NOT NULL, distributor_id text NOT NULL, amc_code text NOT NULL, amc_name text, folio_no text NOT NULL,
  registrar_scheme_code text NOT NULL, isin text, scheme_name text NOT NULL, units numeric NOT NULL, nav numeric,
  nav_date date, market_value numeric, balance_date date NOT NULL, holding_nature text NOT NULL, pan_hash text,
  pan_encrypted text) ON COMMIT DROP`;

/** Staged rows into positions, our scheme code found through the ISIN (growth or reinvestment) in the scheme master. */
const INSERT_FROM_STAGE = `WITH isin_map AS (
    SELECT isin, min(scheme_code) AS scheme_code FROM (
      SELECT isin_growth AS isin, scheme_code FROM schemes WHERE isin_growth IS NOT NULL
      UNION ALL SELECT isin_reinvestment, scheme_code FROM schemes WHERE isin_reinvestment IS NOT NULL) i
    GROUP BY isin)
  INSERT INTO holding_positions (distributor_id, registrar, amc_code, folio_no, registrar_scheme_code, scheme_code,
    amc_name, isin, scheme_name, units, nav, nav_date, market_value, balance_date, holding_nature, pan_hash,
    pan_encrypted, feed_file_id)
  SELECT s.distributor_id, $1, s.amc_code, s.folio_no, s.registrar_scheme_code, m.scheme_code,
    coalesce(s.amc_name, sc.amc_name), s.isin, s.scheme_name, s.units, s.nav, s.nav_date,
    coalesce(s.market_value, round(s.units * s.nav, 2)), s.balance_date, s.holding_nature, s.pan_hash,
    s.pan_encrypted, $2
  FROM holdings_stage s
  LEFT JOIN isin_map m ON m.isin = s.isin
  LEFT JOIN schemes sc ON sc.scheme_code = m.scheme_code
  WHERE s.distributor_id = ANY($3::text[])
  ORDER BY s.seq
  ON CONFLICT DO NOTHING`;

/** Imports one batch on `client` (a dedicated connection, not in a transaction). */
export async function importBatch(client: pg.ClientBase, cipher: DataCipher, batch: FeedBatch): Promise<ImportReport> {
  const report: ImportReport = {
    registrar: batch.registrar,
    file: batch.file.name,
    companion: batch.companion?.name ?? null,
    outcome: "IMPORTED",
    feed_file_id: null,
    balance_date: null,
    rows: 0,
    imported: 0,
    skipped_unknown_arn: 0,
    skipped_stale: 0,
    skipped_duplicate: 0,
    problem_count: 0,
    problems: [],
    reason: null,
  };
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [IMPORT_LOCK]);
    const seen = await client.query("SELECT id FROM holding_feed_files WHERE registrar = $1 AND content_sha256 = $2", [
      batch.registrar,
      batch.sha256,
    ]);
    if (seen.rowCount) {
      await client.query("ROLLBACK");
      return { ...report, outcome: "DUPLICATE", feed_file_id: seen.rows[0].id as string };
    }
    const distributors = await distributorsByArn(client);
    await client.query(CREATE_STAGE);
    try {
      await stage(client, cipher, batch, distributors, report);
    } catch (error) {
      if (!(error instanceof FeedFileError)) throw error;
      await client.query("ROLLBACK");
      return await recordRejected(client, batch, report, error);
    }
    await replacePositions(client, batch, report);
    await client.query("COMMIT");
    return report;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Distributor ids by ARN digits (leading zeros dropped): `ARN-000123`, `ARN-123` and `123` are one code. */
async function distributorsByArn(client: pg.ClientBase): Promise<Map<string, string>> {
  const { rows } = await client.query<{ id: string; arn: string }>("SELECT id, arn FROM distributors");
  return new Map(rows.map((row) => [arnKey(row.arn), row.id]));
}

function arnKey(arn: string): string {
  const match = /^(?:ARN[\s-]*)?0*(\d+)$/i.exec(arn.trim());
  return match ? `ARN-${match[1]}` : arn.trim().toUpperCase();
}

function readBatch(batch: FeedBatch): AsyncGenerator<FeedItem> {
  if (batch.registrar === "KFINTECH") return readKfintechFeed(batch.file);
  if (!batch.companion) throw new FeedFileError(batch.file.name, "a CAMS WBR22 file needs its WBR9 file");
  return readCamsFeed({ positions: batch.file, investors: batch.companion });
}

async function stage(
  client: pg.ClientBase,
  cipher: DataCipher,
  batch: FeedBatch,
  distributors: Map<string, string>,
  report: ImportReport,
): Promise<void> {
  const copy = client.query(copyFrom(`COPY holdings_stage (${STAGE_COLUMNS.join(", ")}) FROM STDIN`));
  let copyError: Error | undefined;
  copy.on("error", (error: Error) => {
    copyError = error;
  });
  const pans = new Map<string, [string, string]>();
  const panFields = (pan: string | null): [string, string] | undefined => {
    if (pan === null || !PAN_PATTERN.test(pan)) return undefined;
    let fields = pans.get(pan);
    if (!fields) {
      if (pans.size >= PAN_CACHE_LIMIT) pans.clear();
      fields = [cipher.lookupHash(pan), cipher.encrypt(pan)];
      pans.set(pan, fields);
    }
    return fields;
  };

  let buffer = "";
  const flush = async () => {
    if (buffer === "") return;
    const ok = copy.write(buffer);
    buffer = "";
    if (!ok && !copyError) await Promise.race([once(copy, "drain"), once(copy, "error")]);
  };
  try {
    for await (const item of readBatch(batch)) {
      if (copyError) break;
      if (item.kind === "problem") {
        report.problem_count++;
        if (report.problems.length < MAX_PROBLEMS_KEPT) {
          report.problems.push({ ...item.problem, reason: maskPansInText(item.problem.reason) });
        }
        continue;
      }
      const position = item.position;
      report.rows++;
      const distributorId = distributors.get(arnKey(position.arn));
      if (distributorId === undefined) {
        report.skipped_unknown_arn++;
        continue;
      }
      if (report.balance_date === null || position.balance_date > report.balance_date) report.balance_date = position.balance_date;
      buffer += `${report.rows}\t${copyLine(distributorId, position, panFields(position.pan))}`;
      if (buffer.length >= 256 * 1024) await flush();
    }
    await flush();
  } catch (error) {
    copy.destroy();
    throw error;
  }
  if (!copyError) {
    copy.end();
    await Promise.race([once(copy, "finish"), once(copy, "error")]).catch(() => {});
  }
  if (copyError) throw copyError;
}

function copyLine(distributorId: string, p: FeedPosition, pan: [string, string] | undefined): string {
  return [
    distributorId, p.amc_code, p.amc_name, p.folio_no, p.scheme_code, p.isin, p.scheme_name, p.units, p.nav, p.nav_date,
    p.market_value, p.balance_date, p.holding_nature, pan?.[0] ?? null, pan?.[1] ?? null,
  ].map(copyText).join("\t") + "\n";
}

const COPY_SPECIAL = /[\\\t\n\r]/;

/** A value in COPY's text format: \N for null; backslash, tab and line breaks escaped. */
export function copyText(value: string | null): string {
  if (value === null) return "\\N";
  if (!COPY_SPECIAL.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

async function replacePositions(client: pg.ClientBase, batch: FeedBatch, report: ImportReport): Promise<void> {
  const { rows: staged } = await client.query<{ distributor_id: string; newest: string; n: string; stored: string | null }>(
    `SELECT s.distributor_id, s.newest::text, s.n::text,
            (SELECT max(p.balance_date)::text FROM holding_positions p
              WHERE p.distributor_id = s.distributor_id AND p.registrar = $1) AS stored
       FROM (SELECT distributor_id, max(balance_date) AS newest, count(*) AS n FROM holdings_stage GROUP BY 1) s`,
    [batch.registrar],
  );
  const fresh = staged.filter((s) => s.stored === null || s.newest >= s.stored);
  report.skipped_stale = staged.filter((s) => !fresh.includes(s)).reduce((n, s) => n + Number(s.n), 0);
  const freshIds = fresh.map((s) => s.distributor_id);
  const feedFileId = newId("hff");
  if (freshIds.length > 0) {
    await client.query("DELETE FROM holding_positions WHERE registrar = $1 AND distributor_id = ANY($2::text[])", [batch.registrar, freshIds]);
    const inserted = await client.query(INSERT_FROM_STAGE, [batch.registrar, feedFileId, freshIds]);
    report.imported = inserted.rowCount ?? 0;
    report.skipped_duplicate = fresh.reduce((n, s) => n + Number(s.n), 0) - report.imported;
    if (report.skipped_duplicate > 0 && report.problems.length < MAX_PROBLEMS_KEPT) {
      report.problems.push({
        file: batch.file.name,
        line: 0,
        reason: `${report.skipped_duplicate} row(s) repeat an earlier row's distributor, AMC, folio and scheme; the first was kept`,
      });
    }
  }
  report.feed_file_id = feedFileId;
  await insertFeedFile(client, feedFileId, batch, report);
}

async function recordRejected(client: pg.ClientBase, batch: FeedBatch, report: ImportReport, error: FeedFileError): Promise<ImportReport> {
  const rejected: ImportReport = {
    ...report,
    outcome: "REJECTED",
    feed_file_id: newId("hff"),
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
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
