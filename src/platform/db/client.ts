import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Decimal } from "../lib/money.js";
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

/** The pg pool under each Prisma client made here: hot reads (readRows) query it directly. */
const pools = new WeakMap<object, { pool: pg.Pool; statementName: (query: { sql: string }) => string }>();

/** With `log`, a lost connection of the pool is one short line (the error's code and message). */
export function createPrisma(databaseUrl: string, poolSize = 10, log?: Log): PrismaClient {
  const lost = (error: Error) => log?.warn({ error: errorSummary(error) }, "database connection lost");
  // A connection that cannot be had in CONNECT_TIMEOUT_MS, made or waited for, fails (answered 503): a database
  // host gone silent (a failover) must not hold requests.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, ...CONNECTION_BOUNDS });
  const statementName = preparedStatementNames();
  const adapter = new PrismaPg(pool, { onPoolError: lost, onConnectionError: lost, statementNameGenerator: statementName, disposeExternalPool: true });
  // Under load a transaction may wait for a pooled connection longer than Prisma's 2 s default;
  // waiting is better than failing. A wait that still runs out is answered 503 (see trpc/errors).
  const prisma = new PrismaClient({ adapter, transactionOptions: { maxWait: CONNECT_TIMEOUT_MS, timeout: 15_000 } });
  pools.set(prisma, { pool, statementName });
  return prisma;
}

/**
 * Values as Prisma's raw queries give them, for the types pg would give otherwise: numeric as a Decimal, a date
 * as its UTC midnight (pg's default reads it in the process's time zone).
 */
const NUMERIC = 1700;
const DATE = 1082;
const PRISMA_LIKE_TYPES = {
  getTypeParser: (oid: number, format?: string): ((text: string) => unknown) => {
    if (oid === NUMERIC) return (text) => new Decimal(text);
    if (oid === DATE) return (text) => new Date(`${text}T00:00:00Z`);
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/**
 * The rows of one statement, sent straight to the pool under the Prisma client (same connections, same
 * prepared statement names), not through Prisma's query pipeline: on the hot paths (GET order, the PAN lookup,
 * placement's read, its order and its jobs) that pipeline was about a fifth of the server's CPU per request
 * (docs/benchmarks.md, bench:hot-reads). A write sent this way commits on its own, as it would through Prisma
 * outside a transaction.
 * Inside a transaction (or a client not made here) the statement goes through Prisma as before. Values come back
 * as $queryRawUnsafe gives them for the types above, timestamps, JSON, text, booleans and int4.
 */
export async function readRows<T>(db: DbOrTx, sql: string, ...values: unknown[]): Promise<T[]> {
  const direct = pools.get(db);
  if (!direct) return db.$queryRawUnsafe<T[]>(sql, ...values);
  const result = await direct.pool.query({ name: direct.statementName({ sql }), text: sql, values, types: PRISMA_LIKE_TYPES });
  return result.rows as T[];
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
