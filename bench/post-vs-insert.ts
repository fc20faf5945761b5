/**
 * The harness of the POST benchmarks: one endpoint against a bare baseline measured in the same run,
 * a procedure that inserts one row in a transaction, served through the same stack (same Hono app,
 * REST adapter, authedProcedure, POST with a small JSON body). The servers run in a child process
 * (the entry file again, with the argument `serve`) so the load generator does not share their event
 * loop; the worker is not started there, so jobs queue up as they would behind a busy worker.
 * BENCH_SECONDS sets the duration (default 10); DATABASE_URL uses a server instead of an embedded one;
 * BENCH_PROFILE=dir writes a CPU profile of the server process.
 */
import { fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import type { Runtime } from "../src/runtime.js";
import { UNLIMITED_BUDGET } from "./budget.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const BARE_PATH = "/api/bench/v1/rows";

/** One POST endpoint measured against a one-row-insert procedure served by the same stack. */
export interface PostBenchmark<S> {
  /** What the measured endpoint does, for the printed rows. */
  name: string;
  path: string;
  connections: number;
  target: number;
  /** Port of the embedded PostgreSQL the server process starts (one per benchmark). */
  pgPort: number;
  /** In the server process, after the distributor exists: data the request bodies need. */
  setup(runtime: Runtime, distributorId: string): Promise<S>;
  /** In the load process: a fresh, valid request body per call. */
  body(setup: S): () => unknown;
}

interface Ready {
  full: number;
  bare: number;
  token: string;
  setup: unknown;
}

/** Runs the benchmark: as the load generator, or (argument `serve`) as the server process. */
export async function runPostBenchmark<S>(bench: PostBenchmark<S>, entry: string): Promise<void> {
  if (process.argv[2] === "serve") await serveBoth(bench);
  else await measure(bench, entry);
}

async function serveBoth<S>(bench: PostBenchmark<S>): Promise<void> {
  const { openRuntime } = await import("../src/runtime.js");
  const { loadConfig } = await import("../src/env.js");
  const { createLogger } = await import("../src/lib/logger.js");
  const pino = (await import("pino")).default;

  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-bench-"));
  await chmod(dataDir, 0o755);
  const config = loadConfig({ ...UNLIMITED_BUDGET, ...process.env, MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: String(bench.pgPort), LOG_LEVEL: "info" });
  // Request logs are written as in production, to a sink, so their cost is part of the figure. The
  // first error line (a 500's cause) is also printed once, so a failing run can be diagnosed.
  let errorShown = false;
  const firstError = {
    write(line: string) {
      if (errorShown) return;
      errorShown = true;
      process.stderr.write(`server error (first one only): ${line}`);
    },
  };
  const logger = createLogger(
    "info",
    pino.multistream([
      { level: "info", stream: pino.destination({ dest: "/dev/null", sync: false }) },
      { level: "error", stream: firstError },
    ]),
  );
  const runtime = await openRuntime(config, logger).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });

  let stopping: Promise<void> | undefined;
  const stop = (code = 0) =>
    (stopping ??= (async () => {
      // Requests still in flight when the load generator stopped finish first: closing the database
      // under them would fail them (and log errors that are not part of the measurement).
      for (let waited = 0; inFlight.count > 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      await runtime.close().catch((error) => console.error("runtime.close failed", error));
      await rm(dataDir, { recursive: true, force: true });
      process.exit(code);
    })());
  // Stop when told, and also if the parent goes away, so no embedded PostgreSQL is left running.
  process.on("message", () => void stop());
  process.on("disconnect", () => void stop());

  try {
    process.send!(await listenBoth(runtime, bench));
  } catch (error) {
    console.error(error);
    await stop(1);
  }
}

