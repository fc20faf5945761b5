import type pg from "pg";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { newId } from "../../platform/lib/ids.js";
import { maskPansInText } from "../../platform/lib/mask.js";
import { FeedFileError, type FeedBatch } from "../../integrations/registrars/feeds/feed.js";
import { readCamsTransactionBatches } from "../../integrations/registrars/feeds/cams-transactions.js";
import { readKfintechTransactionBatches } from "../../integrations/registrars/feeds/kfintech-transactions.js";
import type { TransactionItem } from "../../integrations/registrars/feeds/transactions-feed.js";
import { arnResolver, copyWriter, MAX_PROBLEMS_KEPT, panHasher, recordProblem } from "./feed-copy.js";
import { arnKey, copyText, distributorsByArn, IMPORT_LOCK, schemesByIsin, type ImportReport } from "./import.js";

/**
 * The transaction feed import: one CAMS WBR2 or KFintech MFSD201 file into holding_transactions, in one
 * transaction on a dedicated connection, under the registrar's import lock (import.ts).
 *
 * 1. A file whose content hash is recorded already is a DUPLICATE and changes nothing.
 * 2. Its rows are streamed with COPY into a temporary table (a row whose ARN is no distributor's is counted and
 *    skipped; a malformed row is a problem; a malformed file rolls back and is recorded REJECTED), then inserted
 *    with ON CONFLICT DO NOTHING on (registrar, amc_code, txn_no): a transaction seen before (this file read
 *    twice, or an overlapping period) adds nothing and is counted as skipped_duplicate.
 * 3. Reversals are linked: each original a REVERSAL points at gets `reversed_by_txn_no`, whichever file came first.
 * 4. The file is recorded in holding_feed_files (kind TRANSACTIONS; balance_date is its newest trade date).
 */


const COLUMNS = [
  "registrar", "amc_code", "txn_no", "distributor_id", "folio_no", "registrar_scheme_code", "scheme_code", "scheme_name",
  "isin", "type", "registrar_type_code", "registrar_type_description", "reverses_txn_no", "trade_date", "post_date",
  "amount_paise", "units", "nav", "stamp_duty_paise", "stt_paise", "tds_paise", "pan_hash", "feed_file_id",
] as const;

export async function importTransactionBatch(client: pg.ClientBase, cipher: DataCipher, batch: FeedBatch): Promise<ImportReport> {
  const report: ImportReport = {
    kind: "TRANSACTIONS", registrar: batch.registrar, file: batch.file.name, companion: null, outcome: "IMPORTED",
    feed_file_id: newId("hff"), balance_date: null, rows: 0, imported: 0, skipped_unknown_arn: 0, skipped_stale: 0,
    skipped_duplicate: 0, problem_count: 0, problems: [], reason: null, timing_ms: { stage: 0, replace: 0 },
  };
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1, $2)", [IMPORT_LOCK, batch.registrar === "CAMS" ? 1 : 2]);
    const seen = await client.query("SELECT id FROM holding_feed_files WHERE registrar = $1 AND content_sha256 = $2", [batch.registrar, batch.sha256]);
    if (seen.rowCount) {
      await client.query("ROLLBACK");
      return { ...report, outcome: "DUPLICATE", feed_file_id: seen.rows[0].id as string };
    }
    const started = performance.now();
    await client.query("CREATE TEMP TABLE transactions_stage (LIKE holding_transactions INCLUDING DEFAULTS) ON COMMIT DROP");
    try {
      await stream(client, cipher, batch, report);
    } catch (error) {
      if (!(error instanceof FeedFileError)) throw error;
      await client.query("ROLLBACK");
      const rejected: ImportReport = {
        ...report, outcome: "REJECTED", imported: 0, reason: maskPansInText(error.message),
        problems: [...report.problems, { file: error.file, line: 0, reason: maskPansInText(error.reason) }].slice(0, MAX_PROBLEMS_KEPT),
      };
      await insertFeedFile(client, batch, rejected);
      return rejected;
    }
    report.timing_ms.stage = Math.round(performance.now() - started);
    const inserting = performance.now();
    const staged = report.rows - report.skipped_unknown_arn;
    const inserted = await client.query(
      `INSERT INTO holding_transactions (${COLUMNS.join(", ")}) SELECT ${COLUMNS.join(", ")} FROM transactions_stage
       ON CONFLICT (registrar, amc_code, txn_no) DO NOTHING`,
    );
    report.imported = inserted.rowCount ?? 0;
    report.skipped_duplicate = staged - report.imported;
    await linkReversals(client, batch.registrar);
    await insertFeedFile(client, batch, report);
    await client.query("COMMIT");
    report.timing_ms.replace = Math.round(performance.now() - inserting);
    return report;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** Every original that a REVERSAL of the registrar points at, not linked yet, names its reversal. */
