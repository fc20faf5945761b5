/**
 * Prisma's schema engine (the engine behind `prisma migrate`) as WebAssembly, driven through
 * @prisma/adapter-pg. The native engine cannot be downloaded on our machines;
 * `@prisma/schema-engine-wasm` is the same engine build compiled to wasm
 * (the design's stack notes, "Prisma 7 on a machine that cannot reach Prisma's binary host").
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";

export type { SchemaEngine, MigrationList } from "@prisma/schema-engine-wasm/schema_engine_bg";

// ---------------------------------------------------------------------------------------------
// Loading the wasm module
// ---------------------------------------------------------------------------------------------

/**
 * The engine's panic hook reports the Rust panic message here before trapping. A panic inside a command
 * rejects it, but one inside an async continuation surfaces as an uncaught `RuntimeError: unreachable`
 * (and the command never settles), which usually ends the process; so the message is also written to
 * stderr right away (process warnings are emitted on a later tick, too late for that).
 */
class PanicRegistry {
  message = "";
  set_message(message: string): void {
    this.message = message;
    console.error(`Schema engine panicked: ${message}`);
  }
}

type EngineGlobals = typeof globalThis & {
  PRISMA_WASM_PANIC_REGISTRY?: PanicRegistry;
  [LOADED]?: Promise<void>;
};
const LOADED = Symbol.for("mf.schemaEngineWasm.loaded");
const engineGlobals = globalThis as EngineGlobals;

/*
 * The glue module keeps the wasm instance in a module-level variable, so instantiate once per process:
 * engines created against one instance break if a second instance replaces it. The promise lives on
 * globalThis because a test runner may evaluate this file more than once while sharing the glue module.
 */
function loadWasmOnce(): Promise<void> {
  engineGlobals.PRISMA_WASM_PANIC_REGISTRY ??= new PanicRegistry();
  engineGlobals[LOADED] ??= instantiateEngineWasm();
  return engineGlobals[LOADED];
}

/**
 * The package's entry point does `import * as wasm from "./schema_engine_bg.wasm"`, which Node 20 only
 * supports behind a flag, so this does that entry point's job by hand.
 */
async function instantiateEngineWasm(): Promise<void> {
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const wasmPath = path.join(path.dirname(gluePath), "schema_engine_bg.wasm");
  const module = await WebAssembly.compile(await readFile(wasmPath));
  // The wasm imports all its host functions from the glue module ("./schema_engine_bg.js").
  const glue = withUnrefTimers(engineBindings as unknown as WebAssembly.ModuleImports);
  const imports: WebAssembly.Imports = {};
  for (const { module: name } of WebAssembly.Module.imports(module)) imports[name] = glue;
  const instance = await WebAssembly.instantiate(module, imports);
  engineBindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
}

/*
 * The engine only uses timers as timeouts (e.g. 10 s around its advisory lock) and never clears them, so
 * each command would keep the process alive for up to that long after it finished. Unref'd timers still
 * fire while the engine is waiting on the database, whose sockets keep the process alive.
 */