async function listenBoth<S>(runtime: Runtime, bench: PostBenchmark<S>): Promise<Ready> {
  const { serve } = await import("@hono/node-server");
  const { z } = await import("zod");
  const { createApp } = await import("../src/app.js");
  const { createDistributor } = await import("../src/auth/distributors.service.js");
  const { appRouter } = await import("../src/router.js");
  const { authedProcedure, router } = await import("../src/trpc/init.js");

  const { prisma } = runtime.services;
  await prisma.$executeRawUnsafe("CREATE TABLE IF NOT EXISTS bench_rows (id text PRIMARY KEY, note text NOT NULL)");
  const created = await createDistributor(prisma, { name: "Bench", arn: `ARN-${Date.now() % 1e9}` });
  const tokenResponse = await runtime.services.auth.issueToken(created.client_id, created.client_secret);

  const benchRouter = router({
    insertRow: authedProcedure
      .meta({ openapi: { method: "POST", path: BARE_PATH, tags: ["bench"], summary: "Insert one row (benchmark baseline)" } })
      .input(z.strictObject({ note: z.string() }))
      .output(z.object({ id: z.string() }))
      .mutation(async ({ ctx, input }) => {
        const id = randomUUID();
        await ctx.prisma.$transaction((tx) => tx.$executeRawUnsafe("INSERT INTO bench_rows (id, note) VALUES ($1, $2)", id, input.note));
        ctx.response.status = 201;
        return { id };
      }),
  });
  const benchAppRouter = router({ ...appRouter._def.record, bench: benchRouter });

  const full = createApp(runtime.services, { readiness: runtime.readiness });
  const bare = createApp(runtime.services, { readiness: runtime.readiness, router: benchAppRouter });

  const listen = (fetch: (r: Request) => Response | Promise<Response>) =>
    new Promise<number>((resolve) => {
      const counted = async (request: Request) => {
        inFlight.count++;
        try {
          return await fetch(request);
        } finally {
          inFlight.count--;
        }
      };
      serve({ fetch: counted, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port));
    });
  const setup = await bench.setup(runtime, created.distributor_id);
  return { full: await listen(full.fetch), bare: await listen(bare.fetch), token: tokenResponse.access_token, setup };
}

/** Requests the servers are answering, so the child can let them finish before it stops. */
const inFlight = { count: 0 };

/** The first failing response of a run, kept so it can be printed once. */
let firstFailure: string | undefined;

function load(port: number, path: string, token: string, body: () => unknown, duration: number, connections: number) {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    requests: [
      {
        method: "POST",
        path,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        setupRequest: (req) => ({ ...req, body: JSON.stringify(body()) }),
        onResponse: (status, responseBody) => {
          if ((status < 200 || status >= 300) && firstFailure === undefined) firstFailure = `${path} ${status}: ${responseBody}`;
        },
      },
    ],
  });
}

async function check(port: number, path: string, token: string, body: unknown): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
}

async function measure<S>(bench: PostBenchmark<S>, entry: string): Promise<void> {
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(entry, ["serve"], { execArgv: ["--import", "tsx", ...profile], stdio: "inherit" });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const ready = await Promise.race([
      new Promise<Ready>((resolve) => child.once("message", (m) => resolve(m as Ready))),
      exited.then((code) => {
        throw new Error(`server process exited (${code}) before it was ready`);
      }),
    ]);
    const note = () => ({ note: `bench ${Math.random().toString(36).slice(2, 10)}` });
    const body = bench.body(ready.setup as S);
    const connections = bench.connections;

    await check(ready.full, bench.path, ready.token, body());
    await check(ready.bare, BARE_PATH, ready.token, note());

    // Warm both paths (JIT, pools, token cache) before measuring.
    await load(ready.bare, BARE_PATH, ready.token, note, WARMUP_SECONDS, connections);
    await load(ready.full, bench.path, ready.token, body, WARMUP_SECONDS, connections);
    if (firstFailure !== undefined) console.log(`warm-up failure: ${firstFailure}`);
    firstFailure = undefined;

    const bare = await load(ready.bare, BARE_PATH, ready.token, note, SECONDS, connections);
    const full = await load(ready.full, bench.path, ready.token, body, SECONDS, connections);

    const row = (name: string, r: autocannon.Result) =>
      `${name.padEnd(44)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
    console.log(`\nPOST, ${connections} connections, ${SECONDS} s each (after ${WARMUP_SECONDS} s warm-up)`);
    console.log(row(`bare: insert one row (POST ${BARE_PATH})`, bare));
    console.log(row(`${bench.name} (POST ${bench.path})`, full));
    const ratio = full.requests.average / bare.requests.average;
    console.log(`ratio ${bench.name}/bare ${ratio.toFixed(2)} (target >= ${bench.target})`);
    if (firstFailure !== undefined) console.log(`first failing response: ${firstFailure}`);
    console.log();
    if (bare.non2xx + full.non2xx + bare.errors + full.errors > 0) process.exitCode = 1;
  } finally {
    if (child.connected) child.send("stop");
    else child.kill();
    await exited;
  }
}

