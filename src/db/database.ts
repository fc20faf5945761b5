import path from "node:path";
import pg from "pg";
import type { Config } from "../env.js";
import type { Logger } from "../lib/logger.js";
import { startEmbeddedPostgres } from "./embedded.js";

export interface Database {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = "mf";

/**
 * The database the service runs on: DATABASE_URL when set, otherwise an embedded PostgreSQL with its
 * data under `<MF_DATA_DIR>/pg`. When the embedded server is already running (a CLI command next to
 * `npm start`), it is reused rather than started twice.
 */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.databaseUrl) return { url: config.databaseUrl, embedded: false, stop: async () => {} };

  const port = config.embeddedPgPort;
  const adminUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  let stop = async () => {};
  if (!(await canConnect(adminUrl))) {
    const log = logger.child({ component: "embedded-postgres" });
    const server = await startEmbeddedPostgres({
      dataDir: path.join(config.dataDir, "pg"),
      port,
      onLog: (line) => log.debug(line.trim()),
    });
    stop = () => server.stop();
  }
  await ensureDatabaseExists(adminUrl, EMBEDDED_DATABASE);
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/${EMBEDDED_DATABASE}`, embedded: true, stop };
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
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
