import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/env.js";

const TOKEN = "m".repeat(16);

describe("the metrics configuration", () => {
  it("serves no metrics by default; the metrics port binds to 127.0.0.1 unless MF_METRICS_HOST says otherwise", () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, port: undefined, host: "127.0.0.1" });
    expect(loadConfig({ MF_METRICS_TOKEN: TOKEN }).metrics).toEqual({ token: TOKEN, port: undefined, host: "127.0.0.1" });
    expect(loadConfig({ MF_METRICS_PORT: "9464" }).metrics).toEqual({ token: undefined, port: 9464, host: "127.0.0.1" });
    expect(loadConfig({ MF_METRICS_PORT: "9464", MF_METRICS_HOST: "0.0.0.0" }).metrics).toEqual({ token: undefined, port: 9464, host: "0.0.0.0" });
    // Production refuses nothing of it: where the metrics are served is the operator's choice.
    const production = { MF_ENV: "production", DATABASE_URL: "postgres://u:p@db/mf", MF_DATA_KEY: "ab".repeat(32), ...BSE };
    expect(loadConfig({ ...production, MF_METRICS_TOKEN: TOKEN }).metrics.token).toBe(TOKEN);
  });

  it("refuses a short or spaced token, a port out of range, an empty host", () => {
    expect(problemsOf({ MF_METRICS_TOKEN: "m".repeat(15) })).toEqual(["MF_METRICS_TOKEN: 16-256 printable characters without spaces"]);
    expect(problemsOf({ MF_METRICS_TOKEN: "metrics token with spaces" })).toEqual(["MF_METRICS_TOKEN: 16-256 printable characters without spaces"]);
    expect(problemsOf({ MF_METRICS_TOKEN: "m".repeat(257) })).toEqual(["MF_METRICS_TOKEN: 16-256 printable characters without spaces"]);
    expect(problemsOf({ MF_METRICS_TOKEN: "m".repeat(256) })).toEqual([]);
    expect(problemsOf({ MF_METRICS_PORT: "0" })).toEqual(["MF_METRICS_PORT: Too small: expected number to be >=1"]);
    expect(problemsOf({ MF_METRICS_PORT: "65536" })).toEqual(["MF_METRICS_PORT: Too big: expected number to be <=65535"]);
    expect(problemsOf({ MF_METRICS_PORT: "9464.5" })).toEqual(["MF_METRICS_PORT: Invalid input: expected int, received number"]);
    expect(problemsOf({ MF_METRICS_PORT: "9464", MF_METRICS_HOST: "" })).toEqual(["MF_METRICS_HOST: Too small: expected string to have >=1 characters"]);
  });

  it("serves the metrics in one place: a token and a port together are refused, and the port must not be the API's", () => {
    expect(problemsOf({ MF_METRICS_TOKEN: TOKEN, MF_METRICS_PORT: "9464" })).toEqual([
      "MF_METRICS_TOKEN and MF_METRICS_PORT: set one (the metrics port serves /metrics without a token, and the API port then does not serve it)",
    ]);
    expect(problemsOf({ PORT: "9464", MF_METRICS_PORT: "9464" })).toEqual(["MF_METRICS_PORT: must differ from PORT (the API's port)"]);
    // A worker-only process serves no API: PORT is unused there.
    expect(problemsOf({ PORT: "9464", MF_METRICS_PORT: "9464", MF_ROLE: "worker" })).toEqual([]);
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
