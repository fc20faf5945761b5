/**
 * GET /api/masters/v1/investor-options through the whole stack (request id, access log, bearer auth,
 * REST routing) against a bare Hono handler returning the same JSON, measured in the same run at 50
 * connections. Target: ratio of requests/s >= 0.5.
 *
 * The catalog is a static procedure: its first response runs the tRPC procedure (output validation
 * included) and repeats are served from the serialized response after authentication. A third run
 * switches that off, so the cost of the generic procedure path (REST dispatcher + tRPC middlewares +
 * zod) is printed too.
 *
 *   npm run bench:masters            (BENCH_SECONDS=10 by default; DATABASE_URL to use a server)
 *
 * The servers run in a child process so the load generator does not share their event loop.
 */
import { fork } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { UNLIMITED_BUDGET } from "./budget.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

interface Ready {
  full: number;
  uncached: number;
  bare: number;
  token: string;
}

async function serveBoth(): Promise<void> {
  const { serve } = await import("@hono/node-server");
  const { Hono } = await import("hono");
  const { createApp } = await import("../src/app.js");
  const { openRuntime } = await import("../src/runtime.js");
  const { loadConfig } = await import("../src/env.js");
  const { createLogger } = await import("../src/lib/logger.js");
  const { createDistributor } = await import("../src/auth/distributors.service.js");
  const { publicCatalog } = await import("../src/masters/investor-options.js");
  const pino = (await import("pino")).default;

  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-bench-"));
  await chmod(dataDir, 0o755);
  const config = loadConfig({ ...UNLIMITED_BUDGET, ...process.env, MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: "54391", LOG_LEVEL: "info" });
  // Request logs are written as in production, to a sink, so their cost is part of the figure.
  const logger = createLogger("info", pino.destination({ dest: "/dev/null", sync: false }));
  const runtime = await openRuntime(config, logger);
  const created = await createDistributor(runtime.services.prisma, { name: "Bench", arn: `ARN-${Date.now() % 1e9}` });
  const tokenResponse = await runtime.services.auth.issueToken(created.client_id, created.client_secret);

  const full = createApp(runtime.services, { readiness: runtime.readiness });
  const uncached = createApp(runtime.services, { readiness: runtime.readiness, staticResponses: false });
  const bare = new Hono();
  const catalog = publicCatalog();
  bare.get("/api/masters/v1/investor-options", (c) => c.json(catalog));

  const listen = (fetch: (r: Request) => Response | Promise<Response>) =>
    new Promise<number>((resolve) => {
      const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port));
      void server;
    });
  const ready: Ready = {
    full: await listen(full.fetch),
    uncached: await listen(uncached.fetch),
    bare: await listen(bare.fetch),
    token: tokenResponse.access_token,
  };
  process.send!(ready);
  process.on("message", async () => {
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

function load(url: string, token?: string) {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function measure(): Promise<void> {
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(new URL(import.meta.url).pathname, ["serve"], { execArgv: ["--import", "tsx", ...profile], stdio: "inherit" });
  const ready = await new Promise<Ready>((resolve) => child.once("message", (m) => resolve(m as Ready)));
  const path = "/api/masters/v1/investor-options";
  const fullUrl = `http://127.0.0.1:${ready.full}${path}`;
  const bareUrl = `http://127.0.0.1:${ready.bare}${path}`;
  const uncachedUrl = `http://127.0.0.1:${ready.uncached}${path}`;

  const check = await fetch(fullUrl, { headers: { authorization: `Bearer ${ready.token}` } });
  if (check.status !== 200) throw new Error(`full stack answered ${check.status}`);

  // Warm both paths (JIT, pools, token cache) before measuring.
  for (const url of [fullUrl, uncachedUrl, bareUrl]) {
    await autocannon({ url, connections: 10, duration: 2, headers: { authorization: `Bearer ${ready.token}` } });
  }
  const bare = await load(bareUrl);
  const full = await load(fullUrl, ready.token);
  const uncached = await load(uncachedUrl, ready.token);
  child.send("stop");

  const row = (name: string, r: autocannon.Result) =>
    `${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}`;
  console.log(`\nGET ${path}, ${CONNECTIONS} connections, ${SECONDS} s each`);
  console.log(row("bare Hono handler (same JSON)", bare));
  console.log(row("full stack", full));
  console.log(row("full stack, procedure every time", uncached));
  const ratio = full.requests.average / bare.requests.average;
  console.log(`ratio full/bare ${ratio.toFixed(2)} (target >= 0.5)`);
  console.log(`ratio procedure-every-time/bare ${(uncached.requests.average / bare.requests.average).toFixed(2)}\n`);
}

if (process.argv[2] === "serve") await serveBoth();
else await measure();
