import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { startMetricsServer } from "../../src/platform/metrics/metrics-server.js";
import { useTestApp } from "../helpers/app.js";
import { createTestDatabase } from "../helpers/db.js";
import { valueOf } from "../helpers/metrics.js";
import { freePort, runEntry, waitForOutput } from "../helpers/process.js";

const app = useTestApp({ MF_METRICS_PORT: "9464" });
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The local addresses listening on TCP `port` (IPv4, from /proc/net/tcp): `127.0.0.1` or `0.0.0.0`. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1).flatMap((line) => {
    const [, local, , state] = line.trim().split(/\s+/);
    if (state !== "0A" || !local?.endsWith(`:${hexPort}`)) return [];
    const hex = local.slice(0, 8);
    return [[6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(".")];
  });
}

describe("MF_METRICS_PORT", () => {
  it("the API port does not serve /metrics then: the service's usual 404, whatever the bearer", async () => {
    for (const token of [undefined, "metrics-token-0123456789abcdef"]) {
      const res = await app.http("GET", "/metrics", token ? { token } : {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "No route for GET on this path" }, request_id: res.headers.get("x-request-id") });
    }
  });

  it("a server of its own on 127.0.0.1 serves GET /metrics without a token, and nothing else", async () => {
    const server = await startMetricsServer({ port: 0, host: app.config.metrics.host });
    cleanups.push(server.close);
    expect(server.address).toMatchObject({ address: "127.0.0.1", family: "IPv4" });
    expect(listeningAddresses(server.address.port)).toEqual(["127.0.0.1"]);
    const base = `http://127.0.0.1:${server.address.port}`;
    expect((await app.http("GET", "/healthz")).status).toBe(200);
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    // The process's one registry: the API's requests show on the metrics port.
    expect(valueOf(text, "mf_http_requests_total", { method: "GET", route: "/healthz", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(text).toContain("process_cpu_user_seconds_total");
    for (const [method, path] of [["GET", "/api/orders/v1"], ["GET", "/healthz"], ["POST", "/metrics"], ["GET", "/metrics/x"]] as const) {
      const other = await fetch(`${base}${path}`, { method });
      expect(other.status, `${method} ${path}`).toBe(404);
      expect(await other.text()).toBe("Not found: this port serves GET /metrics only\n");
    }
  });

  it("a worker-only process serves its own metrics there, bound to 127.0.0.1", async () => {
    const db = await createTestDatabase();
    cleanups.push(db.drop);
    const port = await freePort();
    const started = runEntry("src/main.ts", [], { DATABASE_URL: db.url, MF_ROLE: "worker", MF_METRICS_PORT: String(port) });
    try {
      await waitForOutput(started, /Metrics {7}http:\/\/127\.0\.0\.1:\d+\/metrics/, 90_000);
      expect(started.output()).toContain(`  Metrics       http://127.0.0.1:${port}/metrics\n`);
      expect(listeningAddresses(port)).toEqual(["127.0.0.1"]);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const name of ["mf_jobs_total", "mf_job_duration_seconds", "mf_exchange_calls_total", "mf_webhook_deliveries_total", "mf_holdings_import_rows_total", "mf_http_requests_total"]) {
        expect(text).toContain(`# TYPE ${name} `);
      }
      // The worker's gauges are sampled from its database: every task listed, none waiting in a fresh one.
      expect(valueOf(text, "mf_job_queue_depth", { task: "orders__dispatch" })).toBe(0);
      expect(valueOf(text, "mf_orders", { status: "PENDING" })).toBe(0);
    } finally {
      started.child.kill("SIGTERM");
      expect(await started.exited).toBe(0);
    }
  });
});
