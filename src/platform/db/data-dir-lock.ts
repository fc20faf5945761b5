import { readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { EmbeddedPostgresError } from "./embedded-errors.js";
import { adminUrlOf, readPassword } from "./embedded-password.js";
import { LEGACY_PASSWORD, urlFor, waitUntilAccepting } from "./postgres-connection.js";
import { watchdogOf } from "./postgres-watchdog.js";
import { processState } from "./proc-status.js";

/**
 * Who runs the server of a data directory: the postmaster PostgreSQL's lock file (`postmaster.pid`) names,
 * and the process of the service that started it, which holds the owner lock (a session advisory lock in
 * the `postgres` database) while it runs it; and the stop of a server left running without its owner.
 */

/** The session advisory lock (in the `postgres` database) the process that started the server holds while it runs it. */
const OWNER_LOCK = [0x6d66, 0x6f776e] as const;
const OWNER_APPLICATION = "mf-embedded-owner";
/** How long a server under a live watchdog is given for its owner to claim the owner lock. */
const OWNER_CLAIM_WAIT_MS = 10_000;

export interface RunningPostmaster {
  pid: number;
  /** The port number it listens on. */
  port: number;
}

/**
 * The postmaster running on `dataDir` according to its `postmaster.pid`, if it is alive. A lock file
 * whose process is gone, or whose pid now belongs to another program, is stale: PostgreSQL would refuse
 * to start over a live pid, so a stale file naming another program is removed.
 */
export async function runningPostmaster(dataDir: string): Promise<RunningPostmaster | null> {
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
 * The live process that started the server, null when there is none (an orphan), or "gone" when the
 * server ended while we asked (a watchdog finishing its shutdown). The owner holds the owner lock, except
 * in the moment between its server accepting connections and its claiming the lock: a server whose
 * watchdog is alive has a live owner (the watchdog ends the server when its service goes), so the lock is
 * waited for, briefly, to name it. Without /proc, the lock is looked at once more after a pause instead.
 */
export async function ownerOf(running: RunningPostmaster, dataDir: string): Promise<{ pid: number | null; label: string } | null | "gone"> {
  const probeUrl = urlFor(running.port, "postgres", (await readPassword(dataDir)) ?? LEGACY_PASSWORD);
  const alive = () => processState(running.pid, dataDir) === "postgres";
  if (!(await waitUntilAccepting(probeUrl, 15_000, alive))) {
    if (!alive()) return "gone";
    throw new EmbeddedPostgresError(
      `A PostgreSQL server (pid ${running.pid}) runs on ${dataDir} but does not accept connections on port ${running.port}. ` +
        `Stop it (kill -INT ${running.pid}) and start again.`,
    );
  }
  const client = new pg.Client({ connectionString: await adminUrlOf(dataDir, running.port) });
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

/** Holds the owner lock for as long as this process runs the server (the session ends with the process). */
export async function claimOwnership(adminUrl: string, label: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: `${OWNER_APPLICATION} ${process.pid} ${label}`.slice(0, 63) });
  // Ended by our own stop, or by the server's shutdown: nothing to report either way.
  client.on("error", () => {});
  await client.connect();
  await client.query("SELECT pg_advisory_lock($1, $2)", [...OWNER_LOCK]);
  return client;
}

/** Fast shutdown of a server left without its owner, waiting until it is gone. */
export async function stopOrphan(running: RunningPostmaster, dataDir: string): Promise<void> {
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
