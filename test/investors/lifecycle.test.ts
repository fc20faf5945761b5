import { beforeAll, describe, expect, it } from "vitest";
import { findInvestorById } from "../../src/domains/investors/investors.repo.js";
import { registerInvestor } from "../../src/domains/investors/jobs/register.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { investorBody } from "../helpers/factories.js";
import { pendingInvestor, twoDistributors } from "../helpers/investors.js";
import { UNREACHED_BSE_ENV } from "../helpers/bse-double/double.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const eventsOf = (investorId: string) =>
  app.prisma.event.findMany({ where: { resourceId: investorId }, orderBy: { createdAt: "asc" }, select: { event: true, data: true, resourceType: true } });


describe("reading investors", () => {
  it("GET answers the masked record; another distributor's id and an unknown id are 404", async () => {
    const { id, pan } = await pendingInvestor(app, token);
    const res = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect(res.body.primary_holder.pan).toBe(`${pan.slice(0, 2)}XXXXX${pan.slice(-3)}`);
    expect(res.text).not.toContain(pan);
    for (const [path, t] of [[`/api/investors/v1/${id}`, otherToken], ["/api/investors/v1/inv_nope", token]] as const) {
      const missing = await app.http("GET", path, { token: t });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe("NOT_FOUND");
    }
  });

  it("lists newest first with a cursor and a status filter, only the caller's own", async () => {
    const d = await app.newDistributor();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await pendingInvestor(app, d.token)).id);
    }
    const first = await app.http("GET", "/api/investors/v1?limit=2", { token: d.token });
    expect(first.body.data.map((i: { id: string }) => i.id)).toEqual([ids[4], ids[3]]);
    expect(first.body.data[0]).toEqual({
      id: ids[4], status: "PENDING", client_ref: null, pan: expect.stringMatching(/^[A-Z]{2}XXXXX\d{2}[A-Z]$/), name: "Asha Rao",
      tax_status: "INDIVIDUAL", holding_type: "SINGLE", investment_account_id: expect.stringMatching(/^iac_/), created_at: expect.any(String),
    });
    const second = await app.http("GET", `/api/investors/v1?limit=2&cursor=${first.body.next_cursor}`, { token: d.token });
    expect(second.body.data.map((i: { id: string }) => i.id)).toEqual([ids[2], ids[1]]);
    const third = await app.http("GET", `/api/investors/v1?limit=2&cursor=${second.body.next_cursor}`, { token: d.token });
    expect(third.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    expect((await app.http("GET", "/api/investors/v1?status=REGISTERED", { token: d.token })).body.data).toEqual([]);
    expect((await app.http("GET", "/api/investors/v1?status=WAITING", { token: d.token })).status).toBe(400);
    expect((await app.http("GET", "/api/investors/v1?cursor=xyz", { token: d.token })).status).toBe(400);
  });
});

