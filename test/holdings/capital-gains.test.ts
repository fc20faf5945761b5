import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GAINS_BASIS } from "../../src/domains/holdings/capital-gains.service.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { pendingInvestor } from "../helpers/investors.js";
import { createScheme } from "../helpers/orders.js";
import { seedPosition, type SeedPosition } from "../helpers/portfolio.js";

const app = useTestApp();
let token: string;
let investorId: string;

beforeAll(async () => {
  await createScheme(app, "972001", { category: "Equity Scheme - Large Cap Fund" });
  await createScheme(app, "972002", { category: "Equity Scheme - ELSS" });
  await createScheme(app, "972003", { category: "Equity Scheme - Flexi Cap Fund" });
  await createScheme(app, "972004", { category: "Debt Scheme - Liquid Fund" });
  ({ token } = await app.newDistributor());
  investorId = (await pendingInvestor(app, token, investorBody())).id;
  const { distributorId, panHash } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investorId }, select: { distributorId: true, panHash: true } });
  const seed = (p: Omit<SeedPosition, "distributorId" | "panHash" | "nav">) => seedPosition(app, { distributorId, panHash, nav: null, ...p });
  // FIFO across two lots: the redemption of 120 takes all of A1 and 20 of A2's 50.
  await seed({
    folioNo: "F-A", schemeCode: "972001", units: "30.000",
    txns: [
      { txnNo: "A1", type: "PURCHASE", tradeDate: "2024-01-01", units: "100.000", amountPaise: 100000n, stampDutyPaise: 5n },
      { txnNo: "A2", type: "PURCHASE", tradeDate: "2025-01-01", units: "50.000", amountPaise: 60000n, stampDutyPaise: 3n },
      { txnNo: "A3", type: "REDEMPTION", tradeDate: "2025-06-01", units: "120.000", amountPaise: 150000n },
    ],
  });
  // ELSS, both lots out of their lock-in when sold; the 2017 lot grandfathered at the 31 January 2018 NAV.
  await seed({
    folioNo: "F-B", schemeCode: "972002", units: "3.000",
    txns: [
      { txnNo: "B1", type: "PURCHASE", tradeDate: "2017-06-10", units: "10.000", amountPaise: 40000n },
      { txnNo: "B2", type: "SIP", tradeDate: "2022-04-15", units: "5.000", amountPaise: 30000n },
      { txnNo: "B3", type: "REDEMPTION", tradeDate: "2025-08-01", units: "12.000", amountPaise: 120000n },
    ],
  });
  await app.prisma.navHistory.create({ data: { schemeCode: "972002", navDate: new Date("2018-01-31"), nav: "45.0000" } });
  // Bought before 2018 with no 31 January 2018 NAV known; sold to nothing (the registrar reports no position).
  await app.prisma.holdingTransaction.createMany({
    data: [
      { txnNo: "C1", type: "PURCHASE", tradeDate: new Date("2016-05-05"), units: "5.000", amountPaise: 10000n },
      { txnNo: "C2", type: "SWP", tradeDate: new Date("2026-01-10"), units: "5.000", amountPaise: 25000n },
    ].map((t) => ({ ...t, registrarTypeCode: "X", distributorId, registrar: "CAMS", amcCode: "TEST_AMC", folioNo: "F-C", registrarSchemeCode: "T972003", schemeCode: "972003", schemeName: "Test Scheme 972003", panHash, feedFileId: "hff_test", stampDutyPaise: 0n })),
  });
  // Debt bought after 1 April 2023: specified, always short term. Its first sale is in the year before.
  await seed({
    folioNo: "F-D", schemeCode: "972004", units: "0.000",
    txns: [
      { txnNo: "D1", type: "PURCHASE", tradeDate: "2023-05-01", units: "20.000", amountPaise: 200000n },
      { txnNo: "D2", type: "REDEMPTION", tradeDate: "2024-06-01", units: "10.000", amountPaise: 105000n },
      { txnNo: "D3", type: "REDEMPTION", tradeDate: "2025-05-01", units: "10.000", amountPaise: 110000n },
    ],
  });
  // 5 units held before the history are sold first (FIFO): their date and cost are unknown, never guessed.
  await seed({
    folioNo: "F-E", schemeCode: "972001", units: "5.000",
    txns: [
      { txnNo: "E1", type: "REDEMPTION", tradeDate: "2024-09-01", units: "5.000", amountPaise: 60000n },
      { txnNo: "E2", type: "PURCHASE", tradeDate: "2024-10-01", units: "5.000", amountPaise: 55000n },
    ],
  });
});

