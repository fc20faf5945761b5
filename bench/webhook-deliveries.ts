/**
 * Webhook delivery benchmark: BENCH_EVENTS events (default 20,000) over 4 subscriptions, written by
 * state-change-sized transactions in their own process (as the API role would) while the worker runs
 * in this one, delivered to a local HTTPS receiver (a child process that verifies every signature). Prints deliveries/s from the first event written to the last
 * valid POST received, p50/p99 from an event's commit to its receipt, and, measured in the same run,
 * graphile-worker's own throughput for the same number of no-op jobs (ratio target >= 0.3; absolute
 * target >= 1,000 deliveries/s).   npm run bench:webhooks
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Logger, run } from "graphile-worker";
import pg from "pg";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const SUBSCRIPTIONS = 4;
const EVENTS_PER_TRANSACTION = Number(process.env.BENCH_EVENTS_PER_TX ?? 10);
const WRITERS = 4;
const TLS_DIR = path.resolve(import.meta.dirname, "../test/fixtures/tls");

if (process.argv[2] === "receiver") await receive();
else if (process.argv[2] === "writer") await write();
else await measure();

/** The writer process: records the events, EVENTS_PER_TRANSACTION at a time, from WRITERS connections. */
async function write(): Promise<void> {
  const { createPrisma } = await import("../src/db/client.js");
  const { recordEvent } = await import("../src/events/events.repo.js");
  const [databaseUrl, distributorId] = process.argv.slice(3) as [string, string];
  const prisma = createPrisma(databaseUrl, WRITERS);
  let written = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (written < EVENTS) {
        const first = written;
        const count = Math.min(EVENTS_PER_TRANSACTION, EVENTS - first);
        written += count;
        await prisma.$transaction(async (tx) => {
          for (let i = first; i < first + count; i++) {
            await recordEvent(tx, {
              distributorId, resourceType: "order", resourceId: `ord_bench_${i}`, event: "order.accepted",
              data: { order_id: `ord_bench_${i}`, status: "ACCEPTED", provider_remark: "ORDER CONFIRMED" },
            });
          }
        });
      }
    }),
  );
  await prisma.$disconnect();
}

/** The receiver process: verifies each POST's signature, answers 200, reports receipts in batches. */
async function receive(): Promise<void> {
  const { verifyWebhookSignature } = await import("../src/webhooks/signature.js");
  const secrets = new Map<string, string>();
  const receipts: Array<[string, number]> = [];
  let invalid = 0;
  process.on("message", (message: { secrets?: Record<string, string>; flush?: boolean }) => {
    if (message.secrets) for (const [pathname, secret] of Object.entries(message.secrets)) secrets.set(pathname, secret);
    if (message.flush) process.send!({ receipts: receipts.splice(0), invalid });
  });
  const server = createServer({ key: readFileSync(path.join(TLS_DIR, "localhost-key.pem")), cert: readFileSync(path.join(TLS_DIR, "localhost.pem")), keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const secret = secrets.get(req.url ?? "") ?? "";
      const verdict = verifyWebhookSignature(Buffer.concat(chunks), req.headers["x-mf-signature"] as string | undefined, secret);
      if (verdict.valid) receipts.push([String(req.headers["x-mf-delivery"]), Date.now()]);
      else invalid++;
      res.writeHead(200).end();
    });
  });
  server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
}

