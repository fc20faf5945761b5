import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDistributor } from "./domains/auth/distributors.service.js";
import { EmbeddedPostgresError } from "./platform/db/embedded-errors.js";
import { checkLogin, standaloneSessions } from "./integrations/exchange/bse/login-check.js";
import { ConfigError, loadConfig } from "./env.js";
import { AppError } from "./platform/lib/errors.js";
import { createLogger } from "./platform/lib/logger.js";
import { importNavAllFile } from "./domains/masters/schemes.service.js";
import { describeMasterImport, importExchangeMasters, MasterFileError, readMasterFiles } from "./domains/masters/exchange-masters.import.js";
import { importHolidayFile, type CalendarImportReport } from "./domains/masters/exchange-holidays.import.js";
import { describeRefresh, refreshHoldings } from "./domains/holdings/refresh.js";
import { openRuntime, type Runtime } from "./runtime.js";
import { defaultReconciliationDate, operatorTotals, reconcileDate, type OperatorTotals } from "./domains/reconciliations/reconciliations.service.js";
import { IsoDate } from "./platform/lib/formats.js";
import { todayInIndia } from "./platform/lib/india-date.js";
import { startTracing } from "./platform/tracing/setup.js";
import { OPENAPI_FILE, openApiText } from "./openapi.js";
import { importNavHistory } from "./domains/masters/nav-history.import.js";
import { backfillNominationStatus } from "./domains/investors/nomination-backfill.js";
import { ALL_EVENTS, ListenerError, listenerToken, startWebhookListener } from "./domains/webhooks/listener.js";

const USAGE = `Usage: npm run mf -- <command> [options]

Commands:
  migrate                                   Apply pending database migrations
  openapi [--out openapi.json]              Rewrite the OpenAPI document from the routers
  distributors:create --name N --arn ARN-123 [--json]
                                            Create a distributor and its API client (secret shown once)
  schemes:import <NAVAll.txt>               Import AMFI's NAV file (either format) into the scheme master
  masters:import-exchange --schemes FILE [--sip FILE] [--json]
                                            Import the exchange's scheme master (and SIP master): codes and trading rules
  calendar:import <FILE> [--json]           Load the exchange's trading holidays (YYYY-MM-DD,description a line), replacing the years the file covers
  nav:import-history <FILE> [--json]        Import AMFI's historical NAV report (e.g. the 31 January 2018 NAVs that grandfather gains)
  holdings:refresh [--json]                 Import the registrar feeds of HOLDINGS_FEED_DIR (sandbox: its registrar's feed first)
  reconcile [--date YYYY-MM-DD] [--json]    Compare a day's orders with the exchange's reports (default: the previous
                                            business day), store the differences, apply missed allotments; print totals
  investors:backfill-nomination [--json]    Derive nomination_status of investors from before it now (the worker does it every 10 min)
                                            where their details name nominees (safe to run again)
  bse:check                                 Log in to BSE StAR MF (MF_EXCHANGE=bse) and report the sessions; places nothing
  webhooks:listen [--events order.*,payment.*] [--port N] [--base URL] [--token T]
                                            Sandbox: a local HTTPS receiver, subscribed until Ctrl-C, printing each delivery

Uses DATABASE_URL when set, otherwise the embedded PostgreSQL under .data/ (the one a running
npm start uses, or one started for the command).`;

