import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { parseExposition, valueOf } from "../helpers/metrics.js";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const app = useTestApp({ MF_METRICS_TOKEN: METRICS_TOKEN });

const scrape = async () => {
  const res = await app.http("GET", "/metrics", { token: METRICS_TOKEN });
  expect(res.status, res.text).toBe(200);
  return res.text;
};

const headerNames = (headers: Headers) => {
  const names: string[] = [];
  headers.forEach((_, name) => names.push(name));
  return names.sort();
};

describe("GET /metrics on the API port (MF_METRICS_TOKEN)", () => {
  it("answers as a path without a route (404, the usual envelope) when the bearer is missing, wrong, or not a bearer", async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: "Bearer " },
      { authorization: `Basic ${Buffer.from(`metrics:${METRICS_TOKEN}`).toString("base64")}` },
      { authorization: METRICS_TOKEN },
    ];
    const unrouted = await app.http("GET", "/no-such-path");
    for (const headers of attempts) {
      const res = await app.http("GET", "/metrics", { headers });
      expect(res.status).toBe(404);
      expect(res.headers.get("www-authenticate")).toBeNull();
      expect(res.body).toEqual({
        success: false,
        error: { code: "NOT_FOUND", message: "No route for GET on this path" },
        request_id: res.headers.get("x-request-id"),
      });
      expect(headerNames(res.headers)).toEqual(headerNames(unrouted.headers));
      expect(res.text).not.toContain(METRICS_TOKEN);
    }
  });

  it("an API client's token is not the metrics token", async () => {
    const { token } = await app.newDistributor();
    expect((await app.http("GET", "/metrics", { token })).status).toBe(404);
  });

  it("answers Prometheus' text format 0.0.4 with the right bearer, Node's process metrics included", async () => {
    const res = await app.http("GET", "/metrics", { token: METRICS_TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const names = new Set(parseExposition(res.text).map((s) => s.name));
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes"]) {
      expect(names).toContain(name);
    }
    expect(res.text).toContain("# TYPE mf_http_request_duration_seconds histogram");
    expect(res.text).toContain("# TYPE mf_orders gauge");
  });
});

describe("mf_http_requests_total and mf_http_request_duration_seconds", () => {
  it("label a request with its route's template, never the raw path with its id", async () => {
    const { token } = await app.newDistributor();
    const labels = { method: "GET", route: "/api/orders/v1/{id}", status: "404" };
    const before = await scrape();
    const res = await app.http("GET", "/api/orders/v1/ord_x", { token });
    expect(res.status).toBe(404);
    const after = await scrape();
    expect(valueOf(after, "mf_http_requests_total", labels) - valueOf(before, "mf_http_requests_total", labels)).toBe(1);
    expect(valueOf(after, "mf_http_request_duration_seconds_count", labels) - valueOf(before, "mf_http_request_duration_seconds_count", labels)).toBe(1);
    expect(valueOf(after, "mf_http_request_duration_seconds_bucket", { ...labels, le: "+Inf" })).toBe(valueOf(after, "mf_http_request_duration_seconds_count", labels));
    expect(after).not.toContain("ord_x");
  });

  it("label an operation without parameters by its path, and a page by Hono's route written as a template", async () => {
    const { token } = await app.newDistributor();
    const list = { method: "GET", route: "/api/orders/v1", status: "200" };
    const page = { method: "GET", route: "/links/{id}", status: "404" };
    const health = { method: "GET", route: "/healthz", status: "200" };
    const before = await scrape();
    expect((await app.http("GET", "/api/orders/v1?limit=1", { token })).status).toBe(200);
    expect((await app.http("GET", "/links/lnk_nothere")).status).toBe(404);
    expect((await app.http("GET", "/healthz")).status).toBe(200);
    const after = await scrape();
    for (const labels of [list, page, health]) {
      expect(valueOf(after, "mf_http_requests_total", labels) - valueOf(before, "mf_http_requests_total", labels), JSON.stringify(labels)).toBe(1);
    }
    expect(after).not.toContain("lnk_nothere");
    expect(after).not.toContain("limit=1");
  });

  it("label every request no route answers `unmatched`, with the status it got", async () => {
    const { token } = await app.newDistributor();
    const before = await scrape();
    expect((await app.http("GET", "/nowhere/ord_y")).status).toBe(404);
    expect((await app.http("GET", "/api/nothing/v1/ord_z", { token })).status).toBe(404);
    expect((await app.http("POST", "/healthz")).status).toBe(404);
    expect((await app.http("GET", "/pages/ord_w")).status).toBe(404);
    const after = await scrape();
    const unmatched = (method: string) => ({ method, route: "unmatched", status: "404" });
    expect(valueOf(after, "mf_http_requests_total", unmatched("GET")) - valueOf(before, "mf_http_requests_total", unmatched("GET"))).toBe(3);
    expect(valueOf(after, "mf_http_requests_total", unmatched("POST")) - valueOf(before, "mf_http_requests_total", unmatched("POST"))).toBe(1);
    for (const raw of ["ord_y", "ord_z", "ord_w", "/nowhere", "/api/nothing"]) expect(after).not.toContain(raw);
  });

  it("label a validation failure and a refused caller with the operation's template and their status", async () => {
    const before = await scrape();
    expect((await app.http("GET", "/api/orders/v1/ord_x")).status).toBe(401);
    expect((await app.http("POST", "/api/orders/v1/", { json: {} })).status).toBe(401);
    const after = await scrape();
    const get = { method: "GET", route: "/api/orders/v1/{id}", status: "401" };
    const post = { method: "POST", route: "/api/orders/v1", status: "401" };
    expect(valueOf(after, "mf_http_requests_total", get) - valueOf(before, "mf_http_requests_total", get)).toBe(1);
    expect(valueOf(after, "mf_http_requests_total", post) - valueOf(before, "mf_http_requests_total", post)).toBe(1);
  });

  it("count the scrapes themselves under /metrics", async () => {
    const labels = { method: "GET", route: "/metrics", status: "200" };
    const first = await scrape();
    const second = await scrape();
    // A scrape is counted once its answer is made, so it shows in the next one.
    expect(valueOf(second, "mf_http_requests_total", labels) - valueOf(first, "mf_http_requests_total", labels)).toBe(1);
  });
});
