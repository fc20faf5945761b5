import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../src/platform/db/embedded.js";
import { ensureDatabaseExists } from "../../src/platform/db/database.js";
import { applyMigrations } from "../../src/platform/db/migrate.js";
import { createLogger } from "../../src/platform/lib/logger.js";
import { migrateWorkerSchema } from "../../src/worker.js";
import { freePort } from "./process.js";

export const TEMPLATE_DATABASE = "mf_template";

declare module "vitest" {
  export interface ProvidedContext {
    pgServerUrl: string;
    templateDatabase: string;
  }
}


/**
 * One embedded PostgreSQL for the whole run, with a migrated template database (our schema and
 * graphile-worker's). Test files clone the template, so each file owns a fresh database.
 */
export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_SERVER_URL;
  let stop = async () => {};
  let serverUrl: string;
  if (external) {
    serverUrl = external.replace(/\/$/, "");
  } else {
    // Under /tmp-like storage the postgres system user must be able to traverse the parent.
    const dir = await mkdtemp(path.join(os.tmpdir(), "mf-test-pg-"));
    await chmod(dir, 0o755);
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: await freePort() });
    serverUrl = server.adminUrl.replace(/\/postgres$/, "");
    stop = async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const adminUrl = `${serverUrl}/postgres`;
  await ensureDatabaseExists(adminUrl, TEMPLATE_DATABASE);
  const templateUrl = `${serverUrl}/${TEMPLATE_DATABASE}`;
  await applyMigrations(templateUrl);
  await migrateWorkerSchema(templateUrl, createLogger("silent"));

  project.provide("pgServerUrl", serverUrl);
  project.provide("templateDatabase", TEMPLATE_DATABASE);
  return stop;
}