describe("registration with the exchange", () => {
  it("the register job sends the UCC; the sandbox keeps it PENDING until simulated; running it twice changes nothing", async () => {
    const { id } = await pendingInvestor(app, token);
    await runTask(app, registerInvestor, { investor_id: id });
    await runTask(app, registerInvestor, { investor_id: id });
    const investor = await findInvestorById(app.prisma, id);
    expect(investor).toMatchObject({ status: "PENDING", providerRemark: "SANDBOX: AWAITING SIMULATION" });
    const record = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC", reference: investor!.uccCode } } });
    expect(JSON.stringify(record.payload)).not.toMatch(/[A-Z]{5}\d{4}[A-Z]/);
    expect(record.payload).toMatchObject({ taxStatus: "01", holdingNature: "SI", occupation: "02", clientType: "P", fatca: { incomeSlab: "34", pep: "N" } });
    expect(await eventsOf(id)).toEqual([]);
  });

  it("simulation register moves PENDING to REGISTERED with exactly one investor.registered event", async () => {
    const { id } = await pendingInvestor(app, token);
    const res = await app.http("GET", `/api/simulation/investors/v1/${id}/register`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Investor registered", data: id });
    const investor = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(investor.body).toMatchObject({ status: "REGISTERED", provider_remark: "SANDBOX: UCC REGISTERED" });
    expect(await eventsOf(id)).toEqual([
      { event: "investor.registered", resourceType: "investor", data: { investor_id: id, status: "REGISTERED", provider_remark: "SANDBOX: UCC REGISTERED" } },
    ]);

    // A later dispatch or sync of the same outcome writes nothing more; registering again is already done,
    // rejecting a registered investor is a move the state table does not allow.
    await runTask(app, registerInvestor, { investor_id: id });
    const again = await app.http("GET", `/api/simulation/investors/v1/${id}/register`, { token });
    expect([again.status, again.body]).toEqual([200, { success: true, message: "Investor already registered", data: id }]);
    const refused = await app.http("GET", `/api/simulation/investors/v1/${id}/reject`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({ code: "INVALID_STATE", message: `Investor ${id} is REGISTERED; only a PENDING one can be rejected` });
    expect(await eventsOf(id)).toHaveLength(1);
  });

  it("simulation reject records the remark given and one investor.rejected event", async () => {
    const { id } = await pendingInvestor(app, token);
    const res = await app.http("GET", `/api/simulation/investors/v1/${id}/reject?remark=${encodeURIComponent("PAN NOT KYC COMPLIANT")}`, { token });
    expect(res.status).toBe(200);
    expect((await app.http("GET", `/api/investors/v1/${id}`, { token })).body).toMatchObject({ status: "REJECTED", provider_remark: "PAN NOT KYC COMPLIANT" });
    expect(await eventsOf(id)).toEqual([
      { event: "investor.rejected", resourceType: "investor", data: { investor_id: id, status: "REJECTED", provider_remark: "PAN NOT KYC COMPLIANT" } },
    ]);
  });

  it("simulation needs the caller's own investor and a token", async () => {
    const { id } = await pendingInvestor(app, token);
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/register`, { token: otherToken })).status).toBe(404);
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/register`)).status).toBe(401);
    expect((await app.http("GET", `/api/investors/v1/${id}`, { token })).body.status).toBe("PENDING");
  });

  it("sync asks the exchange through jobs and applies what it now says", async () => {
    const { id } = await pendingInvestor(app, token);
    const investor = await findInvestorById(app.prisma, id);
    // The exchange registers the client on its side (as it would after its own checks).
    await app.services.sandboxExchange!.set("UCC", investor!.uccCode, "REGISTERED", "CLIENT REGISTERED SUCCESSFULLY");
    const res = await app.http("POST", "/api/investors/v1/sync", { token, json: { investor_id: id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pending: 1, queued: 1 });
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(async () => (await app.http("GET", `/api/investors/v1/${id}`, { token })).body.status, { timeout: 10_000 }).toBe("REGISTERED");
    } finally {
      await worker.stop();
    }
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(["investor.registered"]);
    expect((await app.http("POST", "/api/investors/v1/sync", { token: otherToken, json: { investor_id: id } })).status).toBe(404);
    expect((await app.http("POST", "/api/investors/v1/sync", { token, json: { investor_id: id, force: true } })).status).toBe(400);
  });
});

describe("with MF_SANDBOX_AUTO_REGISTER=1", () => {
  const auto = useTestApp({ MF_SANDBOX_AUTO_REGISTER: "1" });

  it("the worker registers a new investor on dispatch, with one event", async () => {
    const d = await auto.newDistributor();
    const res = await auto.http("POST", "/api/investors/v1", { token: d.token, json: investorBody() });
    const worker = await startWorker(auto.services, auto.databaseUrl);
    try {
      await expect.poll(async () => (await auto.http("GET", `/api/investors/v1/${res.body.id}`, { token: d.token })).body.status, { timeout: 10_000 }).toBe("REGISTERED");
    } finally {
      await worker.stop();
    }
    expect(await auto.prisma.event.count({ where: { resourceId: res.body.id, event: "investor.registered" } })).toBe(1);
  });
});

describe("in production", () => {
  const production = useTestApp({ MF_ENV: "production", MF_DATA_KEY: "ab".repeat(32), ...UNREACHED_BSE_ENV });

  it("the simulation routes do not exist", async () => {
    const d = await production.newDistributor();
    const created = await production.http("POST", "/api/investors/v1", { token: d.token, json: investorBody() });
    expect(created.status).toBe(201);
    const res = await production.http("GET", `/api/simulation/investors/v1/${created.body.id}/register`, { token: d.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
  });
});
