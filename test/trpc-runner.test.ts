import { callTRPCProcedure, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../src/platform/lib/errors.js";
import { middleware, publicProcedure, router } from "../src/domains/shared/procedures.js";
import { procedureRunner } from "../src/platform/trpc/run-procedure.js";

/**
 * The REST dispatcher runs procedures with its own runner (src/platform/trpc/run-procedure.ts); /trpc and
 * server-side callers with tRPC's. Both must give every procedure the same options and answer alike.
 */
const tagged = middleware(({ ctx, next }) => next({ ctx: { tag: `${(ctx as { tag?: string }).tag ?? ""}+mw` } }));
const probes = router({
  echo: publicProcedure
    .use(tagged)
    .use(({ next }) => next({ input: { extra: "from a middleware" } }))
    .use(async ({ next, getRawInput }) => next({ getRawInput: async () => ({ n: ((await getRawInput()) as { n: number }).n * 10 }) }))
    .input(z.strictObject({ n: z.number() }))
    .use(async ({ next, getRawInput, path, type, meta, signal, batchIndex, input }) =>
      next({ ctx: { seen: { raw: await getRawInput(), path, type, meta, signal, batchIndex, input } } }),
    )
    .output(z.unknown())
    .query(({ ctx, input }) => ({ tag: (ctx as { tag: string }).tag, input, seen: ctx.seen })),
  refused: publicProcedure.input(z.strictObject({ n: z.number() })).mutation(() => "never"),
  appError: publicProcedure.query(() => {
    throw new AppError("INVALID_STATE", "Not in this state");
  }),
  thrown: publicProcedure.query(() => {
    throw new Error("boom");
  }),
  badOutput: publicProcedure.output(z.string()).query(() => 42 as unknown as string),
  noNext: publicProcedure.use((async () => undefined) as never).query(() => "never"),
});

const outcome = async (call: () => Promise<unknown>) => {
  try {
    return { data: await call() };
  } catch (error) {
    const e = error as TRPCError;
    return { error: { type: e.constructor.name, code: e.code, message: e.message, cause: (e.cause as Error | undefined)?.constructor.name } };
  }
};

describe("the REST dispatcher's procedure runner", () => {
  const cases: Array<[keyof typeof probes, "query" | "mutation", unknown]> = [
    ["echo", "query", { n: 1 }],
    ["echo", "query", { n: "one" }],
    ["refused", "mutation", { n: "x" }],
    ["appError", "query", undefined],
    ["thrown", "query", undefined],
    ["badOutput", "query", undefined],
    ["noNext", "query", undefined],
  ];
  for (const [path, type, input] of cases) {
    it(`answers ${path} ${JSON.stringify(input)} as tRPC's caller does`, async () => {
      const ctx = () => ({ tag: "ctx" });
      const ours = await outcome(() => procedureRunner((probes._def.procedures as Record<string, Parameters<typeof procedureRunner>[0]>)[path]!)({ path, type, ctx: ctx(), getRawInput: async () => input }));
      const theirs = await outcome(() => callTRPCProcedure({ router: probes, path, type, ctx: ctx(), getRawInput: async () => input, signal: undefined, batchIndex: 0 }));
      expect(ours).toEqual(theirs);
      if (path === "echo" && (input as { n: unknown }).n === 1) {
        expect(ours).toEqual({
          data: {
            tag: "ctx+mw",
            input: { extra: "from a middleware", n: 10 },
            seen: { raw: { n: 10 }, path: "echo", type: "query", meta: undefined, signal: undefined, batchIndex: 0, input: { extra: "from a middleware", n: 10 } },
          },
        });
      }
    });
  }
});
