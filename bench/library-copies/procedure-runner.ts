/**
 * The REST path's former copy of tRPC's middleware runner (src/platform/trpc/run-procedure.ts until the
 * "Library copies" measurement of docs/benchmarks.md removed it), kept here only as the other side of
 * `npm run bench:library-copies`. Not used by the service. Its equivalence with tRPC's runner was
 * tested by test/trpc-runner.test.ts before its removal; the benchmark checks that both sides answer alike.
 */
import { getTRPCErrorFromUnknown, TRPCError, type AnyProcedure, type AnyRouter, type TRPCProcedureType } from "@trpc/server";

/** One call of a procedure, as the REST dispatcher makes it. */
export interface ProcedureCall {
  /** The procedure's path in the router (`orders.get`), for error shapes and middlewares. */
  path: string;
  type: TRPCProcedureType;
  ctx: object;
  getRawInput: () => Promise<unknown>;
}

type GetRawInput = () => Promise<unknown>;
type Result = { ok: true; data: unknown } | { ok: false; error: TRPCError };
interface NextOptions {
  ctx?: object;
  input?: unknown;
  getRawInput?: GetRawInput;
}
type Step = (options: {
  ctx: object;
  type: TRPCProcedureType;
  path: string;
  input: unknown;
  getRawInput: GetRawInput;
  meta: unknown;
  signal: undefined;
  batchIndex: number;
  next: (options?: NextOptions) => Promise<Result>;
}) => Promise<Result | undefined>;

/**
 * As it was: runs a procedure (its error formatter, our middleware, its input and output validators, its
 * resolver) the way tRPC's own caller does (`callRecursive` in @trpc/server's procedure builder, 11.x):
 * each step gets the same options; `next` passes on `ctx` (merged), `input` and `getRawInput` as
 * tRPC's does; a step that throws becomes a failed result carrying the error as tRPC reads it; no
 * result, or a failed one, throws. The one difference: each step's options are an object literal,
 * where tRPC copies the previous ones twice per step with a spread helper (the largest single cost
 * of a small procedure on the REST path). /trpc and server-side callers keep tRPC's own runner.
 */
export function procedureRunner(procedure: Pick<AnyProcedure, "_def">): (call: ProcedureCall) => Promise<unknown> {
  const { middlewares, meta } = procedure._def as unknown as { middlewares: Step[]; meta: unknown };

  async function step(index: number, call: ProcedureCall, ctx: object, input: unknown, getRawInput: GetRawInput): Promise<Result | undefined> {
    try {
      return await middlewares[index]!({
        ctx,
        type: call.type,
        path: call.path,
        input,
        getRawInput,
        meta,
        signal: undefined,
        batchIndex: 0,
        next: nextOf(index, call, ctx, input, getRawInput),
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: "middlewareMarker" } as Result;
    }
  }

  // Made by a function and returned: a closure written as `next: (options) => ...` would be named
  // again on every call under tsx (esbuild's keepNames), which costs more than the closure.
  function nextOf(index: number, call: ProcedureCall, ctx: object, input: unknown, getRawInput: GetRawInput) {
    return (options?: NextOptions) =>
      step(
        index + 1,
        call,
        options?.ctx ? { ...ctx, ...options.ctx } : ctx,
        options && "input" in options ? options.input : input,
        options?.getRawInput ?? getRawInput,
      ) as Promise<Result>;
  }

  return async (call) => {
    const result = await step(0, call, call.ctx, undefined, call.getRawInput);
    if (!result) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "No result from middlewares - did you forget to `return next()`?" });
    if (!result.ok) throw result.error;
    return result.data;
  };
}

/**
 * The router with each procedure replaced by one running the copy above: same `_def` (meta, inputs,
 * output, middlewares), so the REST routes, the OpenAPI document and tRPC's own look-up
 * (callTRPCProcedure, which the REST path now calls) see the same procedures.
 */
export function routerWithCopiedRunner<TRouter extends AnyRouter>(router: TRouter): TRouter {
  const procedures: Record<string, unknown> = {};
  for (const [path, procedure] of Object.entries(router._def.procedures as Record<string, AnyProcedure>)) {
    const run = procedureRunner(procedure);
    procedures[path] = Object.assign((call: ProcedureCall) => run(call), { _def: procedure._def, procedure: true, meta: procedure.meta });
  }
  return { ...router, _def: { ...router._def, procedures } };
}