function withUnrefTimers(glue: WebAssembly.ModuleImports): WebAssembly.ModuleImports {
  const patched = { ...glue };
  for (const [name, value] of Object.entries(glue)) {
    if (!name.startsWith("__wbg_setTimeout_") || typeof value !== "function") continue;
    const setTimer = value as (callback: () => void, ms: number) => unknown;
    patched[name] = (callback: () => void, ms: number) => {
      const timer = setTimer(callback, ms) as { unref?: () => void };
      timer.unref?.();
      return timer;
    };
  }
  return patched;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL's internal "char" type
// ---------------------------------------------------------------------------------------------

/*
 * The engine's catalog queries return columns of PostgreSQL's one-byte "char" type (pg_constraint.contype
 * and friends). @prisma/adapter-pg rejects that type ("Column type 'char' could not be deserialized"),
 * and reporting it as Text makes the engine panic, since it reads these columns as a Rust `char`. So the
 * pg client relabels such columns as text for the adapter and remembers them, and the adapter wrapper
 * below reports them to the engine as `Character` columns.
 */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
/** `ColumnTypeEnum.Character` in @prisma/driver-adapter-utils. */
const CHARACTER_COLUMN_TYPE = 6;

/** Result rows array (handed through unchanged by the adapter) → indexes of its "char" columns. */
const charColumnsByRows = new WeakMap<object, number[]>();

function relabelCharColumns(result: unknown): unknown {
  for (const single of Array.isArray(result) ? result : [result]) {
    const { fields, rows } = (single ?? {}) as Partial<pg.QueryResult>;
    if (!fields || !rows) continue;
    const charColumns = fields.flatMap((field, index) => (field.dataTypeID === PG_CHAR_OID ? [index] : []));
    if (charColumns.length === 0) continue;
    for (const index of charColumns) fields[index]!.dataTypeID = PG_TEXT_OID;
    charColumnsByRows.set(rows, charColumns);
  }
  return result;
}

type QueryFn = (...args: unknown[]) => unknown;

/** pg-pool calls `client.query` with a callback; direct callers use the promise form. */
function queryRelabellingCharColumns(query: QueryFn, args: unknown[]): unknown {
  const callbackIndex = args.findIndex((arg) => typeof arg === "function");
  if (callbackIndex >= 0) {
    const callback = args[callbackIndex] as (error: unknown, result: unknown) => void;
    const patched = [...args];
    patched[callbackIndex] = (error: unknown, result: unknown) => callback(error, relabelCharColumns(result));
    return query(...patched);
  }
  const returned = query(...args);
  return returned instanceof Promise ? returned.then(relabelCharColumns) : returned;
}

class CharRelabellingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as QueryFn;
    Object.assign(this, { query: (...args: unknown[]) => queryRelabellingCharColumns(query, args) });
  }
}

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type PgTransaction = Awaited<ReturnType<PgAdapter["startTransaction"]>>;
type ResultSet = Awaited<ReturnType<PgAdapter["queryRaw"]>>;

function withCharColumnTypes(resultSet: ResultSet): ResultSet {
  const charColumns = charColumnsByRows.get(resultSet.rows);
  if (!charColumns) return resultSet;
  const columnTypes = [...resultSet.columnTypes];
  for (const index of charColumns) columnTypes[index] = CHARACTER_COLUMN_TYPE;
  return { ...resultSet, columnTypes };
}

// ---------------------------------------------------------------------------------------------
// Driver adapter in the shape the engine expects
// ---------------------------------------------------------------------------------------------

/** Error payload the engine understands (`MappedError` in @prisma/driver-adapter-utils). */
type AdapterError = { kind: string } & Record<string, unknown>;
type Result<T> = { ok: true; value: T } | { ok: false; error: AdapterError };

/** Errors that are not database errors reach the engine as `GenericJs` ids; keep the originals. */
class ErrorRegistry {
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

// ---------------------------------------------------------------------------------------------
// Connections of one engine session
// ---------------------------------------------------------------------------------------------

interface Connection {
  adapter: PgAdapter;
  /** Idempotent. */
  dispose(): Promise<void>;
}

/**
 * Opens the adapters the engine asks for and closes whatever the engine leaves open. Two problems of
 * @prisma/adapter-pg's factory are avoided here:
 * - its `connectToShadowDb` builds the shadow pool from `{ ...config, database }`, but pg lets a
 *   `connectionString` override `database`, so the "shadow" pool silently targets the main database
 *   (the shadow migrations would run there), and the pool it uses to create/drop the shadow database
 *   is never closed;
 * - the engine never disposes the main adapter; its idle pool connections keep the process alive and
 *   hold the engine's session-level advisory lock (`pg_advisory_lock(72707369)`, never unlocked).
 */
class SessionConnections {
  private readonly open = new Set<Connection>();

  constructor(private readonly databaseUrl: string) {}

  async connect(databaseUrl = this.databaseUrl): Promise<Connection> {
    const poolConfig: pg.PoolConfig = { connectionString: databaseUrl, Client: CharRelabellingClient };
    return this.track(await new PrismaPg(poolConfig).connect(), []);
  }

