import { initTRPC, TRPCError } from "@trpc/server";
import { spendBudget } from "../../platform/lib/request-budget.js";
import { addressKey } from "../../platform/lib/address-key.js";
import { describeError } from "../../platform/trpc/errors.js";
import { AppError, type ErrorCode } from "../../platform/lib/errors.js";
import { assertSafeInput } from "../../platform/lib/hostile-input.js";
import type { Context } from "./context.js";
import { admitCaller } from "./authenticator.js";
import type { Caller } from "./caller.js";
import type { Meta } from "../../platform/trpc/meta.js";
import { traceProcedure } from "../../platform/tracing/procedure-span.js";


const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Never put stack traces in error shapes, whatever NODE_ENV says. Messages, codes and
    // details are those of the REST envelope: nothing internal reaches a client.
    isDev: false,
    errorFormatter: ({ shape, error, ctx }) => {
      const outcome = describeError(error);
      return {
        message: outcome.message,
        code: shape.code,
        data: {
          code: shape.data.code,
          httpStatus: outcome.status,
          appCode: outcome.code,
          details: outcome.details,
          request_id: ctx?.requestId,
        },
      };
    },
  });

/** The tRPC code (and so the /trpc HTTP status) of each application error code. */
const TRPC_CODE: Record<ErrorCode, TRPCError["code"]> = {
  VALIDATION_ERROR: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  INVALID_STATE: "CONFLICT",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  INTERNAL: "INTERNAL_SERVER_ERROR",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
};

/** An application error as the tRPC error of its code, carrying it as the cause (src/platform/trpc/errors.ts reads it there). */
function asTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE[error.appCode], message: error.message, cause: error });
}

export const router = t.router;
export const middleware = t.middleware;

/** An application error as the tRPC error of its code; anything else as it is. */
function asThrown(error: unknown): unknown {
  return error instanceof AppError ? asTRPCError(error) : error;
}

/** Refuses a raw input that no schema accepts (see publicProcedure), before anything else runs. */
async function refuseUnsafeInput(getRawInput: () => Promise<unknown>): Promise<void> {
  try {
    assertSafeInput(await getRawInput());
  } catch (error) {
    throw asThrown(error);
  }
}

/** tRPC wraps what a middleware or resolver throws in an INTERNAL_SERVER_ERROR with it as the cause. */
function unwrapAppError<R extends { ok: boolean }>(result: R): R {
  const cause = result.ok ? undefined : (result as { error?: { cause?: unknown } }).error?.cause;
  if (cause instanceof AppError) throw asTRPCError(cause);
  return result;
}


/*
 * Each base below is ONE middleware (tRPC copies its options object at every middleware), and what
 * they add to the context they write on it: the context is this request's own object (or a caller's),
 * and passing `ctx` to `next` would make tRPC copy every field of it. `next<{...}>({})` only tells
 * the procedures' types what is there.
 */

/**
 * The one base of every procedure: the raw input (body, query and path parameters on REST, the
 * input on /trpc) is refused before anything else, authentication included, when it holds what
 * no schema accepts and the layers below choke on (NUL characters, prototype-named keys, deep
 * nesting). An application error from anywhere below leaves as the tRPC error of its code.
 */
export const publicProcedure = t.procedure.use(traceProcedure(async ({ getRawInput, next }) => {
  await refuseUnsafeInput(getRawInput);
  return unwrapAppError(await next());
}));

/**
 * Every procedure but the token endpoint and the public link pages: the caller must hold a valid
 * token, and each call spends one request of its API client's budget (429 beyond it). The raw input
 * is checked first, as on publicProcedure.
 */
export const authedProcedure = t.procedure.use(traceProcedure(async ({ ctx, getRawInput, next }) => {
  await refuseUnsafeInput(getRawInput);
  let caller: Caller;
  try {
    caller = await admitCaller(ctx, ctx, ctx.response.headers);
  } catch (error) {
    throw asThrown(error);
  }
  (ctx as Context & { caller: Caller }).caller = caller;
  return unwrapAppError(await next<{ caller: Caller }>({}));
}));

/**
 * The public order-link paths: no token (the link id is the capability), so each call spends one
 * request of its client address's budget (an IPv4 address, an IPv6 /64), as an API client spends its
 * own: RateLimit-* headers, 429 beyond it. The raw input is checked first, as on publicProcedure.
 */
export const linkProcedure = t.procedure.use(traceProcedure(async ({ ctx, getRawInput, next }) => {
  await refuseUnsafeInput(getRawInput);
  try {
    spendBudget(ctx.addressBudget, `address:${addressKey(ctx.clientIp)}`, ctx.response.headers, "from this address");
  } catch (error) {
    throw asThrown(error);
  }
  return unwrapAppError(await next());
}));

/** Sandbox simulation: the caller must hold a token, and in production the routes do not exist. */
export const sandboxProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.config.env !== "sandbox" || !ctx.sandboxExchange) throw new AppError("NOT_FOUND", "Not found");
  return next<{ sandboxExchange: NonNullable<Context["sandboxExchange"]> }>({});
});
