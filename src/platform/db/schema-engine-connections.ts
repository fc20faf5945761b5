import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { CharRelabellingClient } from "./char-columns.js";

/** The connections of one schema engine session (schema-engine.ts): opened for the engine, all closed at its end. */

export type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;

export interface Connection {
  adapter: PgAdapter;
  /** Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Opens the adapters the engine asks for and closes whatever the engine leaves open. Two problems of
 * @prisma/adapter-pg's factory are avoided here:
 * - its `connectToShadowDb` builds the shadow pool from `{ ...config, database }`, but pg lets a
 *   `connectionString` override `database`, so the "shadow" pool silently targets the main database
 *   (the shadow migrations would run there), and the pool it uses to create/drop the shadow database
 *   is never closed;
 * - the engine never disposes the main adapter; its idle pool connections keep the process alive and
 *   hold the engine's session-level advisory lock (`pg_advisory_lock(72707369)`, never unlocked).
 */
export class SessionConnections {
  private readonly open = new Set<Connection>();

  constructor(private readonly databaseUrl: string) {}

  async connect(databaseUrl = this.databaseUrl): Promise<Connection> {
    const poolConfig: pg.PoolConfig = { connectionString: databaseUrl, Client: CharRelabellingClient };
    return this.track(await new PrismaPg(poolConfig).connect(), []);
  }

  async connectToShadowDb(): Promise<Connection> {
    const admin = await this.connect();
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    try {
      await admin.adapter.executeScript(`CREATE DATABASE "${database}"`);
      const shadow = await this.connect(withDatabase(this.databaseUrl, database));
      // The shadow pool is closed before the drop: PostgreSQL refuses to drop a database in use.
      return this.track(shadow.adapter, [
        shadow.dispose,
        () => admin.adapter.executeScript(`DROP DATABASE IF EXISTS "${database}"`),
        admin.dispose,
      ]);
    } catch (error) {
      await admin.dispose();
      throw error;
    }
  }

  /** Disposes in reverse order of creation, so shadow databases are dropped before their admin pool ends. */
  async closeAll(): Promise<void> {
    for (const connection of [...this.open].reverse()) await connection.dispose();
  }

  private track(adapter: PgAdapter, cleanup: (() => Promise<void>)[]): Connection {
    let disposed: Promise<void> | undefined;
    const steps = cleanup.length > 0 ? cleanup : [() => adapter.dispose()];
    const connection: Connection = {
      adapter,
      dispose: () => {
        this.open.delete(connection);
        disposed ??= runInOrder(steps);
        return disposed;
      },
    };
    this.open.add(connection);
    return connection;
  }
}

async function runInOrder(steps: (() => Promise<void>)[]): Promise<void> {
  for (const step of steps) await step();
}

function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}
