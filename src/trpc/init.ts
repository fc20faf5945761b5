import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { spendBudget } from "../core/request-budget.js";
import { addressKey } from "../lib/address-key.js";
import { describeError } from "./errors.js";
import { AppError, type ErrorCode } from "../lib/errors.js";
import { assertSafeInput } from "../lib/hostile-input.js";
import type { Context } from "./context.js";

/**
 * Procedure metadata: the REST mapping, and `cache: "static"` for procedures whose output depends
 * only on their input and the deployed code (the masters), which the REST layer may then serve
 * again without running them.
 */
export type Meta = OpenApiMeta<{ cache?: "static" }>;

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

/** An application error as the tRPC error of its code, carrying it as the cause (http/errors reads it there). */
function asTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE[error.appCode], message: error.message, cause: error });
}

export const router = t.router;
export const middleware = t.middleware;
/**
 * The one base of every procedure: the raw input (body, query and path parameters on REST, the
 * input on /trpc) is refused before anything else, authentication included, when it holds what
 * no schema accepts and the layers below choke on (NUL characters, prototype-named keys, deep
 * nesting). An application error from anywhere below leaves as the tRPC error of its code.
 */
export const publicProcedure = t.procedure.use(async ({ getRawInput, next }) => {
  try {
    assertSafeInput(await getRawInput());
  } catch (error) {
    throw error instanceof AppError ? asTRPCError(error) : error;
  }
  const result = await next();
  // tRPC wraps what a middleware or resolver throws in an INTERNAL_SERVER_ERROR with it as the cause.
  if (!result.ok && result.error.cause instanceof AppError) throw asTRPCError(result.error.cause);
  return result;
});

/**
 * Every procedure but the token endpoint and the public link pages: the caller must hold a valid
 * token, and each call spends one request of its API client's budget (429 beyond it).
 */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const caller = await ctx.auth.authenticate(ctx.authorization);
  spendBudget(ctx.budget, caller.clientId, ctx.response.headers);
  return next({ ctx: { caller } });
});

/**
 * The public order-link paths: no token (the link id is the capability), so each call spends one
 * request of its client address's budget (an IPv4 address, an IPv6 /64), as an API client spends its
 * own: RateLimit-* headers, 429 beyond it.
 */
export const linkProcedure = publicProcedure.use(({ ctx, next }) => {
  spendBudget(ctx.budget, `address:${addressKey(ctx.clientIp)}`, ctx.response.headers);
  return next();
});

/** Sandbox simulation: the caller must hold a token, and in production the routes do not exist. */
export const sandboxProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.config.env !== "sandbox" || !ctx.sandboxExchange) throw new AppError("NOT_FOUND", "Not found");
  return next({ ctx: { sandboxExchange: ctx.sandboxExchange } });
});
