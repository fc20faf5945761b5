/**
 * Dispatch benchmark: orders from PENDING to ACCEPTED through the real worker and the sandbox exchange.
 *   1. Baseline: graphile-worker's own rate for BENCH_BURST no-op jobs, same concurrency (harness/noop-jobs.ts).
 *   2. Idle latency: BENCH_IDLE orders placed one at a time (POST /api/orders/v1/ over HTTP) with the worker
 *      running; placement -> ACCEPTED from the order's creation to its order.accepted event. Target p50 < 30 ms.
 *   3. Backlog: BENCH_BURST orders (default 10,000) placed over HTTP by the load generator (its own process,
 *      20 connections) while the worker is stopped, then the worker starts: orders/s until the last is
 *      ACCEPTED, p50/p99 from the worker's start to each acceptance. Targets >= 1,500 orders/s and >= 0.5 of
 *      the no-op rate.
 * MF_WORKER_CONCURRENCY sets the worker's concurrency (default 20, as in production); DATABASE_URL uses a
 * server instead of an embedded one; --smoke for a tiny run.   npm run bench:dispatch
 */
import os from "node:os";
import { CreateInvestorRequest } from "../src/domains/investors/investors.schemas.js";
import { createInvestor } from "../src/domains/investors/investors.service.js";
import { applyRegistration } from "../src/domains/investors/lifecycle.js";
import { startWorker } from "../src/worker.js";
import { investorBody } from "../test/helpers/factories.js";
import { runLoad } from "./harness/load.js";
import { noopJobRate } from "./harness/noop-jobs.js";
import { setting } from "./harness/options.js";
import { listenApp, openStack } from "./harness/stack.js";
import { compare, printTable } from "./harness/table.js";

const IDLE_ORDERS = setting("BENCH_IDLE", 200, 5);
const BURST = setting("BENCH_BURST", 10_000, 50);
const PLACEMENT_CONNECTIONS = 20;

const stack = await openStack({ name: "dispatch", logLevel: "warn", env: { MF_ROLE: "api" } });
try {
  const { services, databaseUrl } = stack;
  const { prisma } = services;
  const concurrency = services.config.workerConcurrency;
  const noop = await noopJobRate(databaseUrl, BURST, concurrency);

  await prisma.scheme.create({
    data: { schemeCode: "BENCH02", isinGrowth: "INT00BENCH02", name: "Bench Scheme", amcCode: "BENCH", amcName: "Bench Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes" },
  });
  // Its exchange code (the exchange's scheme master would give it): placement names and checks it.
  await prisma.exchangeScheme.create({
    data: {
      code: "BSEBENCH02", isin: "INT00BENCH02", name: "Bench Scheme", transactionMode: "BOTH", purchaseAllowed: true, redemptionAllowed: true,
      sipAllowed: true, stpAllowed: true, swpAllowed: true, switchAllowed: true,
    },
  });
  const caller = { distributorId: stack.distributorId, clientId: stack.clientId };
  const { body: investor } = await createInvestor(services, caller, CreateInvestorRequest.parse(investorBody()), undefined);
  await applyRegistration(prisma, investor.id, { status: "REGISTERED", remark: "BENCH" });

  const { port, server } = await listenApp(stack, stack.app.fetch);
  const url = `http://127.0.0.1:${port}/api/orders/v1/`;
  const headers = { authorization: `Bearer ${stack.token}`, "content-type": "application/json" };
  const body = JSON.stringify({ investment_account_id: investor.investment_account_id, order_type: "LUMPSUM_PURCHASE", scheme_code: "BENCH02", amount: 5000, purchase_type: "FRESH" });
  const place = async (): Promise<string> => {
    const response = await fetch(url, { method: "POST", headers, body });
    if (response.status !== 201) throw new Error(`placement answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  };
  const acceptedCount = () => prisma.order.count({ where: { status: "ACCEPTED" } });

  // Idle: one order at a time, the worker waiting.
  let worker = await startWorker(services, databaseUrl);
  const idleLatencies: number[] = [];
  for (let i = 0; i < IDLE_ORDERS; i++) {
    const id = await place();
    for (;;) {
      const event = await prisma.event.findFirst({ where: { resourceId: id, event: "order.accepted" }, select: { createdAt: true } });
      if (event) {
        const order = await prisma.order.findUniqueOrThrow({ where: { id }, select: { createdAt: true } });
        idleLatencies.push(event.createdAt.getTime() - order.createdAt.getTime());
        break;
      }
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  await worker.stop();

  // Backlog: the queue filled while the worker is stopped, then drained.
  const before = await acceptedCount();
  const placement = await runLoad({ url, method: "POST", headers, bodies: [body], connections: PLACEMENT_CONNECTIONS, seconds: 0, amount: BURST, expectStatus: 201 });
  if (placement.unexpected > 0) throw new Error(`${placement.unexpected} placements failed; first: ${placement.firstFailure}`);
  const started = new Date();
  const cpuBefore = process.cpuUsage();
  worker = await startWorker(services, databaseUrl);
  while ((await acceptedCount()) - before < BURST) await new Promise((r) => setTimeout(r, 20));
  // This process's CPU per order while draining (the worker; the count above polls every 20 ms): steadier
  // than the rate on a machine shared with other work.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMsPerOrder = (cpu.user + cpu.system) / 1000 / BURST;
  await worker.stop();
  const burstEvents = await prisma.event.findMany({ where: { event: "order.accepted", createdAt: { gte: started } }, select: { createdAt: true } });
  const burstLatencies = burstEvents.map((e) => e.createdAt.getTime() - started.getTime()).sort((a, b) => a - b);
  const drainSeconds = burstLatencies.at(-1)! / 1000;
  server.close();

  const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
  printTable(
    `dispatch through the worker (concurrency ${concurrency}, ${os.cpus().length} CPUs): backlog of ${BURST.toLocaleString("en")} orders ` +
      `(placed at ${placement.rate.toFixed(0)}/s) drained in ${drainSeconds.toFixed(2)} s (worker process CPU ${cpuMsPerOrder.toFixed(2)} ms per order); no-op jobs drained in ${noop.seconds.toFixed(2)} s; idle: ${IDLE_ORDERS} orders one at a time`,
    [
      compare(`dispatch of a ${BURST.toLocaleString("en")}-order backlog`, "orders/s", { rate: BURST / drainSeconds, p50: p(burstLatencies, 0.5), p99: p(burstLatencies, 0.99) }, "graphile-worker no-op jobs, same concurrency", { rate: noop.rate }, { minRate: 1500, minRatio: 0.5 }),
      compare("placement -> ACCEPTED, idle", "ms", { p50: p(idleLatencies, 0.5), p99: p(idleLatencies, 0.99) }, "-", {}, { maxP50: 30 }),
    ],
  );
} finally {
  await stack.close();
}
