/**
 * Fills a database with a few years of a distributor platform (issue 28), through COPY:
 *   npm run bench:seed-scale -- --orders N --investors N --events N --deliveries N [--positions N]
 *                               [--database-url URL] [--data-dir DIR] [--truncate]
 * Without --database-url it writes to an embedded PostgreSQL of its own under .data/scale (kept between runs:
 * bench:scale reads it). The data key (investor details, webhook secrets) is the one under --data-dir, or
 * MF_DATA_KEY. Defaults: 1M investors, 10M orders, 50M events, 20M deliveries (~40M attempts), 5M positions;
 * at that scale the run takes hours on 2 cores. Prints each table's rows/s, then the database's size.
 */
import pg from "pg";
import { loadConfig } from "../src/env.js";
import { openRuntime } from "../src/runtime.js";
import { freePort } from "../test/helpers/process.js";
import { UNLIMITED_BUDGET } from "./budget.js";
import type { Progress } from "./scale/copy.js";
import { SEEDED_TABLES, parseSeedOptions } from "./scale/scale-options.js";
import { seed } from "./scale/seed.js";

const options = parseSeedOptions(process.argv.slice(2));
const { scale } = options;
const env: Record<string, string | undefined> = { ...UNLIMITED_BUDGET, ...process.env, MF_DATA_DIR: options.dataDir, LOG_LEVEL: "warn", DATABASE_URL: options.databaseUrl };
if (!options.databaseUrl) env.MF_EMBEDDED_PG_PORT = process.env.MF_EMBEDDED_PG_PORT ?? String(await freePort());
const runtime = await openRuntime(loadConfig(env));
const client = new pg.Client({ connectionString: runtime.database.url });
await client.connect();
const started = performance.now();
let total = 0;
const progress: Progress = (table, rows, ms) => {
  total += rows;
  process.stdout.write(`${table.padEnd(20)} ${rows.toLocaleString("en").padStart(12)} rows in ${(ms / 1000).toFixed(1).padStart(7)} s  ${Math.round(rows / Math.max(ms / 1000, 0.001)).toLocaleString("en").padStart(9)} rows/s\n`);
};
try {
  const { rows: filled } = await client.query<{ n: string }>(`SELECT (SELECT count(*) FROM orders) + (SELECT count(*) FROM events) + (SELECT count(*) FROM investors) AS n`);
  if (Number(filled[0]!.n) > 0 && !options.truncate) throw new Error("the database already holds orders, events or investors: pass --truncate to empty the generated tables first");
  // CASCADE: what references the generated investors (mandates, changes) goes with them.
  if (options.truncate) await client.query(`TRUNCATE ${SEEDED_TABLES.join(", ")} CASCADE`);
  // The generated distributors of an earlier (or interrupted) run, with their credentials.
  await client.query(`DELETE FROM access_tokens WHERE distributor_id IN (SELECT id FROM distributors WHERE arn LIKE 'ARN-9%')`);
  await client.query(`DELETE FROM api_clients WHERE distributor_id IN (SELECT id FROM distributors WHERE arn LIKE 'ARN-9%')`);
  await client.query(`DELETE FROM distributors WHERE arn LIKE 'ARN-9%'`);
  const { copyMs, indexMs } = await seed(client, runtime.services, scale, progress, (plan) => {
    console.log(`generating ${JSON.stringify(scale)}: ${plan.standalone.toLocaleString("en")} standalone orders (${plan.pending} PENDING, ${plan.accepted} ACCEPTED at the end), ` +
      `${plan.registrations.toLocaleString("en")} SIP-type registrations with ${plan.children.toLocaleString("en")} installment orders`);
  });
  const { rows } = await client.query<{ size: string }>("SELECT pg_size_pretty(pg_database_size(current_database())) AS size");
  console.log(`\n${total.toLocaleString("en")} rows: COPY ${(copyMs / 1000).toFixed(1)} s (${Math.round(total / (copyMs / 1000)).toLocaleString("en")} rows/s), ` +
    `indexes and keys ${(indexMs / 1000).toFixed(1)} s, total ${((performance.now() - started) / 1000).toFixed(1)} s; database size ${rows[0]!.size}`);
} finally {
  await client.end();
  await runtime.close();
}
