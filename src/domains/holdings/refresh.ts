import path from "node:path";
import type { Services } from "../shared/services.js";
import { holdingsFeedDir, listFeedBatches, type WaitingFile } from "../../integrations/registrars/feed-dir.js";
import { importBatch, withImportClient, type ImportReport } from "./import.js";
import { importTransactionBatch } from "./import-transactions.js";
import { countImportedRows } from "./import-metrics.js";
import { removeSandboxFeeds, writeSandboxFeeds } from "../../integrations/registrars/sandbox/sandbox-registrar.js";
import { feedFileImported } from "./holdings.repo.js";
import { sandboxBooksOf } from "./sandbox-feed.js";
import { REGISTRARS } from "../../integrations/registrars/feeds/feed.js";

export interface RefreshReport {
  feed_dir: string;
  /** Files the sandbox registrar wrote before the import and deleted after it (sandbox only). */
  sandbox_files: string[];
  files: ImportReport[];
  waiting: WaitingFile[];
}

export interface RefreshOptions {
  /** Default: the configured feed directory. */
  feedDir?: string;
  /** Let the sandbox registrar write its feed first. Default: in the sandbox environment. */
  sandboxFeed?: boolean;
  /**
   * The sandbox simulation's caller: the sandbox registrar writes this ARN's feed only, and only the files it
   * wrote are imported and reported (never another distributor's counts or waiting files).
   */
  sandboxArn?: string;
}

/**
 * The holdings refresh (daily job, `holdings:refresh`, sandbox simulation): in the sandbox the sandbox registrar
 * writes its feed files first; then every batch of the feed directory not imported before is imported, each in its
 * own transaction: a registrar's batches in name order, the two registrars concurrently. Problems are logged with file and line, never with a PAN.
 * The sandbox registrar's files hold PANs in clear, so they are deleted once imported (or refused).
 */
export async function refreshHoldings(services: Services, options: RefreshOptions = {}): Promise<RefreshReport> {
  const feedDir = options.feedDir ?? holdingsFeedDir(services.config);
  const sandboxFeed = options.sandboxFeed ?? (services.config.env === "sandbox" && services.sandboxExchange !== undefined);
  const books = sandboxFeed ? await sandboxBooksOf(services) : { holdings: [], transactions: [] };
  const arn = options.sandboxArn;
  const reported = arn === undefined ? books : { holdings: books.holdings.filter((h) => h.arn === arn), transactions: books.transactions.filter((t) => t.arn === arn) };
  const sandboxFiles = await writeSandboxFeeds(reported, feedDir, (registrar, sha) => feedFileImported(services.prisma, registrar, sha));
  try {
    return { feed_dir: feedDir, sandbox_files: sandboxFiles, ...(await importFeedDir(services, feedDir, options.sandboxArn === undefined ? undefined : sandboxFiles)) };
  } finally {
    await removeSandboxFeeds(feedDir, sandboxFiles);
  }
}

/** Imports the directory's batches not imported before (with `only`, just the batches of those files). */
async function importFeedDir(services: Services, feedDir: string, only: string[] | undefined): Promise<Pick<RefreshReport, "files" | "waiting">> {
  const log = services.logger.child({ component: "holdings-refresh" });
  const listed = await listFeedBatches(feedDir);
  const names = only && new Set(only.map((file) => path.basename(file)));
  const batches = names ? listed.batches.filter((b) => names.has(b.file.name)) : listed.batches;
  const waiting = names ? [] : listed.waiting;
  const databaseUrl = services.config.databaseUrl;
  if (!databaseUrl) throw new Error("holdings refresh: no database URL in the configuration");
  // Each registrar's batches in name order on a connection of its own; the two registrars side by side (parsing
  // one while PostgreSQL ingests the other).
  const byRegistrar = REGISTRARS.map((r) => batches.filter((b) => b.registrar === r)).filter((list) => list.length > 0);
  const perRegistrar = await Promise.all(
    byRegistrar.map((list) =>
      withImportClient(databaseUrl, async (client) => {
        const reports: ImportReport[] = [];
        for (const batch of list) {
          const report = batch.kind === "TRANSACTIONS"
            ? await importTransactionBatch(client, services.cipher, batch)
            : await importBatch(client, services.cipher, batch);
          if (report.kind !== "TRANSACTIONS") countImportedRows(report);
          if (report.outcome !== "DUPLICATE") {
            const { problems, ...counts } = report;
            const what = report.kind === "TRANSACTIONS" ? "transaction feed" : "holdings feed";
            log.info({ ...counts, first_problems: problems.slice(0, 5) }, `${what} ${report.outcome.toLowerCase()}`);
          }
          reports.push(report);
        }
        return reports;
      }),
    ),
  );
  const files = perRegistrar.flat();
  for (const w of waiting) log.warn({ registrar: w.registrar, file: w.file }, w.reason);
  return { files, waiting };
}

/** One line per batch, for the CLI and the simulation message. */
export function describeRefresh(report: RefreshReport): string {
  const count = (o: string) => report.files.filter((f) => f.outcome === o).length;
  const done = report.files.filter((f) => f.outcome === "IMPORTED");
  const imported = done.filter((f) => f.kind !== "TRANSACTIONS").reduce((n, f) => n + f.imported, 0);
  const transactions = done.filter((f) => f.kind === "TRANSACTIONS").reduce((n, f) => n + f.imported, 0);
  const also = report.files.some((f) => f.kind === "TRANSACTIONS") ? `, ${transactions} transactions` : "";
  return `${count("IMPORTED")} feed(s) imported (${imported} positions${also}), ${count("DUPLICATE")} already imported, ` +
    `${count("REJECTED")} rejected, ${report.waiting.length} waiting`;
}
