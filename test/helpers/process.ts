import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

let runs = 0;

/** Runs a TypeScript entry point of the project the way `npm start` / `npm run mf` do. */
export function runEntry(entry: string, args: string[], env: Record<string, string>): Started {
  return runNode(["--import", "tsx", entry, ...args], env);
}

/**
 * Runs an entry point of the compiled build (`dist/main.js`, `dist/cli.js`) with plain node, the way a
 * process manager does, under test/deploy/refuse-typescript.mjs: loading tsx or any TypeScript file stops it.
 */
export function runBuilt(entry: string, args: string[], env: Record<string, string>): Started {
  return runNode(["--import", REFUSE_TYPESCRIPT, entry, ...args], env);
}

export const REFUSE_TYPESCRIPT = path.join(ROOT, "test", "deploy", "refuse-typescript.mjs");

export function runNode(nodeArgs: string[], env: Record<string, string>): Started {
  let output = "";
  const child = spawn(process.execPath, nodeArgs, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/root",
      LOG_LEVEL: "warn",
      // Without a data directory of its own, feed files the sandbox registrar writes go to one of this run,
      // never into the repository's .data.
      ...(env.MF_DATA_DIR ? {} : { HOLDINGS_FEED_DIR: path.join(os.tmpdir(), `mf-test-feeds-${process.pid}-${++runs}`) }),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export async function waitForOutput(started: Started, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = started.output().match(pattern);
    if (match) return match;
    if (started.child.exitCode !== null) throw new Error(`process exited (${started.child.exitCode}):\n${started.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${started.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs `npm <args>` as a user would in a terminal: npm is the leader of its own process group, so a
 * test can signal the npm process alone (`kill`) or the whole group as a terminal's Ctrl-C does
 * (`process.kill(-pid)`). The user's npm configuration is not read (its warnings are not ours).
 */
/** A child's environment: PATH and HOME only, the user's npm configuration not read (its warnings are not ours). */
export function cleanChildEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/root",
    npm_config_userconfig: "/dev/null",
    npm_config_update_notifier: "false",
    ...env,
  };
}

export function runNpm(args: string[], env: Record<string, string>): Started {
  let output = "";
  const child = spawn("npm", args, {
    cwd: ROOT,
    detached: true,
    env: cleanChildEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot: with the pid, names one process even if the pid is reused. */
  startedAt: string;
  state: string;
  command: string;
}

/** Every process on this (Linux) machine, from /proc. */
export function listProcesses(): ProcessInfo[] {
  const result: ProcessInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may contain spaces; the fields after it are fixed.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      result.push({ pid: Number(entry), state: fields[0]!, ppid: Number(fields[1]), startedAt: fields[19]!, command });
    } catch {
      // The process ended while we looked.
    }
  }
  return result;
}

/** The process `pid` and all its descendants, as they are now. */
export function processTree(pid: number): ProcessInfo[] {
  const all = listProcesses();
  const tree = all.filter((p) => p.pid === pid);
  for (let i = 0; i < tree.length; i++) tree.push(...all.filter((p) => p.ppid === tree[i]!.pid));
  return tree;
}

/** Which of `processes` still run (zombies count as ended). */
export function stillRunning(processes: ProcessInfo[]): ProcessInfo[] {
  const now = new Map(listProcesses().map((p) => [p.pid, p]));
  return processes.filter((p) => {
    const current = now.get(p.pid);
    return current !== undefined && current.startedAt === p.startedAt && current.state !== "Z";
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs: number, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Output lines that report a problem: pino lines at warn or above, and any other line saying error or warn. */
export function problemLines(output: string): string[] {
  return output.split("\n").filter((line) => {
    if (!line.trim()) return false;
    try {
      const parsed = JSON.parse(line) as { level?: number };
      return typeof parsed.level === "number" && parsed.level >= 40;
    } catch {
      return /error|warn|fatal|exception/i.test(line);
    }
  });
}
