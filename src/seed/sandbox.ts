import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../env.js";
import { withAdvisoryLock, type Db } from "../platform/db/client.js";
import { createDistributor, setClientCredentials } from "../domains/auth/distributors.service.js";
import { findDistributorByArn } from "../domains/auth/auth.repo.js";
import { SANDBOX_DISTRIBUTOR } from "../domains/auth/sandbox-distributor.js";
import type { AmfiSchemeRecord } from "../integrations/amfi/navall.js";
import { upsertAmfiRecords } from "../domains/masters/schemes.import.js";
import { importExchangeMasters } from "../domains/masters/exchange-masters.import.js";
import { importHolidayFile } from "../domains/masters/exchange-holidays.import.js";
import { PACKAGE_ROOT } from "../platform/lib/package-root.js";
import { newId, newSecret } from "../platform/lib/ids.js";
import seedSchemes from "../domains/masters/seed/schemes.json" with { type: "json" };
import type { Services } from "../domains/shared/services.js";
import { enqueue } from "../domains/shared/jobs/enqueue.js";
import { seedDemoInvestors } from "./demo-investors.js";

export interface SandboxCredentials {
  client_id: string;
  client_secret: string;
  source: "environment" | "generated";
}

/** The exchange's scheme master and SIP master for the seed's schemes, in the exchange's own file layout. */
export const SEED_EXCHANGE_MASTERS = {
  schemes: path.join(PACKAGE_ROOT, "assets", "seed", "exchange-scheme-master.txt"),
  sip: path.join(PACKAGE_ROOT, "assets", "seed", "exchange-sip-master.txt"),
};

/**
 * Seeds the sandbox (idempotent; runs at every sandbox start under an advisory lock): the demo
 * distributor and its API client, the scheme master's seed set with the exchange's masters for it (loaded by
 * the same importer as production's, so the sandbox validates as production does), the exchange's holiday
 * calendar (its years replaced at every start), demo
 * investors with a mandate, and (through a refresh job) their holdings.
 */
export async function seedSandbox(services: Services): Promise<SandboxCredentials> {
  const { prisma: db, config } = services;
  return withAdvisoryLock(db, 7206001, async () => {
    const credentials = await seedDistributor(db, config);
    await seedSchemeMaster(db);
    await seedExchangeCalendar(db);
    const distributor = await findDistributorByArn(db, SANDBOX_DISTRIBUTOR.arn);
    if (distributor) await seedDemoInvestors(services, distributor.id);
    // The demo holdings reach the positions the way real ones do: the sandbox registrar's feed, imported
    // by the refresh job, which the worker runs right after start.
    await enqueue(db, "holdings__refresh", {}, { jobKey: "holdings__refresh:seed" });
    return credentials;
  });
}

async function seedDistributor(db: Db, config: Config): Promise<SandboxCredentials> {
  let distributor = await findDistributorByArn(db, SANDBOX_DISTRIBUTOR.arn);
  const file = path.join(config.dataDir, "sandbox-credentials.json");
  if (!distributor) {
    const created = await createDistributor(db, SANDBOX_DISTRIBUTOR);
    distributor = { id: created.distributor_id, name: SANDBOX_DISTRIBUTOR.name, arn: created.arn };
    if (!config.sandbox.clientId) await saveCredentials(file, created.client_id, created.client_secret);
  }
  const { clientId, clientSecret } = config.sandbox;
  if (clientId && clientSecret) {
    await setClientCredentials(db, { distributorId: distributor.id, clientId, clientSecret });
    return { client_id: clientId, client_secret: clientSecret, source: "environment" };
  }
  // Generated once; the plain secret is kept only in this local sandbox file so it can be printed.
  const saved = await readCredentials(file);
  if (saved) {
    await setClientCredentials(db, { distributorId: distributor.id, clientId: saved.client_id, clientSecret: saved.client_secret });
    return { ...saved, source: "generated" };
  }
  const fresh = { client_id: newId("mfc"), client_secret: newSecret("mfcs") };
  await setClientCredentials(db, { distributorId: distributor.id, clientId: fresh.client_id, clientSecret: fresh.client_secret });
  await saveCredentials(file, fresh.client_id, fresh.client_secret);
  return { ...fresh, source: "generated" };
}

async function readCredentials(file: string): Promise<{ client_id: string; client_secret: string } | null> {
  try {
    const saved = JSON.parse(await readFile(file, "utf8")) as { client_id?: unknown; client_secret?: unknown };
    return typeof saved.client_id === "string" && typeof saved.client_secret === "string"
      ? { client_id: saved.client_id, client_secret: saved.client_secret }
      : null;
  } catch {
    return null;
  }
}

async function saveCredentials(file: string, clientId: string, clientSecret: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ client_id: clientId, client_secret: clientSecret }, null, 2), { mode: 0o600 });
}

async function seedSchemeMaster(db: Db): Promise<void> {
  await upsertAmfiRecords(db, seedSchemes as AmfiSchemeRecord[]);
  await importExchangeMasters(db, {
    schemes: await readFile(SEED_EXCHANGE_MASTERS.schemes, "utf8"),
    sip: await readFile(SEED_EXCHANGE_MASTERS.sip, "utf8"),
  });
}

/** The exchange's published holidays, as an operator loads them (`calendar:import`); read from the package root. */
export const SEED_HOLIDAY_FILE = path.join(PACKAGE_ROOT, "assets", "seed", "exchange-holidays.csv");

async function seedExchangeCalendar(db: Db): Promise<void> {
  const report = await importHolidayFile(db, await readFile(SEED_HOLIDAY_FILE, "utf8"));
  if (!report.imported) throw new Error(`The seed holiday file is refused: ${JSON.stringify(report.problems)}`);
}
