import { buildServices } from "./build-services.js";
import { createPrisma, ping } from "./platform/db/client.js";
import { openDatabase, type Database, type OpenDatabaseOptions } from "./platform/db/database.js";
import { applyMigrations, pendingMigrations } from "./platform/db/migrate.js";
import type { Config } from "./env.js";
import { DataCipher } from "./platform/lib/crypto.js";
import { withinDeadline } from "./platform/lib/deadline.js";
import { loadDataKey } from "./platform/lib/data-key.js";
import { createLogger, type Logger } from "./platform/lib/logger.js";
import type { Services } from "./domains/shared/services.js";
import { migrateWorkerSchema } from "./worker.js";

/** How long each of the readiness probe's two checks may take. */
const READINESS_TIMEOUT_MS = 2_000;

export interface Runtime {
  services: Services;
  database: Database;
  /** Null when ready, otherwise the reason. */
  readiness(): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * Opens the database (embedded or DATABASE_URL), brings both schemas up to date (ours through the
 * Prisma migrations, graphile-worker's own) and builds the long-lived services.
 */
export async function openRuntime(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  databaseOptions: OpenDatabaseOptions = {},
): Promise<Runtime> {
  const database = await openDatabase(config, logger, databaseOptions);
  try {
    const { applied } = await applyMigrations(database.url, { log: (msg) => logger.info(msg) });
    if (applied.length > 0) logger.info({ applied }, "migrations applied");
    await migrateWorkerSchema(database.url, logger);
  } catch (error) {
    await database.stop();
    throw error;
  }
  const prisma = createPrisma(database.url, config.dbPoolSize, logger.child({ component: "database" }));
  const cipher = new DataCipher(await loadDataKey(config));
  // The URL in use (embedded or DATABASE_URL), for the modules that need their own connection (holdings COPY).
  const services = buildServices({ config: { ...config, databaseUrl: database.url }, prisma, poolSize: config.dbPoolSize, logger, cipher });
  return {
    services,
    database,
    // Bounded (a load balancer's probe gives up after a few seconds): no answer in time is "database unreachable".
    readiness: async () => {
      await ping(prisma, READINESS_TIMEOUT_MS);
      const pending = await withinDeadline(pendingMigrations(database.url), READINESS_TIMEOUT_MS, "the migration check did not finish in time");
      return pending.length === 0 ? null : `${pending.length} migration(s) pending`;
    },
    close: async () => {
      await prisma.$disconnect();
      await database.stop();
    },
  };
}
