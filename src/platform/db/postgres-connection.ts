import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";

/** How the service reaches the embedded PostgreSQL server on this machine: its user, its connection strings, whether it answers. */

export const USER = "postgres";
/** The password every embedded server had before each got its own (embedded-password.ts); only ever used to replace it. */
export const LEGACY_PASSWORD = "postgres";

/** The connection string of `database` on the local server listening on port number `port`. */
export function urlFor(port: number, database: string, password: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * Whether a PostgreSQL server answers at `url` now (within 1 s): a refused login counts as an answer, since
 * a server whose password is about to be replaced (embedded-password.ts) is up all the same.
 */
export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return true;
  } catch (error) {
    return typeof (error as { code?: unknown }).code === "string" && (error as { code: string }).code.startsWith("28");
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether the server at `url` accepts connections within `timeoutMs`; false as soon as `alive` says it is gone. */
export async function waitUntilAccepting(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) return false;
    if (await canConnect(url)) return true;
    if (Date.now() > deadline) return false;
    await delay(100);
  }
}
