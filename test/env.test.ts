import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, parseDurations } from "../src/env.js";

describe("configuration", () => {
  it("defaults to the sandbox, role all, port 3000 and the published retry schedule", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ env: "sandbox", role: "all", port: 3000, databaseUrl: undefined });
    expect(config.webhooks.retryDelaysMs).toEqual([60_000, 300_000, 1_500_000, 7_200_000, 43_200_000]);
  });

  it("refuses the development switches and embedded defaults in production", () => {
    const attempt = () =>
      loadConfig({ MF_ENV: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "1", WEBHOOK_RETRY_DELAYS: "1s", MF_SANDBOX_AUTO_REGISTER: "1" });
    expect(attempt).toThrow(ConfigError);
    const problems = (() => {
      try {
        attempt();
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    })();
    expect(problems.join("\n")).toMatch(/DATABASE_URL/);
    expect(problems.join("\n")).toMatch(/MF_DATA_KEY/);
    expect(problems.join("\n")).toMatch(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
    expect(problems.join("\n")).toMatch(/WEBHOOK_RETRY_DELAYS/);
    expect(problems.join("\n")).toMatch(/MF_SANDBOX_AUTO_REGISTER/);
  });

  it("starts in production with a database URL, a data key and the BSE exchange", () => {
    const config = loadConfig({ MF_ENV: "production", DATABASE_URL: "postgres://u:p@db/mf", MF_DATA_KEY: "ab".repeat(32), MF_ROLE: "worker", ...BSE });
    expect(config).toMatchObject({ env: "production", role: "worker", exchange: "bse" });
  });

  it("defaults the limits and timeouts to the design's, and reads their overrides", () => {
    expect(loadConfig({})).toMatchObject({
      rateLimit: { rps: 100, burst: 200 },
      tokenFailures: { limit: 10, windowMs: 300_000 },
      trustProxyHops: 0,
      http: { headersTimeoutMs: 10_000, bodyTimeoutMs: 30_000 },
    });
    const config = loadConfig({
      MF_RATE_LIMIT_RPS: "2.5",
      MF_RATE_LIMIT_BURST: "5",
      MF_TOKEN_FAILURE_LIMIT: "3",
      MF_TOKEN_FAILURE_WINDOW: "90s",
      MF_TRUST_PROXY: "2",
      MF_HEADERS_TIMEOUT_MS: "2000",
      MF_BODY_TIMEOUT_MS: "5000",
    });
    expect(config).toMatchObject({
      rateLimit: { rps: 2.5, burst: 5 },
      tokenFailures: { limit: 3, windowMs: 90_000 },
      trustProxyHops: 2,
      http: { headersTimeoutMs: 2000, bodyTimeoutMs: 5000 },
    });
  });

  it("refuses limits and timeouts that make no sense, naming the variable", () => {
    for (const [name, value] of [
      ["MF_RATE_LIMIT_RPS", "0"],
      ["MF_RATE_LIMIT_RPS", "fast"],
      ["MF_RATE_LIMIT_BURST", "1.5"],
      ["MF_TOKEN_FAILURE_LIMIT", "0"],
      ["MF_TOKEN_FAILURE_WINDOW", "soon"],
      ["MF_TOKEN_FAILURE_WINDOW", "500ms"],
      ["MF_TRUST_PROXY", "yes"],
      ["MF_HEADERS_TIMEOUT_MS", "10"],
      ["MF_BODY_TIMEOUT_MS", "-1"],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
    }
    expect(() => loadConfig({ MF_HEADERS_TIMEOUT_MS: "20000", MF_BODY_TIMEOUT_MS: "10000" })).toThrow(/MF_HEADERS_TIMEOUT_MS.*MF_BODY_TIMEOUT_MS/);
  });

  it("caps webhook subscriptions at 20 and attempts at 10 s by default, and reads their overrides", () => {
    expect(loadConfig({}).webhooks).toMatchObject({ maxSubscriptions: 20, attemptTimeoutMs: 10_000 });
    expect(loadConfig({ WEBHOOK_MAX_SUBSCRIPTIONS: "3", WEBHOOK_TIMEOUT_MS: "250" }).webhooks).toMatchObject({ maxSubscriptions: 3, attemptTimeoutMs: 250 });
    for (const [name, value] of [
      ["WEBHOOK_MAX_SUBSCRIPTIONS", "0"],
      ["WEBHOOK_MAX_SUBSCRIPTIONS", "many"],
      ["WEBHOOK_TIMEOUT_MS", "50"],
      ["WEBHOOK_TIMEOUT_MS", "600000"],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
    }
  });

  it("keeps delivered webhooks 30 days by default, reads 1..3650 days and refuses anything else", () => {
    expect(loadConfig({}).webhooks.retentionDays).toBe(30);
    expect(loadConfig({ WEBHOOK_RETENTION_DAYS: "1" }).webhooks.retentionDays).toBe(1);
    expect(loadConfig({ WEBHOOK_RETENTION_DAYS: "3650" }).webhooks.retentionDays).toBe(3650);
    for (const value of ["0", "3651", "7.5", "-3", "month"]) {
      expect(() => loadConfig({ WEBHOOK_RETENTION_DAYS: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ WEBHOOK_RETENTION_DAYS: value }), value).toThrow(/WEBHOOK_RETENTION_DAYS/);
    }
  });

  it("names the variable that is wrong", () => {
    expect(() => loadConfig({ MF_ROLE: "web" })).toThrow(/MF_ROLE/);
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: "1m,soon" })).toThrow(/WEBHOOK_RETRY_DELAYS/);
    expect(parseDurations("1s,1s,500ms,2h")).toEqual([1000, 1000, 500, 7_200_000]);
  });

  it("turns traces on with OTEL_EXPORTER_OTLP_ENDPOINT (spans to <endpoint>/v1/traces) and off without it or when empty", () => {
    expect(loadConfig({}).tracing).toEqual({ tracesUrl: undefined, serviceName: "mf-distribution-service" });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "" }).tracing.tracesUrl).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/", OTEL_SERVICE_NAME: "mf-api-blue" }).tracing).toEqual({
      tracesUrl: "http://collector:4318/v1/traces",
      serviceName: "mf-api-blue",
    });
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otlp.example.com/base", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example.com/in" }).tracing.tracesUrl).toBe(
      "https://traces.example.com/in",
    );
    expect(problemsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT: must be the collector's http(s) base URL, e.g. http://localhost:4318",
    ]);
    expect(problemsOf({ OTEL_SERVICE_NAME: "mf api" })).toEqual(["OTEL_SERVICE_NAME: 1-100 letters, digits, '.', '_' or '-'"]);
  });

  it("refuses the sandbox exchange in production, with the exact message", () => {
    expect(problemsOf({ MF_ENV: "production", DATABASE_URL: "postgres://u:p@db/mf", MF_DATA_KEY: "ab".repeat(32) })).toEqual([
      "MF_EXCHANGE=sandbox is refused in production: set MF_EXCHANGE=bse and the BSE_* variables",
    ]);
    expect(problemsOf({ MF_ENV: "production", DATABASE_URL: "postgres://u:p@db/mf", MF_DATA_KEY: "ab".repeat(32), ...BSE, MF_EXCHANGE: "sandbox" })).toEqual([
      "MF_EXCHANGE=sandbox is refused in production: set MF_EXCHANGE=bse and the BSE_* variables",
    ]);
  });

  it("MF_EXCHANGE=bse needs every BSE variable, a member id that fits TransNo, and https in production", () => {
    expect(problemsOf({ MF_EXCHANGE: "bse" })).toEqual([
      "BSE_BASE_URL is required with MF_EXCHANGE=bse",
      "BSE_USER_ID is required with MF_EXCHANGE=bse",
      "BSE_MEMBER_ID is required with MF_EXCHANGE=bse",
      "BSE_PASSWORD is required with MF_EXCHANGE=bse",
      "BSE_API_KEY is required with MF_EXCHANGE=bse",
    ]);
    expect(problemsOf({ ...BSE, BSE_MEMBER_ID: "1234567" })).toEqual([
      "BSE_MEMBER_ID is 7 characters, but the exchange's unique reference (TransNo, 19 characters: YYYYMMDD + member id + a 6-digit running number) leaves room for at most 5; confirm the layout with the exchange",
    ]);
    expect(problemsOf({ MF_ENV: "production", DATABASE_URL: "postgres://u:p@db/mf", MF_DATA_KEY: "ab".repeat(32), ...BSE, BSE_BASE_URL: "http://bse.example" })).toEqual([
      "BSE_BASE_URL must be https:// in production",
    ]);
    // Order entry's getPassword takes a password of at most 20 characters (the upload service's 30).
    expect(problemsOf({ ...BSE, BSE_PASSWORD: "p".repeat(20) })).toEqual([]);
    expect(problemsOf({ ...BSE, BSE_PASSWORD: "p".repeat(21) })).toEqual(["BSE_PASSWORD: at most 20 characters (order entry's getPassword takes no more)"]);
    expect(problemsOf({ ...BSE, BSE_PASSKEY: "abc@123", BSE_EUIN: "123456", BSE_USER_ID: "user" }).join("\n")).toMatch(
      /BSE_USER_ID: .*\nBSE_PASSKEY: 1-10 letters and digits \(no special characters\)\nBSE_EUIN: must be E followed by 6 digits/,
    );
  });

  it("reads the BSE settings (http allowed outside production, for the test double)", () => {
    expect(loadConfig({ ...BSE, BSE_BASE_URL: "http://127.0.0.1:9999/", BSE_PASSKEY: "Key123", BSE_EUIN: "E123456" })).toMatchObject({
      exchange: "bse",
      bse: { baseUrl: "http://127.0.0.1:9999", userId: "1023401", memberId: "10234", password: "secret", passKey: "Key123", apiKey: "key", euin: "E123456", timeoutMs: 30_000 },
    });
    expect(loadConfig({})).toMatchObject({ exchange: "sandbox", bse: undefined });
  });
});

const BSE = { MF_EXCHANGE: "bse", BSE_BASE_URL: "https://bsestarmfdemo.bseindia.com", BSE_USER_ID: "1023401", BSE_MEMBER_ID: "10234", BSE_PASSWORD: "secret", BSE_API_KEY: "key" };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}
