/**
 * Whether an error means "the database cannot be reached right now" (a restart, a failover, a network cut)
 * rather than a fault of the request or the code: such errors are answered 503 with Retry-After.
 *
 * What each layer throws when PostgreSQL goes away (measured with Prisma 7.10 and @prisma/adapter-pg):
 *  - a query in flight at a fast shutdown: Prisma P2010 whose `meta.driverAdapterError.cause` is
 *    `{kind: "postgres", code: "57P01"}` (admin_shutdown);
 *  - a query after it: P2010 or P1001 with `cause.kind` "DatabaseNotReachable" (ECONNREFUSED), "ConnectionClosed"
 *    (ECONNRESET) or "SocketTimeout";
 *  - an interactive transaction cut in the middle: pg's own Error, "Client has encountered a connection error
 *    and is not queryable" or "Connection terminated unexpectedly";
 *  - pg-pool's `connectionTimeoutMillis` running out: "timeout exceeded when trying to connect".
 */

/**
 * How long getting a connection may take (made, or waited for in a full pool) before it counts as the
 * database being out of reach; the same as a transaction's wait for one (maxWait in client.ts).
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The pg settings every pool of the service uses: the bound above, and TCP keep-alive probes after 10 s of
 * silence, so a connection to a host that vanished without closing it (a failover, a cut network) is found
 * dead in minutes (the OS's probe interval and count), not after the OS default of two hours.
 */
export const CONNECTION_BOUNDS = { connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;

/** SQLSTATE: class 08 (connection exception), 57P01-57P03 (shutdown, crash, cannot connect now), 53300 (too many connections). */
const SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
/** Prisma: can't reach (P1001), timed out connecting (P1002), operation timed out (P1008), connection closed (P1017). */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const PG_MESSAGES = [
  /^Connection terminated/,
  /connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection ended unexpectedly/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 12) {
    const current = queue.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const { code, kind, originalCode, message, cause, meta } = current as Record<string, unknown>;
    for (const value of [code, originalCode]) {
      if (typeof value === "string" && (SQLSTATE.test(value) || PRISMA_CODES.has(value) || SOCKET_CODES.has(value))) return true;
    }
    if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === "string" && PG_MESSAGES.some((pattern) => pattern.test(message))) return true;
    queue.push(cause, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
    if (current instanceof AggregateError) queue.push(...current.errors);
  }
  return false;
}
