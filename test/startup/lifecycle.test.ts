import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { canConnect } from "../../src/platform/db/postgres-connection.js";
import { postgresBinaries } from "../../src/platform/db/postgres-watchdog.js";
import {
  freePort,
  listProcesses,
  problemLines,
  processTree,
  runNpm,
  stillRunning,
  waitFor,
  waitForOutput,
  type ProcessInfo,
  type Started,
} from "../helpers/process.js";

/**
 * The service as a user runs it: `npm start` with the embedded PostgreSQL, stopped by a signal to the
 * npm process or by a terminal's Ctrl-C, killed outright, and used from `npm run mf` at the same time.
 * One data directory for the whole file (initialised by the first start).
 */

let dataDir: string;
let env: Record<string, string>;
const running: Started[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-lifecycle-"));
  await chmod(dataDir, 0o755); // the postgres system user must traverse it
  env = { MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: String(await freePort()), PORT: String(await freePort()), LOG_LEVEL: "info" };
});

// A test that failed half-way must not leave its service to the next one.
afterEach(async () => {
  for (const started of running.splice(0)) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) continue;
    process.kill(-started.child.pid!, "SIGTERM");
    const code = await Promise.race([started.exited, new Promise((r) => setTimeout(() => r("timeout"), 10_000))]);
    if (code === "timeout") process.kill(-started.child.pid!, "SIGKILL");
  }
}, 30_000);

