import { beforeAll, describe, expect, it } from "vitest";
import { todayInIndia } from "../../src/platform/lib/india-date.js";
import { xirr } from "../../src/domains/portfolio/xirr.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { pendingInvestor } from "../helpers/investors.js";
import { createScheme } from "../helpers/orders.js";
import { seedPosition } from "../helpers/portfolio.js";

const app = useTestApp();
const body = investorBody();
let token: string;
let investorId: string;
const year = Number(todayInIndia().slice(0, 4));
// ELSS lots: one bought four years ago (free), one a year ago (locked until two years from now).
const oldLot = `${year - 4}-03-15`;
const recentLot = `${year - 1}-03-15`;

beforeAll(async () => {
  await createScheme(app, "970001", { category: "Equity Scheme - Large Cap Fund", nav: "13.0000" });
  await createScheme(app, "970002", { category: "Equity Scheme - ELSS", nav: "70.0000" });
  await createScheme(app, "970003", { category: "Debt Scheme - Liquid Fund", nav: "10.5000" });
  ({ token } = await app.newDistributor());
  investorId = (await pendingInvestor(app, token, body)).id;
  const { distributorId, panHash } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investorId }, select: { distributorId: true, panHash: true } });
  const base = { distributorId, panHash, navDate: "2026-11-20" };
  // FIFO across two lots: the redemption of 120 takes all of T1 and 20 of T2's 50.
  await seedPosition(app, {
    ...base, folioNo: "F-A", schemeCode: "970001", units: "30.000", nav: "13.0000", marketValue: "390.00",
    txns: [
      { txnNo: "A1", type: "PURCHASE", tradeDate: "2024-01-01", units: "100.000", amountPaise: 100000n, stampDutyPaise: 5n },
      { txnNo: "A2", type: "PURCHASE", tradeDate: "2025-01-01", units: "50.000", amountPaise: 60000n, stampDutyPaise: 3n },
      { txnNo: "A3", type: "REDEMPTION", tradeDate: "2025-06-01", units: "120.000", amountPaise: 150000n },
    ],
  });
  await seedPosition(app, {
    ...base, folioNo: "F-B", schemeCode: "970002", units: "15.000", nav: "70.0000", marketValue: "1050.00",
    txns: [
      { txnNo: "B1", type: "PURCHASE", tradeDate: oldLot, units: "10.000", amountPaise: 50000n, stampDutyPaise: 3n },
      { txnNo: "B2", type: "SIP", tradeDate: recentLot, units: "5.000", amountPaise: 30000n, stampDutyPaise: 2n },
    ],
  });
  // 40 units held, only 10 of them explained by a transaction.
  await seedPosition(app, {
    ...base, folioNo: "F-C", schemeCode: "970003", units: "40.000", nav: "10.5000", marketValue: "420.00",
    txns: [{ txnNo: "C1", type: "PURCHASE", tradeDate: "2026-10-01", units: "10.000", amountPaise: 10000n, stampDutyPaise: 1n }],
  });
});

const figures = (h: Record<string, unknown>) => ({
  cost_value: h.cost_value, average_nav: h.average_nav, unrealised_gain: h.unrealised_gain, xirr: h.xirr, locked_units: h.locked_units,
  free_units: h.free_units, undetermined_units: h.undetermined_units, next_unlock_date: h.next_unlock_date, lots_complete: h.lots_complete, lots_note: h.lots_note,
});

describe("holdings with cost, return and locked units", () => {
  it("gives each position its FIFO cost, average NAV, gain, XIRR and locked/free units, and the summary its totals", async () => {
    const res = await app.http("GET", `/api/investors/v1/${investorId}/holdings`, { token });
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.holdings;
    // 30 of T2's 50 units: 600.03 x 30/50 = 360.018, half-even 360.02; spreadsheet XIRR of the flows 0.132614.
    expect(figures(a)).toEqual({
      cost_value: 360.02, average_nav: 12.0007, unrealised_gain: 29.98, xirr: 0.132614, locked_units: 0, free_units: 30,
      undetermined_units: 0, next_unlock_date: null, lots_complete: true, lots_note: null,
    });
    const elssXirr = xirr([
      { date: oldLot, amountPaise: -50003n }, { date: recentLot, amountPaise: -30002n }, { date: "2026-11-20", amountPaise: 105000n },
    ]);
    expect(figures(b)).toEqual({
      cost_value: 800.05, average_nav: 53.3367, unrealised_gain: 249.95, xirr: Number(elssXirr!.toFixed(6)), locked_units: 5, free_units: 10,
      undetermined_units: 0, next_unlock_date: `${year + 2}-03-15`, lots_complete: true, lots_note: null,
    });
    expect(figures(c)).toMatchObject({
      cost_value: 100.01, average_nav: 10.001, unrealised_gain: 4.99, locked_units: 0, free_units: 40, undetermined_units: 0, lots_complete: false,
      lots_note: "30.000 units were held before the transactions we have; their date and cost are unknown, so cost, gain and XIRR leave them out",
    });
    expect(res.body.summary).toMatchObject({ cost_value: 1260.08, current_value: 1545, unrealised_gain: 284.92, lots_complete: false });
    expect(typeof res.body.summary.xirr).toBe("number");
  });

  it("gives the PAN lookup the same figures", async () => {
    const investor = await app.http("GET", `/api/investors/v1/${investorId}/holdings`, { token });
    const lookup = await app.http("POST", "/api/holdings/v1/lookup", { token, json: { pan: body.primary_holder.pan } });
    expect(lookup.status).toBe(200);
    expect(lookup.body.holdings).toEqual(investor.body.holdings);
    expect(lookup.body.summary).toEqual(investor.body.summary);
  });

  it("shows a position with no transactions as all opening units: no cost, no gain, no XIRR, lock-in undetermined for ELSS", async () => {
    const { distributorId, panHash } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investorId }, select: { distributorId: true, panHash: true } });
    await seedPosition(app, { distributorId, panHash, folioNo: "F-D", schemeCode: "970002", units: "7.000", nav: "70.0000", navDate: "2026-11-20", marketValue: "490.00", txns: [] });
    const res = await app.http("GET", `/api/investors/v1/${investorId}/holdings`, { token });
    expect(figures(res.body.holdings.find((h: { folio_no: string }) => h.folio_no === "F-D"))).toEqual({
      cost_value: null, average_nav: null, unrealised_gain: null, xirr: null, locked_units: 0, free_units: 0, undetermined_units: 7,
      next_unlock_date: null, lots_complete: false,
      lots_note: "No transactions of this position yet: 7.000 units were held before the transactions we have; their date and cost are unknown, so cost, gain and XIRR leave them out",
    });
    expect(res.body.summary).toMatchObject({ cost_value: 1260.08, current_value: 1545, unrealised_gain: 284.92 });
  });
});
