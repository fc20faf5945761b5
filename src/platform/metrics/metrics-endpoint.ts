import type { Hono } from "hono";
import { constantTimeEqual, sha256Hex } from "../lib/crypto.js";
import { exposition } from "./registry.js";

export const METRICS_PATH = "/metrics";

/**
 * `GET /metrics` on the API's own port, for the holder of the metrics bearer token (MF_METRICS_TOKEN) only: to
 * anyone else it answers exactly as a path without a route (`notFound`), so the endpoint is not even seen to
 * exist. The tokens are compared as SHA-256 digests, in constant time and without telling their lengths apart.
 */
export function mountMetricsEndpoint<E extends { Variables: { requestId: string } }>(app: Hono<E>, token: string, notFound: Parameters<Hono<E>["notFound"]>[0]): void {
  const expected = sha256Hex(token);
  app.get(METRICS_PATH, async (c) => {
    const header = c.req.header("authorization") ?? "";
    const given = /^Bearer +(\S+)\s*$/i.exec(header)?.[1];
    if (given === undefined || !constantTimeEqual(sha256Hex(given), expected)) return notFound(c);
    const { body, contentType } = await exposition();
    return c.body(body, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  });
}
