/**
 * The library copies of issue 24 (point 5) against the library's own public API, on the whole request path
 * (Hono, access line, REST dispatcher, auth, validation, service, PostgreSQL), in one run, interleaved:
 * - tRPC's middleware runner copied for the REST path (bench/library-copies/procedure-runner.ts) against
 *   callTRPCProcedure, what the REST path calls: GET of an order, a list of orders, a lump-sum placement, and
 *   the investor-options catalog with static responses off (no database work: the copy's best case);
 * - the access line written by hand through pino's symbols (bench/library-copies/access-line.ts) against pino's
 *   own `child.info`: GET of an order and the catalog (every request writes its access line).
 * After a warm-up of each server on each request, BENCH_ROUNDS rounds (default 5); in each, per comparison, four runs
 * of BENCH_SECONDS (default 4): copy, library, library, copy (reversed every other round), so that the load of this
 * shared machine, rising or falling meanwhile, weighs on both sides alike. A row per round, then per comparison the
 * median ratio (copy / library, requests/s) with its spread, and the server's CPU per request of each side (this
 * process's CPU: the servers run here, the load generator and PostgreSQL elsewhere). A copy earns its keep when the
 * whole request path gains more than 15% (ratio > 1.15).
 *   npm run bench:library-copies   (BENCH_SECONDS=4, BENCH_ROUNDS=5, BENCH_WARMUP_SECONDS=2; --smoke for a tiny run)
 */
import { readFileSync } from "node:fs";
import { createApp } from "../src/app.js";
import { accessLineWriter, createLogger } from "../src/platform/lib/logger.js";
import { appRouter } from "../src/router.js";
import { lineSink } from "../test/helpers/logs.js";
import { cpuPerRequest, failOnUnexpected, median, runLoad, type LoadResult, type LoadSpec } from "./harness/load.js";
import { setting, WARMUP_SECONDS } from "./harness/options.js";
import { lumpSumFixture } from "./harness/placement-fixture.js";
import { listenApp, openStack } from "./harness/stack.js";
import { compare, printTable, type Row } from "./harness/table.js";
import { withHandWrittenAccessLine } from "./library-copies/access-line.js";
import { routerWithCopiedRunner } from "./library-copies/procedure-runner.js";

const CONNECTIONS = 50;
const ROUNDS = setting("BENCH_ROUNDS", 5, 1);
/** Seconds per run: four runs per round and comparison, so shorter than the other benchmarks' 10. */
const SECONDS = setting("BENCH_SECONDS", 4, 1);
const KEEP_ABOVE = 1.15;

