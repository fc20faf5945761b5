import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { registeredInvestor } from "../helpers/investors.js";
import { createScheme, orderingInvestor } from "../helpers/orders.js";
import { seedPosition } from "../helpers/portfolio.js";

// pg 8.19+ warns (and pg 9 will fail) when a client is asked a query while one is running, which Prisma's interpreter
// does inside an interactive transaction for a read with several relations (prisma/orm#29979): the servicing paths
// read an investor with its accounts in transactions, so they must not include several relations at once.
const app = useTestApp();
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(() => {
  process.on("warning", onWarning);
});
afterAll(() => {
  process.off("warning", onWarning);
});

describe("no query is sent on a busy connection", () => {
  it("creating, changing and opting out an investor, and placing its order, warn nothing", async () => {
    const { token } = await app.newDistributor();
    const investor = await registeredInvestor(app, token, investorBody({ nominees: [] }));
    const patched = await app.http("PATCH", `/api/investors/v1/${investor.id}`, {
      token, headers: { "Idempotency-Key": "cq-1" }, json: { occupation: "BUSINESS" },
    });
    expect(patched.status).toBe(200);
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/apply-change`, { token })).status).toBe(200);
    expect((await app.http("POST", `/api/investors/v1/${investor.id}/nomination-opt-out`, { token, headers: { "Idempotency-Key": "cq-2" } })).status).toBe(201);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes("already executing a query"))).toEqual([]);
  });

  it("placing a redemption judges the folio's locked units without a query on a busy connection", async () => {
    await createScheme(app, "972001", { category: "Equity Scheme - ELSS", nav: "70.0000", navDate: new Date("2026-11-20") });
    const ctx = await orderingInvestor(app);
    const { distributorId, panHash } = await app.prisma.investor.findUniqueOrThrow({ where: { id: ctx.investorId }, select: { distributorId: true, panHash: true } });
    await seedPosition(app, {
      distributorId, panHash, folioNo: "CQ/1", schemeCode: "972001", units: "10.000", nav: "70.0000",
      // Bought last month: every unit locked, so the refusal shows the lock-in was judged.
      txns: [{ txnNo: "CQ1", type: "PURCHASE", tradeDate: "2026-10-16", units: "10.000", amountPaise: 50000n }],
    });
    const placed = await app.http("POST", "/api/orders/v1/", {
      token: ctx.token, json: { investment_account_id: ctx.account, order_type: "REDEMPTION", scheme_code: "972001", folio_no: "CQ/1", units: 1 },
    });
    expect(placed.status, placed.text).toBe(400);
    expect(placed.body.error.details.map((d: { reason: string }) => d.reason)).toEqual(["units_locked"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes("already executing a query"))).toEqual([]);
  });
});
