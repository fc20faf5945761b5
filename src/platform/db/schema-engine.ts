/**
 * Prisma's schema engine (the engine behind `prisma migrate`) as WebAssembly, driven through
 * @prisma/adapter-pg. The native engine cannot be downloaded on our machines;
 * `@prisma/schema-engine-wasm` is the same engine build compiled to wasm
 * (the design's stack notes, "Prisma 7 on a machine that cannot reach Prisma's binary host").
 */
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { ErrorRegistry, wrapAdapterFactory } from "./schema-engine-adapter.js";
import { SessionConnections } from "./schema-engine-connections.js";
import { lastPanicMessage, loadWasmOnce } from "./schema-engine-wasm.js";

export type { SchemaEngine, MigrationList } from "@prisma/schema-engine-wasm/schema_engine_bg";

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
    const panic = lastPanicMessage();
    return new Error(`Schema engine panicked: ${panic || error.message}`, { cause: error });
  }
  if (!(error instanceof Error)) return new Error(`Schema engine error: ${JSON.stringify(error)}`);
  const original = registry.originalOf(error);
  if (original instanceof Error) return new Error(`${original.message}\n${error.message}`, { cause: original });
  return error;
}
