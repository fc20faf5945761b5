import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/db.js";
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver } from "../helpers/otlp-receiver.js";
import { ROOT, runEntry } from "../helpers/process.js";

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
