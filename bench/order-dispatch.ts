/**
 * Dispatch benchmark: orders from PENDING to ACCEPTED through the real worker and the sandbox exchange.
 *   1. Idle latency: orders placed one at a time (POST /api/orders/v1/ over HTTP) with the worker
 *      running; placement -> ACCEPTED measured from the order's creation to its order.accepted event.
 *      Target: p50 under 50 ms.
 *   2. Burst: BENCH_BURST orders (default 10,000) placed while the worker is stopped, then the worker
 *      starts; orders/s until the last is ACCEPTED, with p50/p99 from the worker's start to each
 *      order's acceptance.
 * MF_WORKER_CONCURRENCY sets the worker's concurrency (default 5, as in production); DATABASE_URL
 * uses a server instead of an embedded one.   npm run bench:dispatch
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp } from "../src/app.js";
import { createDistributor } from "../src/auth/distributors.service.js";
import { loadConfig } from "../src/env.js";
import { CreateInvestorRequest } from "../src/investors/investors.schemas.js";
import { applyRegistration, createInvestor } from "../src/investors/investors.service.js";
import { createLogger } from "../src/lib/logger.js";
import { openRuntime } from "../src/runtime.js";
import { startWorker } from "../src/worker.js";
import { investorBody } from "../test/helpers/factories.js";
import { UNLIMITED_BUDGET } from "./budget.js";

const IDLE_ORDERS = Number(process.env.BENCH_IDLE ?? 200);
const BURST = Number(process.env.BENCH_BURST ?? 10_000);
const PLACEMENT_CONCURRENCY = 20;

const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-bench-dispatch-"));
await chmod(dataDir, 0o755);
const config = loadConfig({ ...UNLIMITED_BUDGET, ...process.env, MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: "54395", LOG_LEVEL: "warn", MF_ROLE: "api" });
const runtime = await openRuntime(config, createLogger("warn"));
const { services } = runtime;
const { prisma } = services;

try {
  await prisma.scheme.create({
    data: { schemeCode: "BENCH02", name: "Bench Scheme", amcCode: "BENCH", amcName: "Bench Mutual Fund", category: "Equity Scheme", schemeType: "Open Ended Schemes" },
  });
  const distributor = await createDistributor(prisma, { name: "Bench", arn: "ARN-990001" });
  const { access_token: token } = await services.auth.issueToken(distributor.client_id, distributor.client_secret);
  const caller = { distributorId: distributor.distributor_id, clientId: distributor.client_id };
  const { body: investor } = await createInvestor(services, caller, CreateInvestorRequest.parse(investorBody()), undefined);
  await applyRegistration(prisma, investor.id, { status: "REGISTERED", remark: "BENCH" });

  const app = createApp(services, { readiness: runtime.readiness });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/orders/v1/`;
  const place = async (): Promise<string> => {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ investment_account_id: investor.investment_account_id, order_type: "LUMPSUM_PURCHASE", scheme_code: "BENCH02", amount: 5000, purchase_type: "FRESH" }),
    });
    if (response.status !== 201) throw new Error(`placement answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { id: string }).id;
  };
  const acceptedCount = () => prisma.order.count({ where: { status: "ACCEPTED" } });

  // 1. Idle: one order at a time, the worker waiting.
  let worker = await startWorker(services, runtime.database.url);
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

  // 2. Burst: the queue filled while the worker is stopped, then drained.
  const before = await acceptedCount();
  let placed = 0;
  await Promise.all(
    Array.from({ length: PLACEMENT_CONCURRENCY }, async () => {
      while (placed < BURST) {
        placed++;
        await place();
      }
    }),
  );
  const started = new Date();
  worker = await startWorker(services, runtime.database.url);
  for (;;) {
    if ((await acceptedCount()) - before >= BURST) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const lastEvent = await prisma.event.findFirstOrThrow({ where: { event: "order.accepted" }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
  await worker.stop();
  const burstEvents = await prisma.event.findMany({ where: { event: "order.accepted", createdAt: { gte: started } }, select: { createdAt: true } });
  const burstLatencies = burstEvents.map((e) => e.createdAt.getTime() - started.getTime());
  const drainSeconds = (lastEvent.createdAt.getTime() - started.getTime()) / 1000;

  const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
  console.log(`worker concurrency ${config.workerConcurrency}, ${os.cpus().length} CPUs`);
  console.log(`idle: ${IDLE_ORDERS} orders one at a time; placement -> ACCEPTED p50 ${p(idleLatencies, 0.5)} ms, p99 ${p(idleLatencies, 0.99)} ms (target p50 < 50 ms)`);
  console.log(
    `burst: ${BURST} PENDING orders drained in ${drainSeconds.toFixed(2)} s = ${(BURST / drainSeconds).toFixed(0)} orders/s; ` +
      `worker start -> ACCEPTED p50 ${p(burstLatencies, 0.5)} ms, p99 ${p(burstLatencies, 0.99)} ms`,
  );
  await new Promise<void>((resolve) => server.close(() => resolve()));
} finally {
  await runtime.close();
  await rm(dataDir, { recursive: true, force: true });
}
