import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { publicPath } from "../helpers/order-links.js";

const app = useTestApp({ MF_RATE_LIMIT_BURST: "3", MF_RATE_LIMIT_RPS: "0.01" });

describe("the public paths' request budget", () => {
  it("is spent per client address, without a token: RateLimit headers, then 429 with Retry-After; API clients keep their own", async () => {
    const { token } = await app.newDistributor();
    for (let i = 0; i < 3; i++) expect((await app.http("GET", publicPath(`lnk_unknown${i}`))).status).toBe(404);
    const refused = await app.http("POST", publicPath("lnk_unknown", "confirm"));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("RATE_LIMITED");
    expect(refused.headers.get("ratelimit-limit")).toBe("3");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await app.http("GET", publicPath("lnk_unknown"))).status).toBe(429);
    expect((await app.http("GET", "/api/order-links/v1", { token })).status).toBe(200);
  });
});
