import { beforeAll, describe, expect, it } from "vitest";
import { preparedStatementNames } from "../../src/platform/db/statement-names.js";
import { useTestApp } from "../helpers/app.js";
import { createRuleSchemes, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";
import { restoreStatementsAfterEach, statementsWhile } from "../helpers/pg-statements.js";

// Statements go to PostgreSQL as named prepared statements, parsed and planned once per connection (issue 28
// point 6): what pg is asked, recorded at Client.query as test/orders/place-statements.test.ts does.
const app = useTestApp();
let token = "";
let account = "";

beforeAll(async () => {
  await createRuleSchemes(app);
  ({ token, account } = await orderingInvestor(app));
});

restoreStatementsAfterEach();

describe("prepared statement names", () => {
  it("one name per distinct text, the same one every time; past the limit new texts go unnamed", () => {
    const names = preparedStatementNames(2);
    expect(names({ sql: "SELECT 1" })).toBe("mf_1");
    expect(names({ sql: "SELECT 2" })).toBe("mf_2");
    expect(names({ sql: "SELECT 1" })).toBe("mf_1");
    expect(names({ sql: "SELECT 3" })).toBe("");
    expect(names({ sql: "SELECT 2" })).toBe("mf_2");
  });

  it("a placement then two GETs of its order send named statements, the GET's under one name both times", async () => {
    const placed = await statementsWhile(() => app.http("POST", "/api/orders/v1/", { token, json: { investment_account_id: account, ...lumpsumOrder("900001") } }));
    expect(placed.length).toBeGreaterThan(0);
    for (const statement of placed) expect(statement.name, statement.text).toMatch(/^mf_\d+$/);
    const id = (await app.prisma.order.findFirstOrThrow({ orderBy: { createdAt: "desc" } })).id;
    const reads = await statementsWhile(async () => {
      expect((await app.http("GET", `/api/orders/v1/${id}`, { token })).status).toBe(200);
      expect((await app.http("GET", `/api/orders/v1/${id}`, { token })).status).toBe(200);
    });
    const views = reads.filter((s) => s.text.includes("FROM order_pauses"));
    expect(views).toHaveLength(2);
    expect(views[0]!.name).toMatch(/^mf_\d+$/);
    expect(views[1]!.name).toBe(views[0]!.name);
  });
});
