/**
 * GET /api/masters/v1/investor-options through the whole stack (request id, access log, bearer auth, REST
 * dispatcher, tRPC procedure, output validation) against two raw baselines returning the same JSON,
 * measured in the same run at 50 connections: a bare Hono handler and a plain node:http handler.
 * The catalog is a static procedure (repeats are served from its first response after authentication);
 * the procedure path, the one issue 15 targets, has static responses off so the procedure runs every time.
 * No database work on this path (the token check is cached per process: bench/harness/capture-sql.ts
 * records no statement for it).
 *   npm run bench:masters     (BENCH_SECONDS=10 per side, BENCH_WARMUP_SECONDS=2; --smoke for a tiny run)
 * The servers run in this process; the load generator in its own (bench/harness/load-process.ts).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { publicCatalog } from "../src/integrations/exchange/code-tables.js";
import { cpuPerRequest, failOnUnexpected, runBaseline, warmAndRun, type LoadResult } from "./harness/load.js";
import { SECONDS, WARMUP_SECONDS } from "./harness/options.js";
import { listenApp, openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";

const CONNECTIONS = 50;
const PATH = "/api/masters/v1/investor-options";

const stack = await openStack({ name: "masters" });
try {
  const catalog = publicCatalog();
  const hono = new Hono();
  hono.get(PATH, (c) => c.json(catalog));
  const honoPort = await new Promise<number>((resolve) => serve({ fetch: hono.fetch, port: 0, hostname: "127.0.0.1" }, (info) => resolve(info.port)));
  const raw = createServer((req, res) => {
    const json = JSON.stringify(catalog);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) }).end(json);
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  const rawPort = (raw.address() as AddressInfo).port;
  const full = await listenApp(stack, stack.app.fetch);
  const uncached = await listenApp(stack, stack.uncachedApp.fetch);

  const headers = { authorization: `Bearer ${stack.token}` };
  const check = await fetch(`http://127.0.0.1:${uncached.port}${PATH}`, { headers });
  const expected = JSON.stringify(catalog);
  if (check.status !== 200 || JSON.stringify(await check.json()) !== expected) throw new Error(`the procedure path answered ${check.status}, not the catalog`);

  const load = (port: number): Promise<LoadResult> =>
    warmAndRun({ url: `http://127.0.0.1:${port}${PATH}`, method: "GET", headers, connections: CONNECTIONS, seconds: SECONDS, expectStatus: 200 }, WARMUP_SECONDS);
  // Under BENCH_ONLY=ours (a profile of the procedure path) only that side runs.
  const baseline = (port: number) => runBaseline({ url: `http://127.0.0.1:${port}${PATH}`, method: "GET", headers, connections: CONNECTIONS, seconds: SECONDS, expectStatus: 200 }, WARMUP_SECONDS);
  const rawResult = await baseline(rawPort);
  const honoResult = await baseline(honoPort);
  const uncachedResult = await load(uncached.port);
  const fullResult = await baseline(full.port);

  printTable(`GET ${PATH}, ${CONNECTIONS} connections, ${SECONDS} s per side (after ${WARMUP_SECONDS} s warm-up)`, [
    compare("procedure path (static responses off)", "req/s", uncachedResult, "bare Hono, same JSON", honoResult, { minRatio: 0.6 }),
    compare("procedure path (static responses off)", "req/s", uncachedResult, "node:http, same JSON", rawResult),
    compare("full stack (static response)", "req/s", fullResult, "bare Hono, same JSON", honoResult, { minRatio: 0.5 }),
  ]);
  // The same comparison in server CPU per request, which the other work on a shared machine disturbs less.
  const [oursCpu, honoCpu, fullCpu] = [cpuPerRequest(uncachedResult), cpuPerRequest(honoResult), cpuPerRequest(fullResult)];
  console.log(
    `server CPU per request: procedure path ${oursCpu.toFixed(1)} us, full stack ${fullCpu.toFixed(1)} us, bare Hono ${honoCpu.toFixed(1)} us` +
      ` (bare Hono / procedure path ${(honoCpu / oursCpu).toFixed(2)})\n`,
  );
  failOnUnexpected({ raw: rawResult, hono: honoResult, uncached: uncachedResult, full: fullResult });
  for (const server of [raw, full.server, uncached.server]) server.close();
} finally {
  await stack.close();
}
process.exit();
