import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs } from "../helpers/jobs.js";
import { restoreStatementsAfterEach, statementsWhile } from "../helpers/pg-statements.js";
import { createRuleSchemes, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";

// What placement costs the database (issue 15): the statements one placement sends, recorded at pg's
// Client.query (Prisma's adapter sends every statement through it).
const app = useTestApp();
let token = "";
let account = "";

beforeAll(async () => {
  await createRuleSchemes(app);
  ({ token, account } = await orderingInvestor(app));
});

restoreStatementsAfterEach();

/** The statements sent while `run` runs, whitespace collapsed. */
const statementsOf = async (run: () => Promise<unknown>): Promise<string[]> => (await statementsWhile(run)).map((s) => s.text);

const place = (json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.http("POST", "/api/orders/v1/", { token, headers, json: { investment_account_id: account, ...lumpsumOrder("900001", json) } });

describe("the statements of a placement", () => {
  it("without an Idempotency-Key: one read of account, investor, bank accounts and scheme, one statement writing the order, then its job; no transaction", async () => {
    expect((await place({})).status).toBe(201); // warms the caller's token cache
    let response: Awaited<ReturnType<typeof place>> | undefined;
    const statements = await statementsOf(async () => (response = await place({})));
    expect(response!.status).toBe(201);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/^SELECT .* FROM \(SELECT 1\) AS one LEFT JOIN \(investment_accounts a JOIN investors i .* LEFT JOIN schemes s /);
    expect(statements[0]).toContain("FROM bank_accounts b");
    expect(statements[1]).toMatch(/^INSERT INTO orders .* ON CONFLICT DO NOTHING RETURNING /);
    expect(statements[1]).not.toContain("graphile_worker");
    expect(statements[2]).toMatch(/^SELECT added\.key FROM graphile_worker\.add_jobs\(/);
    expect(await queuedJobs(app, "orders__dispatch", "order_id", response!.body.id)).toHaveLength(1);
  });

  it("with a client_ref: the distributor's orders are asked for it first, so a repeat is answered before any rule", async () => {
    let response: Awaited<ReturnType<typeof place>> | undefined;
    const statements = await statementsOf(async () => (response = await place({ client_ref: "stmt-1" })));
    expect(response!.status).toBe(201);
    expect(statements).toHaveLength(4);
    expect(statements[0]).toMatch(/^SELECT .* FROM "public"\."orders" WHERE .*"client_ref"/);
    expect(statements[2]).toMatch(/^INSERT INTO orders /);
    expect(statements[3]).toMatch(/graphile_worker\.add_jobs\(/);
    const repeat = await statementsOf(async () => expect((await place({ client_ref: "stmt-1" })).body).toEqual(response!.body));
    expect(repeat).toHaveLength(1);
  });

  it("with an Idempotency-Key: the key claimed and its response stored in the transaction of the same two statements, the job added after its commit", async () => {
    let response: Awaited<ReturnType<typeof place>> | undefined;
    const statements = await statementsOf(async () => (response = await place({}, { "idempotency-key": "stmt-key-1" })));
    expect(response!.status).toBe(201);
    expect(statements[0]).toBe("BEGIN");
    expect(statements.at(-2)).toBe("COMMIT");
    expect(statements.at(-1)).toMatch(/^SELECT added\.key FROM graphile_worker\.add_jobs\(/);
    expect(statements.filter((s) => /FROM \(SELECT 1\) AS one|^INSERT INTO orders /.test(s))).toHaveLength(2);
    expect(statements.filter((s) => /idempotency_keys/.test(s)).length).toBeGreaterThanOrEqual(3);
    expect(await queuedJobs(app, "orders__dispatch", "order_id", response!.body.id)).toHaveLength(1);
    const repeat = await statementsOf(async () => expect((await place({}, { "idempotency-key": "stmt-key-1" })).body).toEqual(response!.body));
    expect(repeat.filter((s) => /graphile_worker/.test(s))).toEqual([]);
  });

  it("a refused order writes nothing and sends no write", async () => {
    const statements = await statementsOf(async () => expect((await place({ amount: 10 })).status).toBe(400));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^SELECT /);
  });
});
