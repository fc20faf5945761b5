import type { ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { RequestBudget } from "../../src/platform/lib/request-budget.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, wetSignatureBody } from "../helpers/broker-changes.js";
import { filePart, pdfOfSize, uploadSignedForm } from "../helpers/uploads.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

/**
 * The same app with a budget whose clock stands still (the budget test's own server): the bucket cannot refill
 * between spending it and the refused upload, however slowly the machine runs.
 */
let budget: RequestBudget;
let budgetServer: ServerType;
let budgetUrl = "";

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
  budget = new RequestBudget(app.config.rateLimit, () => 1_000_000);
  budgetServer = await startHttpServer(
    createApp({ ...app.services, budget }, { readiness: async () => null }).fetch,
    httpServerOptions(app.config, { port: 0, hostname: "127.0.0.1" }),
  );
  budgetUrl = `http://127.0.0.1:${(budgetServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => budgetServer.close(() => resolve()));
});

describe("POST /api/broker-changes/v1/{id}/image: tenancy and the request budget", () => {
  it("404 for another distributor's request, before its body is read; the owner can still upload", async () => {
    const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
    const id = created.body.id as string;
    const foreign = await uploadSignedForm(app.baseUrl, ctx.otherToken, id, [filePart(pdfOfSize(3 * 1024 * 1024))], { sliceBytes: 64 * 1024, pauseMs: 20 });
    expect({ status: foreign.status, body: foreign.body }).toEqual({
      status: 404,
      body: { success: false, error: { code: "NOT_FOUND", message: foreign.body.error.message }, request_id: foreign.headers["x-request-id"] },
    });
    expect(foreign.body.error.message).not.toContain(ctx.investor.id);
    expect(foreign.sentAll).toBe(false);
    expect(await app.prisma.brokerChangeDocument.count({ where: { brokerChangeId: id } })).toBe(0);

    const own = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(pdfOfSize(1000))]);
    expect(own.status).toBe(200);
  });

  it("spends one request of the API client's budget; 429 with Retry-After once it is spent", async () => {
    const d = await app.newDistributor();
    const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
    const first = await uploadSignedForm(budgetUrl, d.token, created.body.id, [filePart(pdfOfSize(100))]);
    expect(first.status).toBe(404);
    const remaining = Number(first.headers["ratelimit-remaining"]);
    expect(first.headers["ratelimit-limit"]).toBe(String(app.config.rateLimit.burst));
    expect(remaining).toBe(app.config.rateLimit.burst - 1);
    for (let i = 0; i < remaining; i++) expect(budget.take(d.client_id).allowed).toBe(true);
    const limited = await uploadSignedForm(budgetUrl, d.token, created.body.id, [filePart(pdfOfSize(100))]);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    expect(limited.headers["ratelimit-remaining"]).toBe("0");
  });
});
