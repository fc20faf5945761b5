import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client.js";
import { withinDeadline } from "../lib/deadline.js";
import { CONNECT_TIMEOUT_MS, CONNECTION_BOUNDS } from "./connection-errors.js";
import { errorSummary, type Log } from "../lib/logger.js";
import { preparedStatementNames } from "./statement-names.js";

export { PrismaClient };
export type { Prisma } from "../../generated/prisma/client.js";

/** The Prisma client, or the transaction client handed to `$transaction` callbacks. */
export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/** With `log`, a lost connection of the pool is one short line (the error's code and message). */
export function createPrisma(databaseUrl: string, poolSize = 10, log?: Log): PrismaClient {
  const lost = (error: Error) => log?.warn({ error: errorSummary(error) }, "database connection lost");
  const adapter = new PrismaPg(
    // A connection that cannot be had in CONNECT_TIMEOUT_MS, made or waited for, fails (answered 503): a database
    // host gone silent (a failover) must not hold requests.
    { connectionString: databaseUrl, max: poolSize, ...CONNECTION_BOUNDS },
    { onPoolError: lost, onConnectionError: lost, statementNameGenerator: preparedStatementNames() },
  );
  // Under load a transaction may wait for a pooled connection longer than Prisma's 2 s default;
  // waiting is better than failing. A wait that still runs out is answered 503 (see trpc/errors).
  return new PrismaClient({ adapter, transactionOptions: { maxWait: CONNECT_TIMEOUT_MS, timeout: 15_000 } });
}

/** Answers when the database does (readiness); rejects after `timeoutMs`, whatever the query does. */
export async function ping(db: DbOrTx, timeoutMs = 2_000): Promise<void> {
  await withinDeadline(db.$queryRawUnsafe("SELECT 1"), timeoutMs, `the database did not answer within ${timeoutMs} ms`);
}

/**
 * Runs `fn` holding a PostgreSQL session advisory lock (`key`), so processes sharing the database run it
 * one at a time.
 */
export async function withAdvisoryLock<T>(db: Db, key: number, fn: () => Promise<T>): Promise<T> {
  await db.$executeRawUnsafe("SELECT pg_advisory_lock($1::bigint)", key);
  try {
    return await fn();
  } finally {
    await db.$executeRawUnsafe("SELECT pg_advisory_unlock($1::bigint)", key);
  }
}
