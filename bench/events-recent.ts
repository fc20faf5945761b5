/**
 * Recent-event reads over years of events: are monthly partitions needed? Loads BENCH_EVENTS events (default
 * 2,000,000) spread evenly over 24 months and 10 distributors (one with 60% of them) through COPY, rebuilds the
 * indexes, then times the statements the service runs on the events table (listEvents in
 * src/domains/events/events.repo.ts, the only reader of it: GET /api/events/v1, with and without `type` and a
 * cursor; the webhook fan-out reads no event, it gets each one in hand) through Prisma, and prints EXPLAIN
 * (ANALYZE, BUFFERS) of each: the index, the rows and the pages read. Nothing compares against a baseline.
 *   npm run bench:events-recent      (BENCH_EVENTS=N; BENCH_RUNS=200 timed calls each; --smoke for a tiny run)
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { listEvents } from "../src/domains/events/events.repo.js";
import { setting } from "./harness/options.js";
import { openStack } from "./harness/stack.js";

const EVENTS = setting("BENCH_EVENTS", 2_000_000, 20_000);
const RUNS = setting("BENCH_RUNS", 200, 5);
const MONTHS = 24;
const DISTRIBUTORS = 10;
const SPAN_MS = MONTHS * 30 * 86_400_000;
const NAMES = ["order.accepted", "order.allotted", "payment.captured", "order.rejected", "mandate.registered"];

const stack = await openStack({ name: "events", logLevel: "warn" });
const client = new pg.Client({ connectionString: stack.databaseUrl });
await client.connect();
try {
  const distributors = Array.from({ length: DISTRIBUTORS }, (_, d) => (d === 0 ? stack.distributorId : `dst_bench_${d}`));
  // 60% to the first distributor, the rest spread over the others.
  const owner = (n: number) => (n % 10 < 6 ? distributors[0]! : distributors[1 + (n % (DISTRIBUTORS - 1))]!);
  const now = Date.now();
  const started = performance.now();
  await client.query(`DROP INDEX events_distributor_id_created_at_id_idx, events_distributor_id_event_created_at_id_idx, events_resource_type_resource_id_idx`);
  function* lines(): Generator<string> {
    let chunk = "";
    for (let n = 0; n < EVENTS; n++) {
      // Oldest first, as they were written; ids sort as created_at does (as newId's).
      const at = new Date(now - SPAN_MS + Math.floor((n * SPAN_MS) / EVENTS)).toISOString();
      const event = NAMES[n % NAMES.length]!;
      const resource = event.startsWith("payment") ? "payment" : event.startsWith("mandate") ? "mandate" : "order";
      const id = `evt_bench_${String(n).padStart(10, "0")}`;
      chunk += `${id}\t${owner(n)}\t${resource}\t${resource.slice(0, 3)}_bench_${Math.floor(n / 3)}\t${event}\t{"${resource}_id": "${resource.slice(0, 3)}_bench_${Math.floor(n / 3)}", "status": "ACCEPTED", "amount": "5000.00"}\t${at}\n`;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = "";
      }
    }
    yield chunk;
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom(`COPY events (id, distributor_id, resource_type, resource_id, event, data, created_at) FROM STDIN`)));
  const loaded = performance.now();
  await client.query(`CREATE INDEX events_distributor_id_created_at_id_idx ON events (distributor_id, created_at, id)`);
  await client.query(`CREATE INDEX events_distributor_id_event_created_at_id_idx ON events (distributor_id, event, created_at, id)`);
  await client.query(`CREATE INDEX events_resource_type_resource_id_idx ON events (resource_type, resource_id)`);
  await client.query("VACUUM ANALYZE events");
  const { rows: size } = await client.query<{ table: string; indexes: string }>(
    `SELECT pg_size_pretty(pg_table_size('events')) AS table, pg_size_pretty(pg_indexes_size('events')) AS indexes`,
  );
  console.log(`${EVENTS.toLocaleString("en")} events over ${MONTHS} months: COPY ${((loaded - started) / 1000).toFixed(1)} s (${Math.round(EVENTS / ((loaded - started) / 1000)).toLocaleString("en")} rows/s), indexes ${((performance.now() - loaded) / 1000).toFixed(1)} s; table ${size[0]!.table}, indexes ${size[0]!.indexes}`);

  const big = distributors[0]!;
  const dayAgo = new Date(now - 86_400_000);
  const weekAgo = new Date(now - 7 * 86_400_000);
  // A cursor 3 pages into the last week, as a poller holds it.
  const week = await listEvents(stack.services.prisma, { distributorId: big, since: weekAgo, limit: 150 });
  const third = week[Math.min(149, week.length - 1)];
  const cases: Array<{ name: string; filter: Parameters<typeof listEvents>[1]; sql: string; params: unknown[] }> = [
    {
      name: "first page since a day ago (big distributor)",
      filter: { distributorId: big, since: dayAgo, limit: 50 },
      sql: `SELECT * FROM events WHERE distributor_id = $1 AND created_at >= $2 ORDER BY created_at, id LIMIT 51`,
      params: [big, dayAgo],
    },
    {
      name: "first page since a day ago, type order.allotted",
      filter: { distributorId: big, since: dayAgo, event: "order.allotted", limit: 50 },
      sql: `SELECT * FROM events WHERE distributor_id = $1 AND event = $3 AND created_at >= $2 ORDER BY created_at, id LIMIT 51`,
      params: [big, dayAgo, "order.allotted"],
    },
    {
      name: "cursor page within the last week",
      filter: { distributorId: big, since: weekAgo, after: { createdAt: third!.createdAt, id: third!.id }, limit: 50 },
      sql: `SELECT * FROM events WHERE distributor_id = $1 AND created_at >= $2 AND (created_at > $2 OR (created_at = $2 AND id > $3)) ORDER BY created_at, id LIMIT 51`,
      params: [big, third!.createdAt, third!.id],
    },
    {
      name: "small distributor, since a day ago",
      filter: { distributorId: distributors[5]!, since: dayAgo, limit: 50 },
      sql: `SELECT * FROM events WHERE distributor_id = $1 AND created_at >= $2 ORDER BY created_at, id LIMIT 51`,
      params: [distributors[5], dayAgo],
    },
    {
      name: "resource_id filter (one order's events)",
      filter: { distributorId: big, resource: { type: "order", id: "ord_bench_0" }, limit: 50 },
      sql: `SELECT * FROM events WHERE distributor_id = $1 AND resource_type = 'order' AND resource_id = $2 ORDER BY created_at, id LIMIT 51`,
      params: [big, "ord_bench_0"],
    },
  ];
  for (const c of cases) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await listEvents(stack.services.prisma, c.filter);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(2);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${c.sql}`, c.params);
    const plan = rows.map((r) => r["QUERY PLAN"]);
    console.log(`\n## ${c.name}: listEvents p50 ${pct(50)} ms, p99 ${pct(99)} ms over ${RUNS} calls`);
    console.log(plan.map((line) => `    ${line}`).join("\n"));
  }
} finally {
  await client.end();
  await stack.close();
}