const line = (folio: string, scheme: string, sale: [string, string, string], lot: [string, string], units: number, saleValue: number, cost: number, gf: [number, string], days: number, term: string, gain: number, taxClass = "EQUITY_ORIENTED", note: string | null = null) => ({
  registrar: "CAMS", folio_no: folio, scheme_code: scheme, scheme_name: `Test Scheme ${scheme}`, sale_txn_no: sale[0], sale_type: sale[1], sale_date: sale[2],
  lot_source: "LOT", lot_txn_no: lot[0], purchase_date: lot[1], units, sale_value: saleValue, cost, grandfathered_cost: gf[0], grandfathering: gf[1],
  holding_days: days, tax_class: taxClass, term, gain, note,
});

const EXPECTED_LINES = [
  line("F-D", "972004", ["D3", "REDEMPTION", "2025-05-01"], ["D1", "2023-05-01"], 10, 1100, 1000, [1000, "NOT_APPLICABLE"], 731, "SHORT", 100, "SPECIFIED"),
  line("F-A", "972001", ["A3", "REDEMPTION", "2025-06-01"], ["A1", "2024-01-01"], 100, 1250, 1000.05, [1000.05, "NOT_APPLICABLE"], 517, "LONG", 249.95),
  // 20 of A2's 50 units: 600.03 x 20/50 = 240.012, 240.01.
  line("F-A", "972001", ["A3", "REDEMPTION", "2025-06-01"], ["A2", "2025-01-01"], 20, 250, 240.01, [240.01, "NOT_APPLICABLE"], 151, "SHORT", 9.99),
  // Higher of 400.00 and the lower of 45.0000 x 10 = 450.00 and 1000.00.
  line("F-B", "972002", ["B3", "REDEMPTION", "2025-08-01"], ["B1", "2017-06-10"], 10, 1000, 400, [450, "APPLIED"], 2974, "LONG", 550),
  line("F-B", "972002", ["B3", "REDEMPTION", "2025-08-01"], ["B2", "2022-04-15"], 2, 200, 120, [120, "NOT_APPLICABLE"], 1204, "LONG", 80),
  line("F-C", "972003", ["C2", "SWP", "2026-01-10"], ["C1", "2016-05-05"], 5, 250, 100, [100, "NAV_UNKNOWN"], 3537, "LONG", 150, "EQUITY_ORIENTED",
    "the 31 January 2018 NAV is not known: grandfathering could not be applied"),
];

const EXPECTED_TOTALS = [
  { tax_class: "EQUITY_ORIENTED", term: "SHORT", sale_value: 250, cost: 240.01, gain: 9.99 },
  { tax_class: "EQUITY_ORIENTED", term: "LONG", sale_value: 2700, cost: 1670.05, gain: 1029.95 },
  { tax_class: "SPECIFIED", term: "SHORT", sale_value: 1100, cost: 1000, gain: 100 },
];

const gains = (query: string, options: { token?: string; headers?: Record<string, string> } = {}) =>
  app.http("GET", `/api/investors/v1/${investorId}/capital-gains${query}`, { token: options.token ?? token, headers: options.headers });