async function linkReversals(client: pg.ClientBase, registrar: string): Promise<void> {
  await client.query(
    `UPDATE holding_transactions o SET reversed_by_txn_no = r.txn_no
       FROM holding_transactions r
      WHERE r.reverses_txn_no IS NOT NULL AND r.registrar = $1 AND r.type = 'REVERSAL'
        AND o.registrar = r.registrar AND o.amc_code = r.amc_code AND o.txn_no = r.reverses_txn_no
        AND o.reversed_by_txn_no IS DISTINCT FROM r.txn_no`,
    [registrar],
  );
}

function readTransactions(batch: FeedBatch): AsyncGenerator<TransactionItem[]> {
  return batch.registrar === "CAMS" ? readCamsTransactionBatches(batch.file) : readKfintechTransactionBatches(batch.file);
}

/** Streams the file's transactions with COPY into the stage; counts and problems into the report. */
async function stream(client: pg.ClientBase, cipher: DataCipher, batch: FeedBatch, report: ImportReport): Promise<void> {
  const distributors = await distributorsByArn(client);
  const schemes = await schemesByIsin(client);
  const writer = copyWriter(client, `COPY transactions_stage (${COLUMNS.join(", ")}) FROM STDIN`);
  const panHash = panHasher(cipher);
  const distributorOf = arnResolver(distributors, arnKey);
  const head = `${batch.registrar}\t`;
  const tail = `\t${report.feed_file_id}\n`;
  const n = (value: string | null) => value ?? "\\N";
  try {
    reading: for await (const items of readTransactions(batch)) {
      for (const item of items) {
        if (writer.failed) break reading;
        if (item.kind === "problem") {
          recordProblem(report, item.problem);
          continue;
        }
        const t = item.transaction;
        report.rows++;
        const distributorId = distributorOf(t.arn);
        if (distributorId === undefined) {
          report.skipped_unknown_arn++;
          continue;
        }
        if (report.balance_date === null || t.trade_date > report.balance_date) report.balance_date = t.trade_date;
        const scheme = t.isin === null ? undefined : schemes.get(t.isin);
        // Decimals, dates, paise, the type and the checked ISIN are our own normalised text: only text as the
        // files give it needs escaping.
        writer.add(
          head + copyText(t.amc_code) + "\t" + copyText(t.txn_no) + "\t" + distributorId + "\t" + copyText(t.folio_no) + "\t" +
          copyText(t.scheme_code) + "\t" + copyText(scheme?.schemeCode ?? null) + "\t" + copyText(t.scheme_name) + "\t" + n(t.isin) + "\t" +
          t.type + "\t" + copyText(t.registrar_type_code) + "\t" + copyText(t.registrar_type_description) + "\t" + copyText(t.reverses_txn_no) + "\t" +
          t.trade_date + "\t" + n(t.post_date) + "\t" + n(t.amount_paise) + "\t" + n(t.units) + "\t" + n(t.nav) + "\t" +
          n(t.stamp_duty_paise) + "\t" + n(t.stt_paise) + "\t" + n(t.tds_paise) + "\t" + panHash(t.pan) + tail,
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

async function insertFeedFile(client: pg.ClientBase, batch: FeedBatch, r: ImportReport): Promise<void> {
  await client.query(
    `INSERT INTO holding_feed_files (id, kind, registrar, file_name, companion_name, content_sha256, outcome, balance_date, rows,
       imported, skipped_unknown_arn, skipped_stale, skipped_duplicate, problem_count, problems)
     VALUES ($1, 'TRANSACTIONS', $2, $3, NULL, $4, $5, $6, $7, $8, $9, 0, $10, $11, $12)
     ON CONFLICT (registrar, content_sha256) DO NOTHING`,
    [
      r.feed_file_id, batch.registrar, r.file, batch.sha256, r.outcome, r.balance_date, r.rows, r.imported,
      r.skipped_unknown_arn, r.skipped_duplicate, r.problem_count, JSON.stringify(r.problems),
    ],
  );
}
