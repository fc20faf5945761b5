/**
 * Run by test/operations/tracing-process.test.ts as the service runs (`node --import tsx`): loads the service's
 * code (pg among it, through Prisma's adapter and graphile-worker) before tracing starts, as src/main.ts
 * does, starts tracing from the environment, makes a query inside a span when PROBE_DATABASE_URL is set,
 * and prints which @opentelemetry packages were loaded.
 */
import { registerHooks } from "node:module";

const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    const name = /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(url)?.[1];
    if (name) loaded.add(name);
    return nextLoad(url, context);
  },
});

await import("../../src/app.js");
await import("../../src/worker.js");
const { loadConfig } = await import("../../src/env.js");
const { startTracing } = await import("../../src/platform/tracing/setup.js");
const { inSpan } = await import("../../src/platform/tracing/tracer.js");
const { SpanKind } = await import("@opentelemetry/api");
const { default: pg } = await import("pg");

const tracing = await startTracing({ ...loadConfig().tracing, role: "api" });
const databaseUrl = process.env.PROBE_DATABASE_URL;
if (databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await inSpan("probe", { kind: SpanKind.INTERNAL }, () => client.query("SELECT 1 AS one"));
  await client.end();
}
await tracing.shutdown();
process.stdout.write(`${JSON.stringify({ enabled: tracing.enabled, packages: [...loaded].sort() })}\n`);
