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

  it("starts in production with a database URL and a data key", () => {
    const config = loadConfig({ MF_ENV: "production", DATABASE_URL: "postgres://u:p@db/mf", MF_DATA_KEY: "ab".repeat(32), MF_ROLE: "worker" });
    expect(config).toMatchObject({ env: "production", role: "worker" });
  });

  it("names the variable that is wrong", () => {
    expect(() => loadConfig({ MF_ROLE: "web" })).toThrow(/MF_ROLE/);
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
    expect(() => loadConfig({ WEBHOOK_RETRY_DELAYS: "1m,soon" })).toThrow(/WEBHOOK_RETRY_DELAYS/);
    expect(parseDurations("1s,1s,500ms,2h")).toEqual([1000, 1000, 500, 7_200_000]);
  });
});
