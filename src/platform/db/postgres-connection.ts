import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";

/** How the service reaches the embedded PostgreSQL server on this machine: its user, its connection strings, whether it answers. */

export const USER = "postgres";
export const PASSWORD = "postgres";

/** The connection string of `database` on the local server listening on port number `port`. */
export function urlFor(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** Whether a PostgreSQL server accepts a connection at `url` now (within 1 s). */
export async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
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
