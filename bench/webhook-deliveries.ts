/**
 * Webhook delivery benchmark: BENCH_EVENTS events (default 5,000: 20,000 deliveries per phase) over 4 subscriptions, written by
 * state-change-sized transactions in their own process (as the API role would), delivered by the worker
 * (in this process) to a local HTTPS receiver (a child process that verifies every signature).
 *   1. Baseline: graphile-worker's own rate for BENCH_EVENTS no-op jobs, same concurrency (harness/noop-jobs.ts).
 *   2. Sustained: events written while the worker delivers; deliveries/s from the first event written to
 *      the last valid POST received, p50/p99 from an event's commit to its receipt.
 *   3. Backlog: as many events written with the worker stopped, then drained: deliveries/s (target >= 2,000).
 *   npm run bench:webhooks     (--smoke for a tiny run)
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { noopJobRate } from "./harness/noop-jobs.js";
import { setting } from "./harness/options.js";
import { compare, printTable } from "./harness/table.js";

const EVENTS = setting("BENCH_EVENTS", 5_000, 50);
const SUBSCRIPTIONS = 4;
const EVENTS_PER_TRANSACTION = Number(process.env.BENCH_EVENTS_PER_TX ?? 10);
const WRITERS = 4;
const TLS_DIR = path.resolve(import.meta.dirname, "../test/fixtures/tls");

if (process.argv[2] === "receiver") await receive();
else if (process.argv[2] === "writer") await write();
else await measure();

/** The writer process: records the events, EVENTS_PER_TRANSACTION at a time, from WRITERS connections. */
async function write(): Promise<void> {
  const { createPrisma } = await import("../src/platform/db/client.js");
  const { recordEvent } = await import("../src/domains/events/events.repo.js");
  const { addEventSink } = await import("../src/domains/events/sinks.js");
  const { fanOut } = await import("../src/domains/webhooks/fan-out.js");
  // The API role's assembly (build-services.ts) registers the fan-out; this process builds no services.
  addEventSink(fanOut);
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
  const { verifyWebhookSignature } = await import("../src/domains/webhooks/signature.js");
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
  const { openStack } = await import("./harness/stack.js");
  const { startWorker } = await import("../src/worker.js");
  const { createDistributor } = await import("../src/domains/auth/distributors.service.js");
  const { createSubscription } = await import("../src/domains/webhooks/subscriptions.service.js");

  const stack = await openStack({ name: "webhooks", logLevel: "warn", env: { MF_ROLE: "api", WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" } });
  const receiver = fork(new URL(import.meta.url).pathname, ["receiver"], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  try {
    const { port } = await new Promise<{ port: number }>((resolve) => receiver.once("message", (m) => resolve(m as { port: number })));
    const { services } = stack;
    const runtime = stack.runtime;
    const config = services.config;
    const concurrency = config.workerConcurrency;

    // 1. graphile-worker alone: the same number of no-op jobs, added up front, then drained.
    const noop = await noopJobRate(runtime.database.url, EVENTS, concurrency);

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
        if (receipts.size >= expected) {
          // A loop, not Math.max(...values): spreading 100,000+ receipts overflows the call stack.
          let last = since;
          for (const at of receipts.values()) if (at > last) last = at;
          return (last - since) / 1000;
        }
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
    printTable(
      `webhook deliveries (worker concurrency ${concurrency}, ${os.cpus().length} CPUs): ${EVENTS.toLocaleString("en")} events x ${SUBSCRIPTIONS} subscriptions per phase, ` +
        `${EVENTS_PER_TRANSACTION} events per transaction; events written at ${(EVENTS / writeSeconds).toFixed(0)}/s; ${invalid} invalid signatures; no-op jobs drained in ${noop.seconds.toFixed(2)} s`,
      [
        compare(`deliveries from a ${expected.toLocaleString("en")}-delivery backlog, signatures verified`, "deliveries/s", { rate: expected / drainSeconds }, "graphile-worker no-op jobs, same concurrency", { rate: noop.rate }, { minRate: 2000 }),
        compare("deliveries while events are written (event -> receipt)", "deliveries/s", { rate: expected / seconds, p50: p(0.5), p99: p(0.99) }, "graphile-worker no-op jobs, same concurrency", { rate: noop.rate }),
      ],
    );
    if (invalid > 0) process.exitCode = 1;
  } finally {
    receiver.kill();
    await stack.close();
  }
}
