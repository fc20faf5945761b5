import type { Hono } from "hono";
import { constantTimeEqual, sha256Hex } from "../lib/crypto.js";
import { envelope } from "../trpc/errors.js";
import { exposition } from "./registry.js";

export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics` on the API's own port, for the holder of the metrics bearer token (MF_METRICS_TOKEN) only: a
 * missing or wrong one is a 401 with the error envelope. The tokens are compared as SHA-256 digests, in constant
 * time and without telling their lengths apart.
 */
export function mountMetricsEndpoint<E extends { Variables: { requestId: string } }>(app: Hono<E>, token: string): void {
  const expected = sha256Hex(token);
  app.get(METRICS_PATH, async (c) => {
    const header = c.req.header("authorization") ?? "";
    const given = /^Bearer +(\S+)\s*$/i.exec(header)?.[1];
    if (given === undefined || !constantTimeEqual(sha256Hex(given), expected)) {
      const body = envelope(c.get("requestId"), "UNAUTHORIZED", "GET /metrics needs the metrics bearer token (MF_METRICS_TOKEN)");
      return c.json(body, 401, { "WWW-Authenticate": 'Bearer realm="metrics"', "Cache-Control": "no-store" });
    }
    const { body, contentType } = await exposition();
    return c.body(body, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  });
}
