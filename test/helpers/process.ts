import { spawn, type ChildProcess } from "node:child_process";
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
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", entry, ...args], {
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