describe("GET /api/investors/v1/{id}/capital-gains", () => {
  it("answers every sale of the year with the lots it consumed (FIFO), classified, termed and totalled", async () => {
    const res = await gains("?financial_year=2025-26");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ investor_id: investorId, financial_year: "2025-26", from: "2025-04-01", to: "2026-03-31", basis: GAINS_BASIS, lines: EXPECTED_LINES, totals: EXPECTED_TOTALS });
    expect(res.body.basis).toContain("not tax advice");
  });

  it("lists units sold from before the history with no date, cost, class or gain, and leaves them out of the totals", async () => {
    const res = await gains("?financial_year=2024-25");
    expect(res.status).toBe(200);
    expect(res.body.lines).toEqual([
      line("F-D", "972004", ["D2", "REDEMPTION", "2024-06-01"], ["D1", "2023-05-01"], 10, 1050, 1000, [1000, "NOT_APPLICABLE"], 397, "SHORT", 50, "SPECIFIED"),
      {
        registrar: "CAMS", folio_no: "F-E", scheme_code: "972001", scheme_name: "Test Scheme 972001", sale_txn_no: "E1", sale_type: "REDEMPTION", sale_date: "2024-09-01",
        lot_source: "OPENING", lot_txn_no: null, purchase_date: null, units: 5, sale_value: 600, cost: null, grandfathered_cost: null, grandfathering: null,
        holding_days: null, tax_class: null, term: null, gain: null,
        note: "units held before the transactions we have: purchase date and cost unknown, left out of the totals",
      },
    ]);
    expect(res.body.totals).toEqual([{ tax_class: "SPECIFIED", term: "SHORT", sale_value: 1050, cost: 1000, gain: 50 }]);
  });

  it("answers a year with no sales with no lines and no totals", async () => {
    const res = await gains("?financial_year=2023-24");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: "2023-04-01", to: "2024-03-31", lines: [], totals: [] });
  });

  it("refuses a malformed or missing financial year with 400 and the field path", async () => {
    for (const query of ["?financial_year=2025-27", "?financial_year=2025", "?financial_year=25-26", ""]) {
      const res = await gains(query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(["financial_year"]);
    }
  });

  it("answers 404 for another distributor's investor, and 401 without a token", async () => {
    const stranger = await app.newDistributor();
    const res = await gains("?financial_year=2025-26", { token: stranger.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    expect((await app.http("GET", `/api/investors/v1/${investorId}/capital-gains?financial_year=2025-26`)).status).toBe(401);
  });
});

describe("the capital gains statement as CSV and PDF", () => {
  it("answers Accept: text/csv with one row per consumed lot, a header row and rupees with 2 decimals", async () => {
    const res = await gains("?financial_year=2025-26", { headers: { accept: "text/csv" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="capital-gains-${investorId}-2025-26.csv"`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.text).toBe(
      [
        "registrar,folio_no,scheme_code,scheme_name,sale_txn_no,sale_type,sale_date,lot_source,lot_txn_no,purchase_date,units,sale_value,cost,grandfathered_cost,grandfathering,holding_days,tax_class,term,gain,note",
        "CAMS,F-D,972004,Test Scheme 972004,D3,REDEMPTION,2025-05-01,LOT,D1,2023-05-01,10.000,1100.00,1000.00,1000.00,NOT_APPLICABLE,731,SPECIFIED,SHORT,100.00,",
        "CAMS,F-A,972001,Test Scheme 972001,A3,REDEMPTION,2025-06-01,LOT,A1,2024-01-01,100.000,1250.00,1000.05,1000.05,NOT_APPLICABLE,517,EQUITY_ORIENTED,LONG,249.95,",
        "CAMS,F-A,972001,Test Scheme 972001,A3,REDEMPTION,2025-06-01,LOT,A2,2025-01-01,20.000,250.00,240.01,240.01,NOT_APPLICABLE,151,EQUITY_ORIENTED,SHORT,9.99,",
        "CAMS,F-B,972002,Test Scheme 972002,B3,REDEMPTION,2025-08-01,LOT,B1,2017-06-10,10.000,1000.00,400.00,450.00,APPLIED,2974,EQUITY_ORIENTED,LONG,550.00,",
        "CAMS,F-B,972002,Test Scheme 972002,B3,REDEMPTION,2025-08-01,LOT,B2,2022-04-15,2.000,200.00,120.00,120.00,NOT_APPLICABLE,1204,EQUITY_ORIENTED,LONG,80.00,",
        "CAMS,F-C,972003,Test Scheme 972003,C2,SWP,2026-01-10,LOT,C1,2016-05-05,5.000,250.00,100.00,100.00,NAV_UNKNOWN,3537,EQUITY_ORIENTED,LONG,150.00,the 31 January 2018 NAV is not known: grandfathering could not be applied",
        "",
      ].join("\r\n"),
    );
  });

  it("answers Accept: application/pdf with a statement that renders, giving the totals and saying it is not tax advice", async () => {
    const response = await fetch(`${app.baseUrl}/api/investors/v1/${investorId}/capital-gains?financial_year=2025-26`, {
      headers: { authorization: `Bearer ${token}`, accept: "application/pdf" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const dir = await mkdtemp(path.join(os.tmpdir(), "capital-gains-pdf-"));
    try {
      const file = path.join(dir, "statement.pdf");
      await writeFile(file, bytes);
      execFileSync("pdftoppm", ["-png", "-r", "50", file, path.join(dir, "page")]);
      expect((await readdir(dir)).filter((f) => f.endsWith(".png")).length).toBeGreaterThanOrEqual(1);
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      expect(text).toContain("Capital gains statement, financial year 2025-26");
      expect(text).toContain("EQUITY_ORIENTED SHORT: sale value 250.00, cost 240.01, gain 9.99");
      expect(text).toContain("EQUITY_ORIENTED LONG: sale value 2700.00, cost 1670.05, gain 1029.95");
      expect(text).toContain("SPECIFIED SHORT: sale value 1100.00, cost 1000.00, gain 100.00");
      expect(text).toContain("It is not tax advice");
      expect(text).toContain("grandfathering could not be applied");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("checks the CSV's and PDF's input and tenancy as the JSON's", async () => {
    const bad = await gains("?financial_year=2025-2026", { headers: { accept: "text/csv" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).toEqual(["financial_year"]);
    const stranger = await app.newDistributor();
    expect((await gains("?financial_year=2025-26", { token: stranger.token, headers: { accept: "application/pdf" } })).status).toBe(404);
    expect((await app.http("GET", `/api/investors/v1/${investorId}/capital-gains?financial_year=2025-26`, { headers: { accept: "text/csv" } })).status).toBe(401);
  });
});
