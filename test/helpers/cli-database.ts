import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createPrisma, type Db } from "../../src/platform/db/client.js";
import { createTestDatabase } from "./db.js";

/** What a CLI test runs `src/cli.ts` with (runEntry): a data directory, a fresh database and its environment. */
export interface CliDatabase {
  dir: string;
  prisma: Db;
  env: Record<string, string>;
}

/** A temporary MF_DATA_DIR and a test database of its own for this file's CLI runs, set in beforeAll and removed after them. */
export function useCliDatabase(dirPrefix: string): CliDatabase {
  const cli = {} as CliDatabase;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    cli.dir = await mkdtemp(path.join(os.tmpdir(), dirPrefix));
    db = await createTestDatabase();
    cli.prisma = createPrisma(db.url, 1);
    cli.env = { DATABASE_URL: db.url, MF_DATA_DIR: cli.dir, MF_DATA_KEY: randomBytes(32).toString("hex") };
  });
  afterAll(async () => {
    await cli.prisma.$disconnect();
    await db.drop();
    await rm(cli.dir, { recursive: true, force: true });
  });
  return cli;
}
