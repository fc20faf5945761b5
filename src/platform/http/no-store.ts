import type { MiddlewareHandler } from "hono";

/** RFC 6749 5.1: answers that carry (or refuse) tokens must not be stored by any cache, errors included. */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set("Cache-Control", "no-store");
  c.res.headers.set("Pragma", "no-cache");
};
