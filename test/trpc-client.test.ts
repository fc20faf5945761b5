import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { todayInIndia } from "../src/platform/lib/india-date.js";
import type { AppRouter } from "../src/router.js";
import { useTestApp } from "./helpers/app.js";

const app = useTestApp();

const client = (token?: string) =>
  createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${app.baseUrl}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })],
  });

describe("the typed tRPC client", () => {
  it("calls the same procedures with full types", async () => {
    const d = await app.newDistributor();
    const catalog = await client(d.token).masters.investorOptions.query({});
    expect(catalog.genders.map((g) => g.value)).toEqual(["M", "F", "O"]);
    const states = await client(d.token).masters.states.query({ code: "IN" });
    expect(states.states).toHaveLength(36);
    const token = await client().auth.token.mutate({ grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret });
    expect(token.expires_in).toBe(3600);
  });

  it("creates and reads investors and mandates with full types", async () => {
    const { investorBody } = await import("./helpers/factories.js");
    const d = await app.newDistributor();
    const api = client(d.token);
    const investor = await api.investors.create.mutate(investorBody() as Parameters<typeof api.investors.create.mutate>[0]);
    expect(investor.status).toBe("PENDING");
    await api.simulation.registerInvestor.query({ id: investor.id });
    const read = await api.investors.get.query({ id: investor.id });
    expect(read.status).toBe("REGISTERED");
    const page = await api.investors.list.query({ limit: 5 });
    expect(page.data.map((i) => i.id)).toContain(investor.id);
    const mandate = await api.mandates.create.mutate({
      investor_id: investor.id,
      bank_account_id: read.bank_accounts[0]!.id,
      mandate_type: "ENACH",
      amount_limit: 5000,
      start_date: todayInIndia(),
    });
    expect((await api.mandates.get.query({ id: mandate.id })).amount_limit).toBe(5000);
  });

  it("carries the application error code and no stack", async () => {
    const error = await client().masters.countries.query({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    const shape = (error as TRPCClientError<AppRouter>).shape as { data: Record<string, unknown> };
    expect(shape.data.appCode).toBe("UNAUTHORIZED");
    expect(shape.data.httpStatus).toBe(401);
    expect(JSON.stringify(shape)).not.toContain("stack");
  });
});