async function withRuntime<T>(work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const tracing = await startTracing({ ...config.tracing, role: "cli" });
  // Commands print their own results; the logger only reports problems.
  // Next to a running `npm start`, its embedded database is used (and left running).
  const runtime = await openRuntime(config, createLogger(config.logLevel === "info" ? "warn" : config.logLevel), {
    ifRunning: "share",
    ownerLabel: "npm run mf",
  });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
    await tracing.shutdown().catch(() => {});
  }
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "migrate": {
      await withRuntime(async () => undefined);
      console.log("Database is up to date.");
      return;
    }
    case "openapi": {
      const { values } = parseArgs({ args: rest, options: { out: { type: "string" } } });
      const out = values.out ? path.resolve(values.out) : OPENAPI_FILE;
      await writeFile(out, openApiText());
      console.log(`Wrote ${out}`);
      return;
    }
    case "distributors:create": {
      const { values } = parseArgs({
        args: rest,
        options: { name: { type: "string" }, arn: { type: "string" }, json: { type: "boolean", default: false } },
      });
      if (!values.name || !values.arn) throw new UsageError("distributors:create needs --name and --arn");
      const created = await withRuntime((rt) => createDistributor(rt.services.prisma, { name: values.name!, arn: values.arn! }));
      if (values.json) {
        console.log(JSON.stringify(created));
      } else {
        console.log(`Distributor ${created.distributor_id} (${created.arn})`);
        console.log(`client_id     ${created.client_id}`);
        console.log(`client_secret ${created.client_secret}`);
        console.log("The secret is shown only now; store it safely.");
      }
      return;
    }
    case "schemes:import": {
      const file = rest[0];
      if (!file) throw new UsageError("schemes:import needs the path of a NAVAll.txt file");
      const stats = await withRuntime((rt) => importNavAllFile(rt.services.prisma, path.resolve(file)));
      console.log(
        `${stats.format} format: ${stats.received} schemes read, ${stats.inserted} added, ${stats.updated} updated, ` +
          `${stats.unchanged} older than the master (kept), ${stats.skipped.length} malformed lines skipped`,
      );
      for (const skip of stats.skipped.slice(0, 20)) console.log(`  line ${skip.line}: ${skip.reason}`);
      return;
    }
    case "masters:import-exchange": {
      const { values } = parseArgs({
        args: rest,
        options: { schemes: { type: "string" }, sip: { type: "string" }, json: { type: "boolean", default: false } },
      });
      if (!values.schemes) throw new UsageError("masters:import-exchange needs --schemes FILE (the exchange's scheme master)");
      const texts = await readMasterFiles({ schemes: path.resolve(values.schemes), sip: values.sip === undefined ? undefined : path.resolve(values.sip) });
      const summary = await withRuntime((rt) => importExchangeMasters(rt.services.prisma, texts));
      if (values.json) console.log(JSON.stringify(summary));
      else for (const line of describeMasterImport(summary)) console.log(line);
      return;
    }
    case "calendar:import": {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { json: { type: "boolean", default: false } } });
      const file = positionals[0];
      if (!file) throw new UsageError("calendar:import needs the path of a holiday file");
      const text = await readFile(path.resolve(file), "utf8");
      const report = await withRuntime((rt) => importHolidayFile(rt.services.prisma, text));
      if (values.json) console.log(JSON.stringify(report));
      else console.log(describeCalendarImport(file, report));
      if (!report.imported) process.exitCode = 1;
      return;
    }
    case "nav:import-history": {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { json: { type: "boolean", default: false } } });
      const file = positionals[0];
      if (!file) throw new UsageError("nav:import-history needs the path of an AMFI NAV history file");
      const text = await readFile(path.resolve(file), "utf8");
      const report = await withRuntime((rt) => importNavHistory(rt.services.prisma, text));
      if (values.json) console.log(JSON.stringify(report));
      else {
        console.log(`${report.read} lines read, ${report.saved} NAVs saved, ${report.skipped.length} malformed lines skipped`);
        for (const skip of report.skipped.slice(0, 20)) console.log(`  line ${skip.line}: ${skip.reason}`);
      }
      return;
    }
    case "holdings:refresh": {
      const { values } = parseArgs({ args: rest, options: { json: { type: "boolean", default: false } } });
      const report = await withRuntime((rt) => refreshHoldings(rt.services));
      if (values.json) {
        console.log(JSON.stringify(report));
        return;
      }
      console.log(`Feed directory ${report.feed_dir}`);
      for (const name of report.sandbox_files) console.log(`  sandbox registrar wrote ${name}`);
      for (const f of report.files) {
        console.log(
          `  ${f.registrar} ${f.file}${f.companion ? ` + ${f.companion}` : ""}: ${f.outcome}` +
            (f.outcome === "DUPLICATE" ? "" : `, ${f.rows} rows, ${f.imported} imported, ${f.skipped_unknown_arn} unknown ARN, ` +
              `${f.skipped_stale} stale, ${f.skipped_duplicate} repeated, ${f.problem_count} malformed`) +
            (f.reason ? ` (${f.reason})` : ""),
        );
        for (const p of f.problems.slice(0, 20)) console.log(`    ${p.file} line ${p.line}: ${p.reason}`);
      }
      for (const w of report.waiting) console.log(`  ${w.registrar} ${w.file}: ${w.reason}`);
      console.log(describeRefresh(report));
      return;
    }
    case "investors:backfill-nomination": {
      const { values } = parseArgs({ args: rest, options: { json: { type: "boolean", default: false } } });
      const report = await withRuntime((rt) => backfillNominationStatus(rt.services));
      if (values.json) console.log(JSON.stringify(report));
      else console.log(`${report.checked} investors without a nomination status checked, ${report.nominated} marked NOMINATED`);
      return;
    }
    case "bse:check": {
      const config = loadConfig();
      if (!config.bse) throw new UsageError("bse:check needs MF_EXCHANGE=bse and the BSE_* variables");
      const sessions = standaloneSessions(config.bse, createLogger(config.logLevel === "info" ? "warn" : config.logLevel));
      console.log(`BSE StAR MF at ${config.bse.baseUrl}: member ${config.bse.memberId}, user ${config.bse.userId}`);
      let failed = false;
      for (const service of ["order", "upload"] as const) {
        const check = await checkLogin(sessions, config.bse, service);
        const name = service === "order" ? "order entry (MFOrder.svc)" : "additional services (MFUploadService.svc)";
        if (check.ok) console.log(`  ${name}: logged in, session valid until ${check.expiresAt} (pass key: ${check.passKey})`);
        else console.log(`  ${name}: login FAILED: ${check.message}`);
        failed ||= !check.ok;
      }
      console.log(failed ? "Not ready: fix the failed login(s) above." : "Ready: nothing was placed.");
      if (failed) process.exitCode = 1;
      return;
    }
    case "reconcile": {
      const { values } = parseArgs({ args: rest, options: { date: { type: "string" }, json: { type: "boolean", default: false } } });
      if (values.date !== undefined && !IsoDate.safeParse(values.date).success) throw new UsageError(`--date must be a date YYYY-MM-DD (got ${JSON.stringify(values.date)})`);
      if (values.date !== undefined && values.date > todayInIndia()) throw new UsageError(`--date ${values.date} is after today (India): there is nothing to reconcile yet`);
      const totals = await withRuntime(async (rt) => {
        const date = values.date ?? (await defaultReconciliationDate(rt.services.prisma));
        await reconcileDate(rt.services, date);
        return operatorTotals(rt.services.prisma, date);
      });
      if (values.json) console.log(JSON.stringify(totals));
      else for (const line of describeTotals(totals)) console.log(line);
      return;
    }
    case "webhooks:listen":
      return listenForWebhooks(rest);
    default:
      throw new UsageError(command ? `Unknown command: ${command}` : "No command given");
  }
}