afterAll(async () => {
  for (const started of running) if (started.child.exitCode === null) process.kill(-started.child.pid!, "SIGKILL");
  // Whatever a failed test left running on the data directory.
  for (const p of listProcesses()) if (p.command.includes(dataDir)) process.kill(p.pid, "SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
}, 30_000);

const postmasterPid = async (): Promise<number> => Number((await readFile(path.join(dataDir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
const postgresOfDataDir = () => listProcesses().filter((p) => p.command.includes(path.join(dataDir, "pg")) && p.state !== "Z");

async function startService(): Promise<{ started: Started; tree: ProcessInfo[] }> {
  const started = runNpm(["start"], env);
  running.push(started);
  await waitForOutput(started, /Sandbox client_secret/, 90_000);
  const tree = processTree(started.child.pid!);
  // npm, the service's node process and the embedded PostgreSQL (with its own processes) belong to this run.
  expect(tree.some((p) => /postgres -D/.test(p.command))).toBe(true);
  return { started, tree };
}

async function expectStoppedCleanly(started: Started, tree: ProcessInfo[], sentAt: number): Promise<void> {
  const code = await Promise.race([started.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 10_000))]);
  expect(code, started.output()).toBe(0);
  expect(Date.now() - sentAt).toBeLessThan(10_000);
  // No process of the run is left (postgres' own processes end within moments of the postmaster).
  await waitFor("the run's processes to end", () => stillRunning(tree).length === 0, 10_000 - (Date.now() - sentAt)).catch(() => undefined);
  expect(stillRunning(tree).map((p) => `${p.pid} ${p.command}`)).toEqual([]);
  expect(problemLines(started.output())).toEqual([]);
  const output = started.output();
  expect(output.indexOf('"msg":"stopping"')).toBeGreaterThan(0);
  expect(output.indexOf('"msg":"stopped"')).toBeGreaterThan(output.indexOf('"msg":"stopping"'));
}

describe("npm start, stopped by a signal", () => {
  it("SIGTERM to the npm process stops the server, the worker and the database within 10 s, leaving no process", async () => {
    const { started, tree } = await startService();
    const sentAt = Date.now();
    process.kill(started.child.pid!, "SIGTERM");
    await expectStoppedCleanly(started, tree, sentAt);
  }, 120_000);

  it("Ctrl-C in the terminal (SIGINT to the whole process group) stops everything within 10 s, without an error line", async () => {
    const { started, tree } = await startService();
    // A request in the middle of things: the database is in use when the signal arrives.
    expect((await fetch(`http://127.0.0.1:${env.PORT}/readyz`)).status).toBe(200);
    const sentAt = Date.now();
    process.kill(-started.child.pid!, "SIGINT");
    await expectStoppedCleanly(started, tree, sentAt);
  }, 120_000);
});

describe("npm run mf next to npm start", () => {
  it("uses the running service's database (whatever port it was told), leaves it running; a second npm start refuses clearly", async () => {
    const { started, tree } = await startService();
    const pid = await postmasterPid();

    // The command line is told another port: it finds the running server through the data directory.
    const cli = runNpm(["run", "mf", "--", "distributors:create", "--name", "Next Door", "--arn", "ARN-700001", "--json"], {
      ...env,
      MF_EMBEDDED_PG_PORT: String(await freePort()),
    });
    expect(await cli.exited, cli.output()).toBe(0);
    const created = JSON.parse(cli.output().trim().split("\n").at(-1)!) as { client_id: string; client_secret: string };
    expect(created.client_id).toMatch(/^mfc_/);
    // The service serves the distributor the command created, on the same database, which still runs.
    const token = await fetch(`http://127.0.0.1:${env.PORT}/api/auth/v1/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: created.client_id, client_secret: created.client_secret }),
    });
    expect(token.status).toBe(200);
    expect(await postmasterPid()).toBe(pid);
    expect(problemLines(started.output())).toEqual([]);

    // A second service on the same data directory: a clear refusal, the first one untouched.
    const second = runNpm(["start"], { ...env, PORT: String(await freePort()) });
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(new RegExp(`The embedded PostgreSQL in ${dataDir}/pg is in use by another process \\(pid \\d+, npm start\\)`));
    // The line to paste is printed on the terminal (the server needs its password); no log line has it.
    const pgPassword = (await readFile(path.join(dataDir, "pg.password"), "utf8")).trim();
    expect(second.output()).toContain(`\n  DATABASE_URL=postgres://postgres:${pgPassword}@127.0.0.1:${env.MF_EMBEDDED_PG_PORT}/mf\n`);
    expect(second.output().split("\n").filter((l) => l.startsWith("{") && l.includes(pgPassword))).toEqual([]);
    expect(second.output()).not.toMatch(/TypeError|\n\s+at /);
    expect((await fetch(`http://127.0.0.1:${env.PORT}/readyz`)).status).toBe(200);
    expect(await postmasterPid()).toBe(pid);

    const sentAt = Date.now();
    process.kill(started.child.pid!, "SIGTERM");
    await expectStoppedCleanly(started, tree, sentAt);
  }, 150_000);

  it("without a running service, starts its own database and stops it again", async () => {
    const cli = runNpm(["run", "mf", "--", "migrate"], env);
    expect(await cli.exited, cli.output()).toBe(0);
    expect(cli.output()).toContain("Database is up to date.");
    expect(postgresOfDataDir()).toEqual([]);
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);
  }, 60_000);
});

describe("the embedded PostgreSQL never outlives the service", () => {
  it("kill -9 of the service stops its PostgreSQL; the next start runs its own", async () => {
    const { started, tree } = await startService();
    const service = tree.find((p) => /^node .*src\/main\.ts/.test(p.command))!;
    expect(service, JSON.stringify(tree)).toBeDefined();
    const postgres = tree.filter((p) => /postgres/.test(p.command));
    process.kill(service.pid, "SIGKILL");
    await started.exited;
    await waitFor("the orphaned PostgreSQL to stop", () => stillRunning(postgres).length === 0, 10_000);
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false);

    const next = await startService();
    process.kill(next.started.child.pid!, "SIGTERM");
    await expectStoppedCleanly(next.started, next.tree, Date.now());
  }, 150_000);

  it("a PostgreSQL left running on the data without its service is stopped and started afresh, never adopted", async () => {
    // A postmaster started outside the service (as an older version or a killed watchdog would leave it).
    const { postgres } = await postgresBinaries();
    const ids = process.getuid?.() === 0 ? { uid: Number(await idOf("-u")), gid: Number(await idOf("-g")) } : {};
    const orphan = spawn(postgres, ["-D", path.join(dataDir, "pg"), "-p", env.MF_EMBEDDED_PG_PORT!, "-c", "listen_addresses=127.0.0.1"], {
      ...ids,
      detached: true,
      stdio: "ignore",
    });
    orphan.unref();
    const admin = `postgres://postgres:${(await readFile(path.join(dataDir, "pg.password"), "utf8")).trim()}@127.0.0.1:${env.MF_EMBEDDED_PG_PORT}/postgres`;
    await waitFor("the orphan to accept connections", () => canConnect(admin), 30_000, 200);
    const orphanProcesses = postgresOfDataDir();

    const { started, tree } = await startService();
    expect(stillRunning(orphanProcesses)).toEqual([]);
    expect(await postmasterPid()).not.toBe(orphan.pid);
    expect(tree.some((p) => p.pid === (orphan.pid as number))).toBe(false);
    expect(started.output()).toMatch(/stopped an embedded PostgreSQL left running without its service/);
    expect(problemLines(started.output())).toEqual([]);

    const sentAt = Date.now();
    process.kill(started.child.pid!, "SIGTERM");
    await expectStoppedCleanly(started, tree, sentAt);
  }, 150_000);
});

function idOf(flag: "-u" | "-g"): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("id", [flag, "postgres"]);
    let out = "";
    child.stdout.on("data", (c) => (out += String(c)));
    child.on("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`id ${flag} postgres failed`))));
  });
}
