import { beforeAll, describe, expect, it } from "vitest";
import { registerMandate } from "../../src/domains/mandates/jobs/register.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { today } from "../helpers/orders.js";
import { mandateBody, registeredInvestor, twoDistributors } from "../helpers/investors.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const eventsOf = (id: string) => app.prisma.event.findMany({ where: { resourceId: id }, orderBy: { createdAt: "asc" }, select: { event: true, data: true } });

describe("mandates", () => {
  it("are created PENDING for a registered investor's bank account, with an exact amount", async () => {
    const investor = await registeredInvestor(app, token);
    const res = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, { end_date: "2040-12-31", client_ref: "m-1" }) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^mdt_/),
      investor_id: investor.id,
      bank_account_id: investor.bankAccountId,
      bank_account_number: "XXXXXXXX7890",
      ifsc: "HDFC0001234",
      mandate_type: "ENACH",
      amount_limit: 25000.5,
      start_date: today(),
      end_date: "2040-12-31",
      status: "PENDING",
      exchange_mandate_id: null,
      provider_remark: null,
      auth_url: null,
      client_ref: "m-1",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const row = await app.prisma.mandate.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.amountLimit.toFixed(2)).toBe("25000.50");
    expect((await app.http("GET", `/api/mandates/v1/${res.body.id}`, { token })).body).toEqual(res.body);
    expect((await app.http("GET", `/api/mandates/v1/${res.body.id}`, { token: otherToken })).status).toBe(404);
  });

  it("go to the exchange through a job, and register, reject and cancel with one event per move", async () => {
    const investor = await registeredInvestor(app, token);
    const created = (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) })).body;
    await runTask(app, registerMandate, { mandate_id: created.id });
    await runTask(app, registerMandate, { mandate_id: created.id });
    const sent = (await app.http("GET", `/api/mandates/v1/${created.id}`, { token })).body;
    expect(sent).toMatchObject({ status: "PENDING", provider_remark: "SANDBOX: AWAITING SIMULATION", exchange_mandate_id: expect.stringMatching(/^SBX/) });

    const cancelEarly = await app.http("POST", `/api/mandates/v1/${created.id}/cancel`, { token });
    expect(cancelEarly.status).toBe(409);
    expect(cancelEarly.body.error.code).toBe("INVALID_STATE");

    const registered = await app.http("GET", `/api/simulation/mandates/v1/${created.id}/register`, { token });
    expect(registered.body).toEqual({ success: true, message: "Mandate registered", data: created.id });
    expect((await app.http("GET", `/api/simulation/mandates/v1/${created.id}/reject`, { token })).status).toBe(409);

    const cancelled = await app.http("POST", `/api/mandates/v1/${created.id}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("CANCELLED");
    expect((await app.http("POST", `/api/mandates/v1/${created.id}/cancel`, { token })).status).toBe(409);
    expect((await app.http("POST", `/api/mandates/v1/${created.id}/cancel`, { token: otherToken })).status).toBe(404);
    expect(await eventsOf(created.id)).toEqual([
      { event: "mandate.registered", data: { mandate_id: created.id, status: "REGISTERED" } },
      { event: "mandate.cancelled", data: { mandate_id: created.id, status: "CANCELLED" } },
    ]);

    // The worker tells the exchange about the cancellation.
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect
        .poll(async () => (await app.prisma.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind: "MANDATE", reference: created.id } } }))?.status, { timeout: 10_000 })
        .toBe("CANCELLED");
    } finally {
      await worker.stop();
    }

    const other = (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) })).body;
    expect((await app.http("GET", `/api/simulation/mandates/v1/${other.id}/reject?remark=ACCOUNT%20CLOSED`, { token })).status).toBe(200);
    expect((await app.http("GET", `/api/mandates/v1/${other.id}`, { token })).body).toMatchObject({ status: "REJECTED", provider_remark: "ACCOUNT CLOSED" });
    expect(await eventsOf(other.id)).toEqual([{ event: "mandate.rejected", data: { mandate_id: other.id, status: "REJECTED" } }]);
  });

  it("auth_url: an ENACH mandate at the sandbox exchange answers the bank approval's simulation URL while PENDING; null before, for PHYSICAL and once decided", async () => {
    const investor = await registeredInvestor(app, token);
    const enach = (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) })).body;
    expect(enach.auth_url).toBeNull();
    await runTask(app, registerMandate, { mandate_id: enach.id });
    const pending = await app.http("GET", `/api/mandates/v1/${enach.id}`, { token });
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      ...enach,
      exchange_mandate_id: expect.stringMatching(/^SBX/),
      provider_remark: "SANDBOX: AWAITING SIMULATION",
      auth_url: `${app.baseUrl}/api/simulation/mandates/v1/${enach.id}/register`,
      updated_at: expect.any(String),
    });
    // The URL is the simulation call itself: the distributor's token approves the mandate through it.
    expect((await app.http("GET", new URL(pending.body.auth_url).pathname, { token })).status).toBe(200);
    expect((await app.http("GET", `/api/mandates/v1/${enach.id}`, { token })).body).toMatchObject({ status: "REGISTERED", auth_url: null });

    const physical = (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, { mandate_type: "PHYSICAL" }) })).body;
    await runTask(app, registerMandate, { mandate_id: physical.id });
    expect((await app.http("GET", `/api/mandates/v1/${physical.id}`, { token })).body).toMatchObject({ status: "PENDING", exchange_mandate_id: expect.stringMatching(/^SBX/), auth_url: null });
  });

  it("replay the first response for a repeated Idempotency-Key", async () => {
    const investor = await registeredInvestor(app, token);
    const headers = { "idempotency-key": `mdt-${Date.now()}` };
    const first = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor), headers });
    const repeat = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor), headers });
    expect(repeat.body).toEqual(first.body);
    expect(await app.prisma.mandate.count({ where: { investorId: investor.id } })).toBe(1);
    expect((await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, { amount_limit: 1 }), headers })).status).toBe(409);
  });
});
