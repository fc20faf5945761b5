import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { USER } from "./postgres-connection.js";
import { commandLine, hasProc, parentPid, processStatus } from "./proc-status.js";

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

export interface SpawnedPostmaster {
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** The last few KB the server wrote to stderr. */
  stderr(): string;
  /** Closes the watchdog's lifeline and waits for the server (and the watchdog) to end. */
  stop(): Promise<void>;
}

/**
 * Starts the postmaster of `dataDir` under its watchdog (see WATCHDOG), listening on port number `port`;
 * it does not wait for it to accept connections.
 */
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

/**
 * The watchdog the postmaster `pid` runs under, if it is alive: its parent is a shell named WATCHDOG_NAME
 * for the same data directory. Its owner is the watchdog's parent. "unknown" without /proc.
 */
export function watchdogOf(pid: number, dataDir: string): { ownerPid: number | null } | "none" | "unknown" {
  const parent = parentPid(pid);
  if (parent === undefined) return hasProc() ? "none" : "unknown";
  if (parent <= 1) return "none";
  try {
    const args = commandLine(parent);
    if (args[3] !== WATCHDOG_NAME || !args.includes(dataDir)) return "none";
  } catch {
    return "none";
  }
  if (processStatus(parent) === "Z") return "none";
  const owner = parentPid(parent);
  return { ownerPid: owner && owner > 1 ? owner : null };
}

/** Paths of the PostgreSQL binaries embedded-postgres ships for this platform. */
export async function postgresBinaries(): Promise<{ postgres: string; initdb: string; pg_ctl: string }> {
  const entry = createRequire(import.meta.url).resolve("embedded-postgres");
  const { default: getBinaries } = (await import(pathToFileURL(path.join(path.dirname(entry), "binary.js")).href)) as {
    default: () => Promise<{ postgres: string; initdb: string; pg_ctl: string }>;
  };
  return getBinaries();
}

async function stopWatchdog(watchdog: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (watchdog.exitCode !== null || watchdog.signalCode !== null) return;
  watchdog.stdin!.end();
  // An unref'd timer: it does not keep the process alive (a command ends as soon as its work is done).
  const stopped = await Promise.race([exited.then(() => true), delay(30_000, undefined, { ref: false }).then(() => false)]);
  if (!stopped) {
    // A fast shutdown that hangs: immediate shutdown of the whole watchdog group (the postmaster is in it).
    process.kill(-watchdog.pid!, "SIGQUIT");
    await exited;
  }
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
    // First start as root: the first start's initialisation (embedded.ts) creates the user.
    return {};
  }
}