/** Runs until SIGINT or SIGTERM, then unsubscribes. Talks to a running service over its API; opens no database. */
async function listenForWebhooks(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      events: { type: "string", multiple: true },
      port: { type: "string", default: "0" },
      base: { type: "string" },
      token: { type: "string" },
    },
  });
  const config = loadConfig();
  if (config.env !== "sandbox") throw new UsageError("webhooks:listen is for the sandbox only (MF_ENV=sandbox)");
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError("--port must be a port number (0: any free port)");
  const events = values.events?.flatMap((e) => e.split(",")).map((e) => e.trim()).filter(Boolean) ?? ALL_EVENTS;
  const baseUrl = values.base ?? process.env.MF_BASE_URL ?? `http://localhost:${config.port}`;
  const token = await listenerToken(baseUrl, values.token ?? process.env.MF_TOKEN, {
    dataDir: config.dataDir,
    clientId: config.sandbox.clientId,
    clientSecret: config.sandbox.clientSecret,
  });
  const listener = await startWebhookListener({ baseUrl, token, events, port, dataDir: config.dataDir, print: (line) => console.log(line) });
  console.log(`Listening on ${listener.url} for ${events.join(", ")} (subscription ${listener.subscriptionId}); Ctrl-C to stop.`);
  const stop = () => {
    listener.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error((error as Error).message);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function describeCalendarImport(file: string, report: CalendarImportReport): string {
  const years = report.years.join(", ") || "none";
  if (!report.imported) {
    return [
      `${file}: refused, nothing changed (${report.problems.length} bad line(s); fix them and import the whole file again)`,
      ...report.problems.map((p) => (p.line ? `  line ${p.line}: ${p.message}` : `  ${p.message}`)),
    ].join("\n");
  }
  return `${file}: ${report.holidays} holiday(s) loaded for ${years} (replacing ${report.removed} held before)`;
}

function describeTotals(totals: OperatorTotals): string[] {
  const run = totals.run!;
  const kinds = Object.entries(totals.by_kind).filter(([, n]) => n > 0);
  const arns = Object.entries(totals.by_arn);
  return [
    `Reconciled ${run.date}: ${run.our_orders} of our orders, ${run.exchange_orders} in the exchange's order status report; ${run.mismatches} mismatch(es), ${totals.fixed} fixed.`,
    ...(kinds.length ? ["By kind:", ...kinds.map(([kind, n]) => `  ${kind} ${n}`)] : []),
    ...(arns.length || totals.exchange_only ? ["By distributor:", ...arns.map(([arn, n]) => `  ${arn} ${n}`), ...(totals.exchange_only ? [`  (not ours) ${totals.exchange_only}`] : [])] : []),
  ];
}

class UsageError extends Error {}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof EmbeddedPostgresError) console.error(error.forTerminal());
  else if (error instanceof ConfigError || error instanceof ListenerError) console.error(error.message);
  else if (error instanceof MasterFileError) console.error(`Refused, nothing imported: ${error.message}`);
  else if ((error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") console.error(`No such file: ${(error as NodeJS.ErrnoException).path}`);
  else if (error instanceof AppError) {
    console.error(`${error.appCode}: ${error.message}`);
    for (const d of error.details ?? []) console.error(`  ${d.path}: ${d.message}`);
  } else console.error((error as Error | undefined)?.stack ?? String(error));
  process.exit(1);
});
