import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp, type TestResponse } from "../helpers/app.js";
import { burstWithProbe, DEFAULT_POOL_SIZE, expectLive, statusCounts } from "../helpers/bursts.js";
import { investorBody } from "../helpers/factories.js";
import { queuedJobs } from "../helpers/jobs.js";

// The pool a deployment runs with: a burst of duplicates must neither exhaust it nor stall other requests.
const app = useTestApp({ MF_DB_POOL_SIZE: String(DEFAULT_POOL_SIZE) });
let token = "";
let probeInvestorId = "";

beforeAll(async () => {
  token = (await app.newDistributor()).token;
  probeInvestorId = (await create(investorBody())).body.id;
});

const create = (json: unknown, headers: Record<string, string> = {}) => app.http("POST", "/api/investors/v1", { token, json, headers });
const getProbeInvestor = () => app.http("GET", `/api/investors/v1/${probeInvestorId}`, { token });

const investorsWithPan = (pan: string) => app.prisma.investor.findMany({ where: { panHash: app.services.cipher.lookupHash(pan) } });
const registerJobs = async (investorId: string) => (await queuedJobs(app, "investors__register", "investor_id", investorId)).length;

/** One 201 with the investor, every other answer 409 CONFLICT naming it; one row, one registration job. */
async function expectOneInvestor(responses: TestResponse[], pan: string) {
  expect(statusCounts(responses)).toEqual({ 201: 1, 409: responses.length - 1 });
  const [row, ...others] = await investorsWithPan(pan);
  expect(others).toEqual([]);
  const id = row!.id;
  for (const res of responses) {
    if (res.status === 201) {
      expect(res.body).toMatchObject({ id, status: "PENDING", pan: `${pan.slice(0, 2)}XXXXX${pan.slice(-3)}` });
    } else {
      expect(res.body).toEqual({
        success: false,
        error: {
          code: "CONFLICT",
          message: `An investor with this PAN already exists: ${id}; use that investor`,
          details: [{ path: "primary_holder.pan", message: `already registered as ${id}`, reason: "pan_already_registered" }],
        },
        request_id: expect.any(String),
      });
    }
  }
  expect(await registerJobs(id)).toBe(1);
  expect(await app.prisma.investmentAccount.count({ where: { investorId: id } })).toBe(1);
  expect(await app.prisma.event.count({ where: { resourceId: id } })).toBe(0);
  return id;
}

describe("bursts of duplicate investors", () => {
  it("30 at once with one PAN: one 201, 29 409 CONFLICT naming the investor, one row", async () => {
    const body = investorBody();
    const burst = await burstWithProbe(app, { count: 30, gate: "investors", send: () => create(body), probe: getProbeInvestor });
    await expectOneInvestor(burst.responses, body.primary_holder.pan);
    expectLive(burst, probeInvestorId, "investors, one PAN");
  });

  it("30 at once with one PAN and 30 Idempotency-Keys: one 201, 29 409; only the creating key is kept", async () => {
    const body = investorBody();
    const burst = await burstWithProbe(app, {
      count: 30, gate: "investors", send: (i) => create({ ...body, client_ref: `pan-keys-${i}` }, { "idempotency-key": `pan-keys-${i}` }), probe: getProbeInvestor,
    });
    const id = await expectOneInvestor(burst.responses, body.primary_holder.pan);
    expectLive(burst, probeInvestorId, "investors, one PAN, 30 keys");
    const winner = burst.responses.findIndex((r) => r.status === 201);
    const keys = await app.prisma.idempotencyKey.findMany({ where: { key: { startsWith: "pan-keys-" } } });
    expect(keys.map((k) => k.key)).toEqual([`pan-keys-${winner}`]);
    expect(keys[0]!.responseStatus).toBe(201);
    expect((keys[0]!.responseBody as { id: string }).id).toBe(id);
  });

  it("30 at once with one Idempotency-Key: one investor, every answer the first one", async () => {
    const body = investorBody();
    const burst = await burstWithProbe(app, { count: 30, gate: "investors", send: () => create(body, { "idempotency-key": "one-key" }), probe: getProbeInvestor });
    expect(statusCounts(burst.responses)).toEqual({ 201: 30 });
    const [row, ...others] = await investorsWithPan(body.primary_holder.pan);
    expect(others).toEqual([]);
    for (const res of burst.responses) expect(res.body).toEqual(burst.responses[0]!.body);
    expect(burst.responses[0]!.body.id).toBe(row!.id);
    expect(await registerJobs(row!.id)).toBe(1);
    expectLive(burst, probeInvestorId, "investors, one Idempotency-Key");
  });
});
