import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";

/** Loading Prisma's schema engine as WebAssembly, once per process (schema-engine.ts drives it). */

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
export function loadWasmOnce(): Promise<void> {
  engineGlobals.PRISMA_WASM_PANIC_REGISTRY ??= new PanicRegistry();
  engineGlobals[LOADED] ??= instantiateEngineWasm();
  return engineGlobals[LOADED];
}

/** The message of the engine's last panic, if it panicked. */
export function lastPanicMessage(): string | undefined {
  return engineGlobals.PRISMA_WASM_PANIC_REGISTRY?.message;
}

/**
 * The package's entry point does `import * as wasm from "./schema_engine_bg.wasm"`, which Node 24 runs only
 * as an experimental feature (a warning on every start), and its instance's timers would keep each command's
 * process alive (below); so this does that entry point's job by hand, through the package's exported glue.
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
