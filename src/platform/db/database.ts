import path from "node:path";
import pg from "pg";
import type { Logger } from "../lib/logger.js";
import { startEmbeddedPostgres } from "./embedded.js";

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = "mf";

export interface OpenDatabaseOptions {
  /**
   * "share": a command next to a running `npm start` uses that process's embedded server (found through
   * the data directory, whatever port number it was given) and leaves it running. "refuse" (the service): a
   * server in use by another live process is an error, never adopted.
   */
  ifRunning?: "share" | "refuse";
  /** How this process is named to another one that finds the embedded server in use. */
  ownerLabel?: string;
}

/** The settings the database takes from the configuration (src/env.ts). */
export interface DatabaseSettings {
  databaseUrl: string | undefined;
  dataDir: string;
  /** The port number of the embedded server. */
  embeddedPgPort: number;
}

/**
 * The database the service runs on: DATABASE_URL when set, otherwise an embedded PostgreSQL with its
 * data under `<MF_DATA_DIR>/pg`, which this process starts and stops (see startEmbeddedPostgres).
 */

export async function openDatabase(config: DatabaseSettings, logger: Logger, options: OpenDatabaseOptions = {}): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} };

  const log = logger.child({ component: "embedded-postgres" });
  const server = await startEmbeddedPostgres({
    dataDir: path.join(config.dataDir, "pg"),
    port: config.embeddedPgPort,
    ifRunning: options.ifRunning ?? "refuse",
    ownerLabel: options.ownerLabel ?? "npm start",
    onLog: (line) => log.debug(line.trim()),
    onNotice: (message) => log.info(message),
  });
  try {
    await ensureDatabaseExists(server.adminUrl, EMBEDDED_DATABASE);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.urlFor(EMBEDDED_DATABASE), embedded: true, stop: () => server.stop() };
}

export async function ensureDatabaseExists(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (error) {
    // Another process may have created it a moment ago.
    if ((error as { code?: string }).code !== "42P04") throw error;
  } finally {
    await client.end();
  }
}
