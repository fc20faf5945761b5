import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/db.js";
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver } from "../helpers/otlp-receiver.js";
import { ensureBuilt } from "../helpers/build.js";
import { freePort, problemLines, ROOT, runBuilt, runEntry, waitForOutput } from "../helpers/process.js";

const PROBE = path.join(ROOT, "test", "operations", "tracing-probe.ts");

let collector: OtlpReceiver;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  collector = await startOtlpReceiver();
  database = await createTestDatabase();
});
afterAll(async () => {
  await collector?.close();
  await database?.drop();
});

async function probe(env: Record<string, string>): Promise<{ enabled: boolean; packages: string[] }> {
  const run = runEntry(PROBE, [], { PROBE_DATABASE_URL: database.url, ...env });
  const code = await run.exited;
  expect(code, run.output()).toBe(0);
  return JSON.parse(run.output().trim().split("\n").at(-1)!);
}

describe("tracing in the service's own process (node --import tsx)", () => {
  it("without OTEL_EXPORTER_OTLP_ENDPOINT loads no SDK: only @opentelemetry/api, and sends nothing", async () => {
    const before = collector.spans.length;
    expect(await probe({})).toEqual({ enabled: false, packages: ["@opentelemetry/api"] });
    expect(collector.spans.length).toBe(before);
  });

  it("with it, loads the SDK and patches the pg loaded before it: a query in a span is a pg span", async () => {
    const result = await probe({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint, OTEL_SERVICE_NAME: "mf-probe" });
    expect(result.enabled).toBe(true);
    expect(result.packages).toEqual(
      expect.arrayContaining(["@opentelemetry/sdk-trace", "@opentelemetry/exporter-trace-otlp-http", "@opentelemetry/instrumentation-pg", "@opentelemetry/context-async-hooks"]),
    );
    const mine = collector.spans.filter((s) => s.resource["service.name"] === "mf-probe");
    const parent = mine.find((s) => s.name === "probe")!;
    expect(parent).toMatchObject({ kind: SPAN_KIND.INTERNAL, parentSpanId: "" });
    expect(mine.find((s) => s.attributes["db.system.name"] === "postgresql")).toMatchObject({
      kind: SPAN_KIND.CLIENT,
      traceId: parent.traceId,
      parentSpanId: parent.spanId,
      attributes: { "db.query.text": "SELECT 1 AS one" },
    });
    expect(collector.refused).toEqual([]);
  });
});

describe("tracing in the production build (node dist/main.js)", () => {
  it("traces a request down to its queries, and sends the batch when SIGTERM stops the service", async () => {
    const dist = await ensureBuilt();
    const port = await freePort();
    const db = await createTestDatabase();
    try {
      const started = runBuilt(path.join(dist, "main.js"), [], {
        DATABASE_URL: db.url,
        PORT: String(port),
        MF_ROLE: "api",
        OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.endpoint}/`,
        OTEL_SERVICE_NAME: "mf-dist",
      });
      await waitForOutput(started, /Base URL/, 60_000);
      // A token request with a client that does not exist: the procedure looks it up in the database.
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/v1/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credentials", client_id: "client_nobody_here", client_secret: "s".repeat(32) }),
      });
      expect(res.status).toBe(401);
      const requestId = res.headers.get("x-request-id");
      started.child.kill("SIGTERM");
      expect(await started.exited, started.output()).toBe(0);
      expect(problemLines(started.output())).toEqual([]);

      const mine = collector.spans.filter((s) => s.resource["service.name"] === "mf-dist");
      const server = mine.find((s) => s.attributes["mf.request_id"] === requestId);
      expect(server).toMatchObject({ name: "POST /api/auth/v1/token", kind: SPAN_KIND.SERVER, resource: { "mf.role": "api" } });
      const procedure = mine.find((s) => s.parentSpanId === server!.spanId);
      expect(procedure).toMatchObject({ name: "auth.token", kind: SPAN_KIND.INTERNAL });
      const below = (id: string): string[] => mine.filter((s) => s.parentSpanId === id).flatMap((s) => [s.spanId, ...below(s.spanId)]);
      const queries = mine.filter((s) => below(procedure!.spanId).includes(s.spanId) && s.attributes["db.system.name"] === "postgresql");
      expect(queries.length).toBeGreaterThan(0);
      expect(collector.refused).toEqual([]);
    } finally {
      await db.drop();
    }
  }, 400_000);

  it("warns when the collector does not answer, and still stops within the service's budget", async () => {
    const dist = await ensureBuilt();
    const port = await freePort();
    const db = await createTestDatabase();
    // A collector that takes the connection and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const started = runBuilt(path.join(dist, "main.js"), [], {
        DATABASE_URL: db.url,
        PORT: String(port),
        MF_ROLE: "api",
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      });
      await waitForOutput(started, /Base URL/, 60_000);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      // The batch goes out within 5 s and times out 3 s later: the operator is told, once.
      await waitForOutput(started, /spans could not be sent/, 30_000);
      const stopAt = Date.now();
      started.child.kill("SIGTERM");
      expect(await started.exited, started.output()).toBe(0);
      expect(Date.now() - stopAt).toBeLessThan(10_000);
      const warnings = problemLines(started.output()).map((line) => JSON.parse(line) as { component?: string; msg: string });
      expect(warnings).toEqual([expect.objectContaining({ component: "tracing", msg: "spans could not be sent to the OTLP endpoint (1 failure since the last report)" })]);
    } finally {
      silent.close();
      await db.drop();
    }
  }, 400_000);
});
