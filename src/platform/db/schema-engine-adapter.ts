import pg from "pg";
import { withCharColumnTypes } from "./char-columns.js";
import type { Connection, PgAdapter, SessionConnections } from "./schema-engine-connections.js";

/**
 * The driver adapter in the shape the engine expects: every call answers a Result instead of throwing,
 * errors carried as the payloads the engine understands (schema-engine.ts opens the engine over it).
 */

type PgTransaction = Awaited<ReturnType<PgAdapter["startTransaction"]>>;

/** Error payload the engine understands (`MappedError` in @prisma/driver-adapter-utils). */
type AdapterError = { kind: string } & Record<string, unknown>;
type Result<T> = { ok: true; value: T } | { ok: false; error: AdapterError };

/** Errors that are not database errors reach the engine as `GenericJs` ids; keep the originals. */
export class ErrorRegistry {
  private readonly errors: unknown[] = [];

  register(error: unknown): number {
    return this.errors.push(error) - 1;
  }

  /** The engine reports them as "External error id#<id>". */
  originalOf(engineError: Error): unknown {
    const id = /External error id#(\d+)/.exec(engineError.message)?.[1];
    return id === undefined ? undefined : this.errors[Number(id)];
  }
}

/** @prisma/adapter-pg throws `DriverAdapterError`s whose `cause` is already the engine's error payload. */
function driverAdapterErrorPayload(error: unknown): AdapterError | undefined {
  if (!(error instanceof Error) || error.name !== "DriverAdapterError") return undefined;
  const cause: unknown = error.cause;
  if (typeof cause !== "object" || cause === null || !("kind" in cause)) return undefined;
  return cause as AdapterError;
}

function toAdapterError(error: unknown, registry: ErrorRegistry): AdapterError {
  return driverAdapterErrorPayload(error) ?? { kind: "GenericJs", id: registry.register(error) };
}

function wrapAsync<A extends unknown[], R>(
  registry: ErrorRegistry,
  fn: (...args: A) => Promise<R>,
): (...args: A) => Promise<Result<R>> {
  return async (...args) => {
    try {
      return { ok: true, value: await fn(...args) };
    } catch (error) {
      return { ok: false, error: toAdapterError(error, registry) };
    }
  };
}

function wrapSync<A extends unknown[], R>(registry: ErrorRegistry, fn: (...args: A) => R): (...args: A) => Result<R> {
  return (...args) => {
    try {
      return { ok: true, value: fn(...args) };
    } catch (error) {
      return { ok: false, error: toAdapterError(error, registry) };
    }
  };
}

function mapResult<T, U>(result: Result<T>, fn: (value: T) => U): Result<U> {
  return result.ok ? { ok: true, value: fn(result.value) } : result;
}

type SqlQuery = Parameters<PgAdapter["queryRaw"]>[0];

function wrapQueryRaw(registry: ErrorRegistry, queryable: PgAdapter | PgTransaction) {
  return wrapAsync(registry, async (query: SqlQuery) => withCharColumnTypes(await queryable.queryRaw(query)));
}

/*
 * @prisma/adapter-pg's executeScript splits the script on every ";" and runs the pieces one by one. That
 * breaks function bodies and DO blocks ($$ ... ; ... $$) and leaves half-applied migrations behind when a
 * statement fails. The native engine sends the whole script as one simple query, which PostgreSQL runs
 * as a single implicit transaction; do the same.
 */
async function executeWholeScript(registry: ErrorRegistry, pool: pg.Pool, script: string): Promise<Result<void>> {
  try {
    await pool.query(script);
    return { ok: true, value: undefined };
  } catch (error) {
    return { ok: false, error: postgresErrorPayload(error) ?? toAdapterError(error, registry) };
  }
}

/** Keeps PostgreSQL's own message, code, detail and hint, which end up in `_prisma_migrations.logs`. */
function postgresErrorPayload(error: unknown): AdapterError | undefined {
  if (!(error instanceof pg.DatabaseError)) return undefined;
  const { code, severity, message, detail, column, hint } = error;
  return { kind: "postgres", code: code ?? "N/A", severity: severity ?? "N/A", message, detail, column, hint };
}

function wrapTransaction(registry: ErrorRegistry, tx: PgTransaction) {
  return {
    adapterName: tx.adapterName,
    provider: tx.provider,
    options: tx.options,
    queryRaw: wrapQueryRaw(registry, tx),
    executeRaw: wrapAsync(registry, tx.executeRaw.bind(tx)),
    commit: wrapAsync(registry, tx.commit.bind(tx)),
    rollback: wrapAsync(registry, tx.rollback.bind(tx)),
    ...(tx.createSavepoint && { createSavepoint: wrapAsync(registry, tx.createSavepoint.bind(tx)) }),
    ...(tx.rollbackToSavepoint && { rollbackToSavepoint: wrapAsync(registry, tx.rollbackToSavepoint.bind(tx)) }),
    ...(tx.releaseSavepoint && { releaseSavepoint: wrapAsync(registry, tx.releaseSavepoint.bind(tx)) }),
  };
}

function wrapAdapter(registry: ErrorRegistry, connection: Connection) {
  const { adapter } = connection;
  const startTransaction = wrapAsync(registry, adapter.startTransaction.bind(adapter));
  return {
    adapterName: adapter.adapterName,
    provider: adapter.provider,
    queryRaw: wrapQueryRaw(registry, adapter),
    executeRaw: wrapAsync(registry, adapter.executeRaw.bind(adapter)),
    executeScript: (script: string) => executeWholeScript(registry, adapter.underlyingDriver(), script),
    dispose: wrapAsync(registry, connection.dispose),
    getConnectionInfo: wrapSync(registry, adapter.getConnectionInfo.bind(adapter)),
    startTransaction: async (...args: Parameters<PgAdapter["startTransaction"]>) =>
      mapResult(await startTransaction(...args), (tx) => wrapTransaction(registry, tx)),
  };
}

export function wrapAdapterFactory(registry: ErrorRegistry, connections: SessionConnections) {
  const connect = wrapAsync(registry, () => connections.connect());
  const connectToShadowDb = wrapAsync(registry, () => connections.connectToShadowDb());
  return {
    adapterName: "@prisma/adapter-pg",
    provider: "postgres",
    connect: async () => mapResult(await connect(), (connection) => wrapAdapter(registry, connection)),
    connectToShadowDb: async () =>
      mapResult(await connectToShadowDb(), (connection) => wrapAdapter(registry, connection)),
  };
}
