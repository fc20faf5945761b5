import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { AppError } from "../src/platform/lib/errors.js";
import { createContext } from "../src/domains/shared/context.js";
import { appRouter } from "../src/router.js";
import { useTestApp } from "./helpers/app.js";

const app = useTestApp();

const caller = (authorization?: string) =>
  appRouter.createCaller(createContext(app.services, { requestId: "req_caller_test", authorization }));

describe("procedures through the server-side tRPC caller", () => {
  it("run with the caller's distributor resolved from the token", async () => {
    const d = await app.newDistributor();
    const catalog = await caller(`Bearer ${d.token}`).masters.investorOptions({});
    expect(Object.keys(catalog)).toHaveLength(14);
    const page = await caller(`Bearer ${d.token}`).masters.schemes({ limit: 5 });
    expect(page.next_cursor === null || typeof page.next_cursor === "string").toBe(true);
  });

  it("throw the tRPC error of the application error's code, carrying it as the cause", async () => {
    const noToken = await caller().masters.countries({}).catch((e: unknown) => e);
    expect(noToken).toBeInstanceOf(TRPCError);
    expect((noToken as TRPCError).code).toBe("UNAUTHORIZED");
    expect((noToken as TRPCError).cause).toBeInstanceOf(AppError);
    expect(((noToken as TRPCError).cause as AppError).appCode).toBe("UNAUTHORIZED");

    const d = await app.newDistributor();
    const invalid = await caller(`Bearer ${d.token}`).masters.states({ code: "IND" }).catch((e: unknown) => e);
    expect((invalid as { code: string }).code).toBe("BAD_REQUEST");
    const unknown = await caller(`Bearer ${d.token}`).masters.states({ code: "QQ" }).catch((e: unknown) => e);
    expect((unknown as TRPCError).code).toBe("NOT_FOUND");
    expect(((unknown as TRPCError).cause as AppError).appCode).toBe("NOT_FOUND");
  });
});
