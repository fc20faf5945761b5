import { createHash } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../src/platform/db/embedded.js";
import { applyMigrations, createMigration, pendingMigrations } from "../../src/platform/db/migrate.js";

const SCHEMA_HEADER = `generator client {
  provider = "prisma-client"
  output   = "../src/generated/prisma"
}

datasource db {
  provider = "postgresql"
}
`;

const SCHEMA_V1 = `${SCHEMA_HEADER}
model Account {
  id        Int      @id @default(autoincrement())
  email     String   @unique
  createdAt DateTime @default(now()) @map("created_at") @db.Timestamptz(3)
  orders    Order[]

  @@map("accounts")
}

model Order {
  id        String  @id
  accountId Int     @map("account_id")
  amount    Decimal @db.Decimal(18, 2)
  account   Account @relation(fields: [accountId], references: [id], onDelete: Cascade)

  @@index([accountId])
  @@map("orders")
}
`;

/** V1 plus one nullable column. */
const SCHEMA_V2 = SCHEMA_V1.replace(
  '  email     String   @unique\n',
  '  email     String   @unique\n  nickname  String?\n',
);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Prisma's checksum: SHA-256 of the script's UTF-8 bytes, as 64 lowercase hex digits. */
async function prismaChecksum(file: string): Promise<string> {
  return createHash("sha256").update(await readFile(file)).digest("hex");
}

describe("migrations on the wasm schema engine", { timeout: 60_000 }, () => {
  let workDir: string;
  let server: EmbeddedDatabase;
  let migrationsDir: string;
  let schemaPath: string;
  const created: string[] = [];

  async function createDatabase(name: string): Promise<string> {
    await query(server.adminUrl, `CREATE DATABASE ${name}`);
    return server.urlFor(name);
  }

  async function migrationFolders(): Promise<string[]> {
    const entries = await readdir(migrationsDir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  }

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), "mf-migrate-test-"));
    await chmod(workDir, 0o755); // the postgres system user must traverse it
    server = await startEmbeddedPostgres({ dataDir: path.join(workDir, "pg"), port: await freePort() });
    migrationsDir = path.join(workDir, "prisma", "migrations");
    schemaPath = path.join(workDir, "prisma", "schema.prisma");
    await mkdir(path.dirname(schemaPath));
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  }, 60_000);

  it("creates the first migration from the schema", async () => {
    await writeFile(schemaPath, SCHEMA_V1);

    const result = await createMigration("init", { databaseUrl: server.adminUrl, schemaPath, migrationsDir });

    expect(result.dir).not.toBeNull();
    const dir = result.dir!;
    created.push(path.basename(dir));
    expect(path.basename(dir)).toMatch(/^\d{14}_init$/);
    expect(result.sql).toContain('CREATE TABLE "accounts"');
    expect(result.sql).toContain('CREATE TABLE "orders"');
    expect(result.sql).toContain("ON DELETE CASCADE");
    expect(await readFile(path.join(dir, "migration.sql"), "utf8")).toBe(result.sql);
    const lockfile = await readFile(path.join(migrationsDir, "migration_lock.toml"), "utf8");
    expect(lockfile).toContain('provider = "postgresql"');
  });

  it("creates nothing when the schema has not changed", async () => {
    const result = await createMigration("nothing", { databaseUrl: server.adminUrl, schemaPath, migrationsDir });

    expect(result).toEqual({ dir: null, sql: "" });
    expect(await migrationFolders()).toEqual(created);
  });

  it("creates only the delta after the schema changes", async () => {
    await writeFile(schemaPath, SCHEMA_V2);

    const result = await createMigration("add_nickname", { databaseUrl: server.adminUrl, schemaPath, migrationsDir });

    const name = path.basename(result.dir!);
    created.push(name);
    expect(name).toMatch(/^\d{14}_add_nickname$/);
    expect(await migrationFolders()).toEqual(created); // sorts after the first, even within the same second
    expect(result.sql).toContain('ALTER TABLE "accounts" ADD COLUMN     "nickname" TEXT;');
    expect(result.sql).not.toContain("CREATE TABLE");
    expect(result.sql).not.toContain("orders");
  });

  it("leaves no shadow database behind", async () => {
    const rows = await query(
      server.adminUrl,
      "SELECT datname FROM pg_database WHERE datname LIKE 'prisma_migrate_shadow_db_%'",
    );
    expect(rows).toEqual([]);
  });

  it("applies the pending migrations and records them as prisma migrate deploy does", async () => {
    const url = await createDatabase("app");
    expect(await pendingMigrations(url, { migrationsDir })).toEqual(created);

    const logs: string[] = [];
    const result = await applyMigrations(url, { migrationsDir, log: (msg) => logs.push(msg) });

    expect(result.applied).toEqual(created);
    expect(logs).toEqual(created.map((name) => `Applied migration ${name}`));
    expect(await pendingMigrations(url, { migrationsDir })).toEqual([]);

    const rows = await query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      applied_steps_count: number;
      logs: string | null;
    }>(url, "SELECT * FROM _prisma_migrations ORDER BY started_at, migration_name");
    expect(rows.map((row) => row.migration_name)).toEqual(created);
    for (const row of rows) {
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
      expect(row.checksum).toBe(await prismaChecksum(path.join(migrationsDir, row.migration_name, "migration.sql")));
    }

    const columns = await query<{ column_name: string }>(
      url,
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'accounts' ORDER BY ordinal_position",
    );
    expect(columns.map((column) => column.column_name)).toEqual(["id", "email", "created_at", "nickname"]);
  });

  it("applies nothing the second time", async () => {
    const url = server.urlFor("app");

    expect(await applyMigrations(url, { migrationsDir })).toEqual({ applied: [] });
    const rows = await query(url, "SELECT migration_name FROM _prisma_migrations");
    expect(rows).toHaveLength(created.length);
  });

  it("reports every migration as pending while the bookkeeping table does not exist", async () => {
    const url = await createDatabase("empty");

    expect(await pendingMigrations(url, { migrationsDir })).toEqual(created);
    expect(await pendingMigrations(url, { migrationsDir: path.join(workDir, "no-such-dir") })).toEqual([]);
  });

  it("applies each migration once when two processes migrate a fresh database at the same time", async () => {
    const url = await createDatabase("race");

    const results = await Promise.all([
      applyMigrations(url, { migrationsDir }),
      applyMigrations(url, { migrationsDir }),
    ]);

    // The lock makes the second run wait, then find nothing left to apply.
    expect(results.map((result) => result.applied).sort()).toEqual([[], created]);
    const rows = await query<{ migration_name: string; count: string }>(
      url,
      `SELECT migration_name, count(*) AS count FROM _prisma_migrations
        WHERE finished_at IS NOT NULL GROUP BY 1 ORDER BY 1`,
    );
    expect(rows).toEqual(created.map((name) => ({ migration_name: name, count: "1" })));
  });
});
