/**
 * Creates the next migration from prisma/schema.prisma:
 *   npx tsx scripts/migration-create.ts --name <snake_name>
 * The existing migrations are replayed into a temporary shadow database on the DATABASE_URL server, or,
 * without DATABASE_URL, on a throwaway embedded PostgreSQL under .data/pg-dev.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startEmbeddedPostgres } from "../src/platform/db/embedded.js";
import { createMigration } from "../src/platform/db/migrate.js";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
/** One above the service's embedded PostgreSQL (54329), so both can run side by side. */
const DEV_PG_PORT = 54330;
const DEV_PG_DIR = path.join(REPO_ROOT, ".data", "pg-dev");

type CreateResult = Awaited<ReturnType<typeof createMigration>>;

async function createWithShadowServer(name: string): Promise<CreateResult> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) return createMigration(name, { databaseUrl });
  const server = await startEmbeddedPostgres({ dataDir: DEV_PG_DIR, port: DEV_PG_PORT });
  try {
    return await createMigration(name, { databaseUrl: server.adminUrl });
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { name: { type: "string" } } });
  if (!values.name) {
    console.error("Usage: npx tsx scripts/migration-create.ts --name <snake_name>");
    process.exit(2);
  }
  const { dir } = await createWithShadowServer(values.name);
  console.log(dir ? `Created ${path.relative(process.cwd(), path.join(dir, "migration.sql"))}` : "No schema changes");
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