/** Two runs of one side as one: their answers over their time; p50 and p99 the mean of the two runs'. */
function merged(runs: LoadResult[]): LoadResult {
  const sum = (pick: (run: LoadResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const requests = sum((run) => run.requests);
  const seconds = sum((run) => run.seconds);
  const mean = (pick: (run: LoadResult) => number) => Math.round(sum(pick) / runs.length);
  const failed = runs.find((run) => run.firstFailure !== undefined);
  return {
    rate: requests / seconds, p50: mean((run) => run.p50), p99: mean((run) => run.p99), requests, seconds,
    unexpected: sum((run) => run.unexpected), errors: sum((run) => run.errors), cpuMicros: sum((run) => run.cpuMicros ?? Number.NaN),
    ...(failed ? { firstFailure: failed.firstFailure } : {}),
  };
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

const stack = await openStack({ name: "library-copies" });
try {
  const { services } = stack;
  const fixture = await lumpSumFixture(stack);
  const placement = JSON.stringify(fixture.body);

  // Static responses off everywhere: the catalog's procedure runs on every request, as the orders' always do.
  const options = { readiness: stack.runtime.readiness, staticResponses: false };
  const library = await listenApp(stack, createApp(services, options).fetch);
  const runnerCopy = await listenApp(stack, createApp(services, { ...options, router: routerWithCopiedRunner(appRouter) }).fetch);
  const lineCopy = await listenApp(stack, createApp({ ...services, logger: withHandWrittenAccessLine(services.logger) }, options).fetch);

  const headers = { authorization: `Bearer ${stack.token}` };
  const post = { ...headers, "content-type": "application/json" };
  const placed = await fetch(`http://127.0.0.1:${library.port}/api/orders/v1/`, { method: "POST", headers: post, body: placement });
  if (placed.status !== 201) throw new Error(`placement answered ${placed.status}: ${await placed.text()}`);
  const orderId = ((await placed.json()) as { id: string }).id;

  interface Request { name: string; method: "GET" | "POST"; path: string; expectStatus: number; body?: string }
  const getOrder: Request = { name: "GET /api/orders/v1/{id}", method: "GET", path: `/api/orders/v1/${orderId}`, expectStatus: 200 };
  const listOrders: Request = { name: "GET /api/orders/v1 (list of 20)", method: "GET", path: "/api/orders/v1?limit=20", expectStatus: 200 };
  const placeOrder: Request = { name: "POST /api/orders/v1/ (lump sum)", method: "POST", path: "/api/orders/v1/", expectStatus: 201, body: placement };
  const catalog: Request = { name: "GET /api/masters/v1/investor-options (no database)", method: "GET", path: "/api/masters/v1/investor-options", expectStatus: 200 };

  interface Comparison { copy: string; library: string; request: Request; copyPort: number }
  const comparisons: Comparison[] = [
    ...[getOrder, listOrders, placeOrder, catalog].map((request) => ({ copy: "runner copy", library: "callTRPCProcedure", request, copyPort: runnerCopy.port })),
    ...[getOrder, catalog].map((request) => ({ copy: "access line by hand", library: "pino child.info", request, copyPort: lineCopy.port })),
  ];

  // Both sides must answer alike before anything is timed: same status, same body (a placement's own fields aside).
  const answer = async (port: number, request: Request) => {
    const response = await fetch(`http://127.0.0.1:${port}${request.path}`, { method: request.method, headers: request.body ? post : headers, body: request.body });
    const json = (await response.json()) as Record<string, unknown>;
    return `${response.status} ${request.method === "POST" ? Object.keys(json).join(",") : JSON.stringify(json)}`;
  };
  for (const { request, copyPort } of comparisons) {
    const [ours, theirs] = [await answer(copyPort, request), await answer(library.port, request)];
    if (ours !== theirs || !ours.startsWith(String(request.expectStatus))) throw new Error(`${request.name}: the copy answered ${ours.slice(0, 300)}, the library ${theirs.slice(0, 300)}`);
  }
  // And the hand-written access line must be pino's line, time aside.
  const [handLines, pinoLines]: [string[], string[]] = [[], []];
  const handLogger = withHandWrittenAccessLine(createLogger("info", lineSink(handLines)));
  const [hand, viaPino] = [accessLineWriter(handLogger), accessLineWriter(createLogger("info", lineSink(pinoLines)))];
  const sample: Array<[string, string, string, number, number]> = [["req_1", "GET", "/api/orders/v1/ord_1", 200, 3], ["ABCDE1234F", "POST", '/x/"lnk_01k9abcdefgh\\', 404, 0]];
  for (const line of sample) {
    hand(...line);
    viaPino(...line);
  }
  const timeless = (lines: string[]) => lines.map((line) => line.replace(/"time":"[^"]*"/, ""));
  if (JSON.stringify(timeless(handLines)) !== JSON.stringify(timeless(pinoLines)) || handLines.length !== 2) {
    throw new Error(`the hand-written access line differs from pino's:\n${handLines.join("\n")}\n${pinoLines.join("\n")}`);
  }

  const spec = (port: number, request: Request): LoadSpec => ({
    url: `http://127.0.0.1:${port}${request.path}`, method: request.method, connections: CONNECTIONS, seconds: SECONDS, expectStatus: request.expectStatus,
    headers: request.body ? post : headers, ...(request.body ? { bodies: [request.body] } : {}),
  });
  // Warm-up once per server and request; then, per round and comparison, copy-library-library-copy (or the
  // reverse, every other round): a load that rises or falls through the four runs weighs on both sides alike.
  for (const { request, copyPort } of comparisons) {
    if (WARMUP_SECONDS === 0) break;
    for (const port of [copyPort, library.port]) await runLoad({ ...spec(port, request), seconds: WARMUP_SECONDS });
  }
  const results = comparisons.map(() => [] as Array<{ copy: LoadResult; library: LoadResult }>);
  const loads: string[] = [loadAverage()];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { request, copyPort }] of comparisons.entries()) {
      const order = round % 2 === 0 ? [copyPort, library.port, library.port, copyPort] : [library.port, copyPort, copyPort, library.port];
      const runs: LoadResult[] = [];
      for (const port of order) runs.push(await runLoad(spec(port, request)));
      const of = (port: number) => runs.filter((_, at) => order[at] === port);
      results[index]!.push({ copy: merged(of(copyPort)), library: merged(of(library.port)) });
    }
    loads.push(loadAverage());
  }

  const rows: Row[] = comparisons.flatMap(({ copy, library: name, request }, index) =>
    results[index]!.map((run, round) => compare(`${request.name}: ${copy}${ROUNDS > 1 ? `, round ${round + 1}` : ""}`, "req/s", run.copy, name, run.library, { minRatio: KEEP_ABOVE })),
  );
  printTable(
    `The library copies against the library's public API, ${CONNECTIONS} connections, ${ROUNDS} rounds of 2 x ${SECONDS} s per side (copy, library, library, copy; ` +
      `p50 and p99 the mean of the two runs; ${WARMUP_SECONDS} s warm-up per server and request)`,
    rows,
  );

  const spread = (values: number[], digits: number) => `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
  console.log("copy / library per comparison (median of the rounds, spread):");
  for (const [index, { copy, library: name, request }] of comparisons.entries()) {
    const runs = results[index]!;
    const ratios = runs.map((run) => run.copy.rate / run.library.rate);
    const [copyCpu, libraryCpu] = [runs.map((run) => cpuPerRequest(run.copy)), runs.map((run) => cpuPerRequest(run.library))];
    const cpuSaved = runs.map((run) => 1 - cpuPerRequest(run.copy) / cpuPerRequest(run.library));
    console.log(
      `- ${request.name}, ${copy} / ${name}: req/s ratio ${median(ratios).toFixed(2)} (${spread(ratios, 2)}); ` +
        `server CPU per request ${median(copyCpu).toFixed(0)} us (${spread(copyCpu, 0)}) vs ${median(libraryCpu).toFixed(0)} us (${spread(libraryCpu, 0)}), ` +
        `saved ${(100 * median(cpuSaved)).toFixed(1)}% (${spread(cpuSaved.map((s) => 100 * s), 1)}%); gains more than 15%: ${median(ratios) > KEEP_ABOVE ? "yes" : "no"}`,
    );
  }
  console.log(`load average (1, 5, 15 min) before and after each round: ${loads.join(" | ")}\n`);
  failOnUnexpected(Object.fromEntries(results.flatMap((runs, index) => runs.flatMap((run, round) => [[`${index}.${round} copy`, run.copy], [`${index}.${round} library`, run.library]]))));
  for (const server of [library.server, runnerCopy.server, lineCopy.server]) server.close();
} finally {
  await stack.close();
}
process.exit();
