import { afterAll, beforeAll } from "vitest";
import { createPrisma, type Db } from "../../../src/platform/db/client.js";
import type { BseConfig } from "../../../src/integrations/exchange/bse/bse-config.js";
import { createTestDatabase } from "../db.js";
import { startBseDouble, type BseDouble } from "./double.js";

/** What a test of the BSE adapter itself stands on: its own database, a Prisma client on it and the double. */
export interface BseAdapterWorld {
  prisma: Db;
  double: BseDouble;
}

/**
 * Creates the world before the file's tests and tears it down after them; `receive` hands it to the file
 * (which keeps its own `prisma` and `double` names).
 */
export function useBseAdapterWorld(receive: (world: BseAdapterWorld) => void | Promise<void>): void {
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let world: BseAdapterWorld | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    world = { prisma: createPrisma(db.url, 5), double: await startBseDouble() };
    await receive(world);
  });
  afterAll(async () => {
    await world?.double.close();
    await world?.prisma.$disconnect();
    await db?.drop();
  });
}

/**
 * The adapter's configuration pointed at the double (no default EUIN). Its 2-second call budget is the
 * double's own (double.ts): a shorter one counted Node's one-off loading of `fetch` on a file's first call
 * against it; a test that scripts a call never answered passes its own short `timeoutMs`.
 */
export const doubleConfig = (double: BseDouble, overrides: Partial<BseConfig> = {}): BseConfig => ({
  baseUrl: double.baseUrl,
  userId: double.credentials.userId,
  memberId: double.credentials.memberId,
  password: double.credentials.password,
  passKey: undefined,
  apiKey: "k",
  euin: undefined,
  timeoutMs: 2000,
  ...overrides,
});
