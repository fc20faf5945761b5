import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type WorkerHandle } from "../../src/worker.js";
import { useTestApp, type TestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";

/**
 * A sandbox tester creates an investor (or mandate) and calls the register simulation at once, while the
 * worker sends the same registration to the sandbox exchange: whoever applies the answer first, a
 * simulation that ends in the requested state answers success, with one event.
 */
const ROUNDS = 8;

function withWorker(app: TestApp) {
  let worker: WorkerHandle | undefined;
  beforeAll(async () => {
    worker = await startWorker(app.services, app.databaseUrl);
  });
  afterAll(async () => {
    await worker?.stop();
  });
}

const eventsOf = (app: TestApp, id: string) =>
  app.prisma.event.findMany({ where: { resourceId: id }, orderBy: { id: "asc" }, select: { event: true } }).then((rows) => rows.map((r) => r.event));

async function createThenSimulate(app: TestApp, token: string, move: "register" | "reject") {
  const created = await app.http("POST", "/api/investors/v1", { token, json: investorBody() });
  expect(created.status).toBe(201);
  const res = await app.http("GET", `/api/simulation/investors/v1/${created.body.id}/${move}`, { token });
  return { id: created.body.id as string, bankAccountId: created.body.bank_accounts[0].id as string, res };
}

/** Waits until every registration job has run (graphile-worker deletes a job once it has succeeded). */
async function registrationJobsDone(app: TestApp) {
  await expect
    .poll(async () => {
      const rows = await app.prisma.$queryRawUnsafe<Array<{ left: number }>>(
        `SELECT count(*)::int AS left FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
          WHERE t.identifier IN ('investors__register', 'mandates__register')`,
      );
      return rows[0]!.left;
    }, { timeout: 10_000 })
    .toBe(0);
}

for (const [name, env] of [["simulation-driven", {}], ["MF_SANDBOX_AUTO_REGISTER=1", { MF_SANDBOX_AUTO_REGISTER: "1" }]] as const) {
  describe(`register right after creation, worker running (${name})`, () => {
    const app = useTestApp(env);
    withWorker(app);

    it("investors: every call answers success, the investor ends REGISTERED with one investor.registered", async () => {
      const { token } = await app.newDistributor();
      const results = await Promise.all(Array.from({ length: ROUNDS }, () => createThenSimulate(app, token, "register")));
      for (const { id, res } of results) {
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({ success: true, data: id, message: expect.stringMatching(/^Investor (already )?registered$/) });
      }
      await registrationJobsDone(app);
      for (const { id } of results) {
        expect((await app.http("GET", `/api/investors/v1/${id}`, { token })).body.status).toBe("REGISTERED");
        expect(await eventsOf(app, id)).toEqual(["investor.registered"]);
      }
    });

    it("mandates: every call answers success, the mandate ends REGISTERED with one mandate.registered", async () => {
      const { token } = await app.newDistributor();
      const investor = (await app.http("POST", "/api/investors/v1", { token, json: investorBody() })).body;
      expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/register`, { token })).status).toBe(200);
      await registrationJobsDone(app);
      const results = await Promise.all(
        Array.from({ length: ROUNDS }, async () => {
          const created = await app.http("POST", "/api/mandates/v1", {
            token,
            json: { investor_id: investor.id, bank_account_id: investor.bank_accounts[0].id, mandate_type: "ENACH", amount_limit: 1000, start_date: "2099-01-01" },
          });
          expect(created.status, created.text).toBe(201);
          return { id: created.body.id as string, res: await app.http("GET", `/api/simulation/mandates/v1/${created.body.id}/register`, { token }) };
        }),
      );
      for (const { id, res } of results) {
        expect(res.status, res.text).toBe(200);
        expect(res.body).toMatchObject({ success: true, data: id, message: expect.stringMatching(/^Mandate (already )?registered$/) });
      }
      await registrationJobsDone(app);
      for (const { id } of results) {
        expect((await app.http("GET", `/api/mandates/v1/${id}`, { token })).body.status).toBe("REGISTERED");
        expect(await eventsOf(app, id)).toEqual(["mandate.registered"]);
      }
    });
  });
}

describe("reject right after creation, worker running (simulation-driven)", () => {
  const app = useTestApp();
  withWorker(app);

  it("every call answers success; the investor ends REJECTED with the remark given and one investor.rejected", async () => {
    const { token } = await app.newDistributor();
    const results = await Promise.all(
      Array.from({ length: ROUNDS }, async () => {
        const created = await app.http("POST", "/api/investors/v1", { token, json: investorBody() });
        return { id: created.body.id as string, res: await app.http("GET", `/api/simulation/investors/v1/${created.body.id}/reject?remark=PAN%20INVALID`, { token }) };
      }),
    );
    for (const { id, res } of results) {
      expect(res.status, res.text).toBe(200);
    }
    await registrationJobsDone(app);
    for (const { id } of results) {
      expect((await app.http("GET", `/api/investors/v1/${id}`, { token })).body).toMatchObject({ status: "REJECTED", provider_remark: "PAN INVALID" });
      expect(await eventsOf(app, id)).toEqual(["investor.rejected"]);
    }
  });
});

describe("with MF_SANDBOX_AUTO_REGISTER=1, the exchange has already registered", () => {
  const app = useTestApp({ MF_SANDBOX_AUTO_REGISTER: "1" });
  withWorker(app);

  it("reject is 409 INVALID_STATE and the exchange's books keep REGISTERED", async () => {
    const { token } = await app.newDistributor();
    const created = await app.http("POST", "/api/investors/v1", { token, json: investorBody() });
    const id = created.body.id as string;
    await expect.poll(async () => (await app.http("GET", `/api/investors/v1/${id}`, { token })).body.status, { timeout: 10_000 }).toBe("REGISTERED");
    const res = await app.http("GET", `/api/simulation/investors/v1/${id}/reject`, { token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("INVALID_STATE");
    const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id } });
    const record = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC", reference: uccCode } } });
    expect(record.status).toBe("REGISTERED");
    expect(await eventsOf(app, id)).toEqual(["investor.registered"]);
  });
});