  async connectToShadowDb(): Promise<Connection> {
    const admin = await this.connect();
    const database = `prisma_migrate_shadow_db_${randomUUID()}`;
    try {
      await admin.adapter.executeScript(`CREATE DATABASE "${database}"`);
      const shadow = await this.connect(withDatabase(this.databaseUrl, database));
      // The shadow pool is closed before the drop: PostgreSQL refuses to drop a database in use.
      return this.track(shadow.adapter, [
        shadow.dispose,
        () => admin.adapter.executeScript(`DROP DATABASE IF EXISTS "${database}"`),
        admin.dispose,
      ]);
    } catch (error) {
      await admin.dispose();
      throw error;
    }
  }

  /** Disposes in reverse order of creation, so shadow databases are dropped before their admin pool ends. */
  async closeAll(): Promise<void> {
    for (const connection of [...this.open].reverse()) await connection.dispose();
  }

  private track(adapter: PgAdapter, cleanup: (() => Promise<void>)[]): Connection {
    let disposed: Promise<void> | undefined;
    const steps = cleanup.length > 0 ? cleanup : [() => adapter.dispose()];
    const connection: Connection = {
      adapter,
      dispose: () => {
        this.open.delete(connection);
        disposed ??= runInOrder(steps);
        return disposed;
      },
    };
    this.open.add(connection);
    return connection;
  }
}

async function runInOrder(steps: (() => Promise<void>)[]): Promise<void> {
  for (const step of steps) await step();
}

function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

function wrapAdapterFactory(registry: ErrorRegistry, connections: SessionConnections) {
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

// ---------------------------------------------------------------------------------------------
// Engine
// ---------------------------------------------------------------------------------------------

export interface OpenSchemaEngineOptions {
  /**
   * The main database. Commands that need a shadow database (diff from a migrations directory) create a
   * temporary `prisma_migrate_shadow_db_<uuid>` database on the same server and drop it afterwards, so
   * the role needs CREATEDB for those.
   */
  databaseUrl: string;
  /** Receives the engine's tracing output. */
  log?: (line: string) => void;
}

export interface SchemaEngineSession {
  /** Runs one engine command; engine failures are rethrown as Errors with readable messages. */
  run<T>(command: (engine: SchemaEngine) => Promise<T>): Promise<T>;
  /** Frees the engine and closes every connection it opened (which also releases its advisory lock). */
  close(): Promise<void>;
}

/**
 * Starts a schema engine session for one PostgreSQL database. The datasource URL is not read from a
 * Prisma schema (Prisma 7 schemas have none); the engine talks to the database through the adapter.
 */
export async function openSchemaEngine(options: OpenSchemaEngineOptions): Promise<SchemaEngineSession> {
  await loadWasmOnce();
  const registry = new ErrorRegistry();
  const connections = new SessionConnections(options.databaseUrl);
  const adapterFactory = wrapAdapterFactory(registry, connections);
  const log = options.log ?? (() => {});
  let engine: SchemaEngine;
  try {
    engine = await engineBindings.SchemaEngine.new({ datamodels: undefined }, log, adapterFactory);
  } catch (error) {
    await connections.closeAll();
    throw toEngineError(error, registry);
  }
  return {
    run: (command) =>
      command(engine).catch((error: unknown) => {
        throw toEngineError(error, registry);
      }),
    close: async () => {
      freeEngine(engine);
      await connections.closeAll();
    },
  };
}

/** After a panic the engine is poisoned and `free` throws ("...while it was borrowed"); nothing to do then. */
function freeEngine(engine: SchemaEngine): void {
  try {
    engine.free();
  } catch {
    // The panic itself has already been reported by the command that caused it.
  }
}

/** Makes the engine's various failure shapes into an Error that says what went wrong. */
function toEngineError(error: unknown, registry: ErrorRegistry): Error {
  if (error instanceof WebAssembly.RuntimeError) {
    const panic = engineGlobals.PRISMA_WASM_PANIC_REGISTRY?.message;
    return new Error(`Schema engine panicked: ${panic || error.message}`, { cause: error });
  }
  if (!(error instanceof Error)) return new Error(`Schema engine error: ${JSON.stringify(error)}`);
  const original = registry.originalOf(error);
  if (original instanceof Error) return new Error(`${original.message}\n${error.message}`, { cause: original });
  return error;
}