async function measure(): Promise<void> {
  const { loadConfig } = await import("../src/env.js");
  const { createLogger } = await import("../src/lib/logger.js");
  const { openRuntime } = await import("../src/runtime.js");
  const { startWorker } = await import("../src/worker.js");
  const { createDistributor } = await import("../src/auth/distributors.service.js");
  const { createSubscription } = await import("../src/webhooks/subscriptions.service.js");

  const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-bench-webhooks-"));
  await chmod(dataDir, 0o755);
  const config = loadConfig({ ...process.env, MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: "54396", LOG_LEVEL: "warn", MF_ROLE: "api", WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
  const runtime = await openRuntime(config, createLogger("warn"));
  const receiver = fork(new URL(import.meta.url).pathname, ["receiver"], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  try {
    const { port } = await new Promise<{ port: number }>((resolve) => receiver.once("message", (m) => resolve(m as { port: number })));
    const { services } = runtime;
    const concurrency = config.workerConcurrency;

    // 1. graphile-worker alone: the same number of no-op jobs, added up front, then drained.
    const pool = new pg.Pool({ connectionString: runtime.database.url, max: concurrency + 2 });
    await pool.query(
      `SELECT graphile_worker.add_jobs(array_agg(row(
         'bench__noop', '{}'::json, NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec))
         FROM generate_series(1, $1)`,
      [EVENTS],
    );
    const noopStarted = Date.now();
    let noopDone = 0;
    const noop = await run({ pgPool: pool, concurrency, noHandleSignals: true, pollInterval: 2_000, taskList: { bench__noop: async () => void noopDone++ }, logger: quietLogger() });
    while (noopDone < EVENTS) await new Promise((r) => setTimeout(r, 20));
    const noopSeconds = (Date.now() - noopStarted) / 1000;
    await noop.stop();
    await pool.end();

    // 2. Webhooks: 4 subscriptions, events written while the worker delivers.
    const distributor = await createDistributor(services.prisma, { name: "Bench", arn: "ARN-990002" });
    const caller = { distributorId: distributor.distributor_id, clientId: distributor.client_id };
    const secrets: Record<string, string> = {};
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const pathname = `/hooks/${i}`;
      const created = await createSubscription(services, caller, { url: `https://localhost:${port}${pathname}`, events: ["order.*"] }, undefined);
      secrets[pathname] = created.body.data.secret;
    }
    receiver.send({ secrets });
    const writeEvents = async () => {
      const writer = fork(new URL(import.meta.url).pathname, ["writer", runtime.database.url, caller.distributorId], { execArgv: ["--import", "tsx"], stdio: "inherit" });
      await new Promise((resolve) => writer.once("exit", resolve));
    };
    const receipts = new Map<string, number>();
    let invalid = 0;
    const awaitReceipts = async (expected: number, since: number) => {
      for (;;) {
        receiver.send({ flush: true });
        const batch = await new Promise<{ receipts: Array<[string, number]>; invalid: number }>((resolve) => receiver.once("message", (m) => resolve(m as never)));
        for (const [id, at] of batch.receipts) if (!receipts.has(id)) receipts.set(id, at);
        invalid = batch.invalid;
        if (receipts.size >= expected) return (Math.max(...receipts.values()) - since) / 1000;
        if (Date.now() - since > 900_000) throw new Error(`only ${receipts.size} of ${expected} deliveries arrived`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const expected = EVENTS * SUBSCRIPTIONS;

    // Sustained: events written while the worker delivers.
    let worker = await startWorker(services, runtime.database.url);
    const started = Date.now();
    await writeEvents();
    const writeSeconds = (Date.now() - started) / 1000;
    const seconds = await awaitReceipts(expected, started);
    await worker.stop();

    // Backlog: the same number of events written with the worker stopped, then drained.
    await writeEvents();
    const drainStarted = Date.now();
    worker = await startWorker(services, runtime.database.url);
    const drainSeconds = await awaitReceipts(2 * expected, drainStarted);
    await worker.stop();

    const created = await services.prisma.$queryRawUnsafe<Array<{ id: string; at: Date }>>(
      `SELECT d.id, e.created_at AS at FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.created_at < $1`,
      new Date(started + writeSeconds * 1000 + 1),
    );
    const latencies = created.map((row) => receipts.get(row.id)! - row.at.getTime()).sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    const deliveriesPerSecond = expected / seconds;
    const noopPerSecond = EVENTS / noopSeconds;
    console.log(`worker concurrency ${concurrency}, ${os.cpus().length} CPUs, ${EVENTS_PER_TRANSACTION} events per transaction`);
    console.log(`graphile-worker no-op jobs: ${EVENTS} in ${noopSeconds.toFixed(2)} s = ${noopPerSecond.toFixed(0)} jobs/s`);
    console.log(`events written: ${EVENTS} in ${writeSeconds.toFixed(2)} s = ${(EVENTS / writeSeconds).toFixed(0)} events/s`);
    console.log(
      `webhooks: ${expected} valid signed deliveries (${invalid} invalid) in ${seconds.toFixed(2)} s = ${deliveriesPerSecond.toFixed(0)} deliveries/s ` +
        `(target 1,000); event -> receipt p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; ratio to no-op jobs ${(deliveriesPerSecond / noopPerSecond).toFixed(2)} (target 0.3)`,
    );
    console.log(`backlog: ${expected} deliveries drained in ${drainSeconds.toFixed(2)} s = ${(expected / drainSeconds).toFixed(0)} deliveries/s (ratio ${(expected / drainSeconds / noopPerSecond).toFixed(2)})`);
  } finally {
    receiver.kill();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** graphile-worker's default logger prints every job; the benchmark prints its own figures. */
function quietLogger() {
  return new Logger(() => () => {});
}
