import { beforeAll, describe, expect, it } from "vitest";
import { todayInIndia } from "../../src/platform/lib/india-date.js";
import { useTestApp } from "../helpers/app.js";
import { createScheme, orderingInvestor, today } from "../helpers/orders.js";
import { seedPosition } from "../helpers/portfolio.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;
const year = Number(todayInIndia().slice(0, 4));

beforeAll(async () => {
  await createScheme(app, "971001", { category: "Equity Scheme - ELSS", nav: "70.0000", navDate: new Date("2026-11-20") });
  await createScheme(app, "971002", { name: "Target Scheme" });
  ctx = await orderingInvestor(app);
  const { distributorId, panHash } = await app.prisma.investor.findUniqueOrThrow({ where: { id: ctx.investorId }, select: { distributorId: true, panHash: true } });
  // 10 units bought four years ago (free), 5 a year ago (locked for two more years).
  await seedPosition(app, {
    distributorId, panHash, folioNo: "ELSS/1", schemeCode: "971001", units: "15.000", nav: "70.0000",
    txns: [
      { txnNo: "L1", type: "PURCHASE", tradeDate: `${year - 4}-03-15`, units: "10.000", amountPaise: 50000n },
      { txnNo: "L2", type: "SIP", tradeDate: `${year - 1}-03-15`, units: "5.000", amountPaise: 30000n },
    ],
  });
  // 15 units of which the transactions explain only the 5 locked ones: not judged.
  await seedPosition(app, {
    distributorId, panHash, folioNo: "ELSS/2", schemeCode: "971001", units: "15.000", nav: "70.0000",
    txns: [{ txnNo: "M1", type: "SIP", tradeDate: `${year - 1}-03-15`, units: "5.000", amountPaise: 30000n }],
  });
});

const place = (overrides: Record<string, unknown>) =>
  app.http("POST", "/api/orders/v1/", { token: ctx.token, json: { investment_account_id: ctx.account, order_type: "REDEMPTION", scheme_code: "971001", ...overrides } });

const state = `folio ELSS/1 has 10.000 free units of 971001; 5.000 are locked in, the next lot unlocking on ${year + 2}-03-15`;

describe("placement refuses locked units", () => {
  it("refuses more units, a larger amount or all units while some are locked, with the free units and the next unlock date, writing nothing", async () => {
    const before = await app.prisma.order.count();
    const cases = [
      [{ folio_no: "ELSS/1", units: 10.001 }, "units", `${state}: ask for at most the free units`],
      [{ folio_no: "ELSS/1", amount: 700.01 }, "amount", `${state}, worth 700.00 at NAV 70.0000: ask for at most that`],
      [{ folio_no: "ELSS/1", all_units: true }, "all_units", `${state}: ask for at most the free units`],
      [{ order_type: "SWITCH", folio_no: "ELSS/1", units: 12, switch: { to_scheme_code: "971002" } }, "units", `${state}: ask for at most the free units`],
      // An SWP's installment (and an STP's) is judged against the free units too.
      [{ order_type: "SWP", folio_no: "ELSS/1", units: 10.5, swp: { frequency: "WEEKLY", start_date: today(), installments: 2 } }, "units", `${state}: ask for at most the free units`],
    ] as const;
    for (const [body, path, message] of cases) {
      const res = await place(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details).toEqual([{ path, reason: "units_locked", message }]);
    }
    expect(await app.prisma.order.count()).toBe(before);
  });

  it("accepts up to the free units, and an amount up to their value", async () => {
    expect((await place({ folio_no: "ELSS/1", units: 10 })).status).toBe(201);
    expect((await place({ folio_no: "ELSS/1", amount: 700 })).status).toBe(201);
  });

  it("does not refuse on a guess where the transactions do not explain the balance", async () => {
    expect((await place({ folio_no: "ELSS/2", units: 15 })).status).toBe(201);
  });
});
