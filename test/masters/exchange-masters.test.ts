import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma } from "../../src/platform/db/client.js";
import { importExchangeMastersJob } from "../../src/domains/masters/jobs/import-exchange.js";
import { importExchangeMasters } from "../../src/domains/masters/exchange-masters.import.js";
import { useTestApp } from "../helpers/app.js";
import { createTestDatabase } from "../helpers/db.js";
import { runTask } from "../helpers/jobs.js";
import { runEntry } from "../helpers/process.js";
import { masterFile, SCHEME_MASTER_HEADER, SIP_MASTER_HEADER, type MasterRow } from "../helpers/exchange-masters.js";

/**
 * The exchange's scheme master and SIP master, in the layouts the exchange publishes (exchange-masters.md):
 * pipe-separated, a header line whose names vary a little between releases.
 */
type Row = MasterRow;
const schemeRow = (overrides: Row): Row => ({
  "Unique No": "1", "Scheme Code": "HDFCX-GR", "RTA Scheme Code": "HX", "AMC Scheme Code": "HX1", ISIN: "INF179K01UT0", "AMC Code": "HDFC_MF",
  "Scheme Type": "Equity", "Scheme Plan": "DIRECT", "Scheme Name": "HDFC Flexi Cap Direct Growth", "Purchase Allowed": "Y",
  "Purchase Transaction mode": "DP", "Minimum Purchase Amount": "5000", "Additional Purchase Amount": "1000.00", "Maximum Purchase Amount": "0",
  "Purchase Amount Multiplier": "1", "Purchase Cutoff Time": "15:00:00", "Redemption Allowed": "Y", "Redemption Transaction Mode": "DP",
  "Minimum Redemption Qty": "0.001", "Redemption Qty Multiplier": "0.001", "Maximum Redemption Qty": "", "Redemption Amount - Minimum": "1000",
  "Redemption Amount \u2013 Maximum": "", "Redemption Amount Multiple": "1", "Redemption Cut off Time": "15:00:00", "RTA Agent Code": "CAMS",
  "AMC Active Flag": "1", "Dividend Reinvestment Flag": "Z", "SIP FLAG": "Y", "STP FLAG": "Y", "SWP Flag": "N", "Switch FLAG": "Y",
  "SETTLEMENT TYPE": "T2", "AMC_IND": "", "Face Value": "10", "Start Date": "01-04-2013", "End Date": "Dec 31 9999 12:00AM", "Exit Load Flag": "Y",
  "Exit Load": "1% if redeemed within 365 days", "Lock-in Period Flag": "N", "Lock-in Period": "", "Channel Partner Code": "", "ReOpening Date": "",
  ...overrides,
});
const file = masterFile;
const schemeMaster = (rows: Row[], headerLine?: string) => file(SCHEME_MASTER_HEADER, rows, headerLine);

const sipRow = (overrides: Row): Row => ({
  "AMC CODE": "HDFC_MF", "AMC NAME": "HDFC Mutual Fund", "SCHEME CODE": "HDFCX-GR", "SCHEME NAME": "HDFC Flexi Cap", "SIP TRANSACTION MODE": "DP",
  "SIP FREQUENCY": "MONTHLY", "SIP DATES": "1,5,10,15,20,25", "SIP MINIMUM GAP": "30", "SIP MAXIMUM GAP": "90", "SIP INSTALLMENT GAP": "1",
  "SIP STATUS": "1", "SIP MINIMUM INSTALLMENT AMOUNT": "500", "SIP MAXIMUM INSTALLMENT AMOUNT": "99999999", "SIP MULTIPLIER AMOUNT": "100",
  "SIP MINIMUM INSTALLMENT NUMBERS": "6", "SIP MAXIMUM INSTALLMENT NUMBERS": "999", "SCHEME ISIN": "INF179K01UT0", "SCHEME TYPE": "EQUITY",
  "PAUSE FLAG": "Y", "PAUSE MINIMUM INSTALLMENTS": "1", "PAUSE MAXIMUM INSTALLMENTS": "3", "PAUSE MODIFICATION COUNT": "2",
  ...overrides,
});
const sipMaster = (rows: Row[], headerLine?: string) => file(SIP_MASTER_HEADER, rows, headerLine);

const app = useTestApp();

async function ourScheme(schemeCode: string, isinGrowth: string, isinReinvestment: string | null = null) {
  await app.prisma.scheme.create({
    data: { schemeCode, isinGrowth, isinReinvestment, name: `Scheme ${schemeCode}`, amcCode: "HDFC", amcName: "HDFC Mutual Fund", category: "Equity Scheme - Flexi Cap Fund", schemeType: "Open Ended Schemes" },
  });
}

beforeAll(async () => {
  await ourScheme("118955", "INF179K01UT0");
  await ourScheme("118954", "INF179K01VL5", "INF179K01VM3");
});

const codesOf = async () => (await app.prisma.exchangeScheme.findMany({ orderBy: { code: "asc" }, select: { code: true, active: true } }));

describe("the exchange's scheme master and SIP master, imported", () => {
  it("reads columns by header name (any case, spacing, dash), exact decimals, times, dates and flags; links rows to schemes by ISIN", async () => {
    // Columns reordered, headers in another spelling: matched by name, not position.
    const header = [...SCHEME_MASTER_HEADER].reverse();
    const odd = header.map((h) => (h === "Scheme Code" ? "  SCHEME   CODE " : h === "Purchase Transaction mode" ? "PURCHASE-TRANSACTION-MODE" : h.toLowerCase())).join("|");
    const text = file(header, [
      schemeRow({}),
      schemeRow({ "Unique No": "2", "Scheme Code": "HDFCX-GR-D", "Purchase Transaction mode": "D", "Purchase Cutoff Time": "0.5625", "Start Date": "2013-04-01", "End Date": "" }),
      schemeRow({ "Unique No": "3", "Scheme Code": "HDFCI-DR", ISIN: "INF179K01VM3", "Purchase Transaction mode": "P", "SIP FLAG": "N", "Purchase Amount Multiplier": "0.01", "Minimum Redemption Qty": "1.250" }),
    ], odd);
    const summary = await importExchangeMasters(app.prisma, { schemes: text });
    expect(summary).toEqual({
      schemes: { read: 3, inserted: 3, updated: 0, deactivated: 0, problems: [], unlinked_isins: [] },
      sip: null,
    });
    const row = await app.prisma.exchangeScheme.findUniqueOrThrow({ where: { code: "HDFCX-GR" } });
    expect({
      mode: row.transactionMode, min: row.minPurchaseAmount?.toString(), additional: row.minAdditionalAmount?.toFixed(2), max: row.maxPurchaseAmount,
      cutOff: row.purchaseCutOff, swp: row.swpAllowed, start: row.startDate?.toISOString().slice(0, 10), end: row.endDate?.toISOString().slice(0, 10),
      type: row.schemeType, exitLoad: row.exitLoad,
    }).toEqual({ mode: "BOTH", min: "5000", additional: "1000.00", max: null, cutOff: "15:00", swp: false, start: "2013-04-01", end: "9999-12-31", type: "EQUITY", exitLoad: "1% if redeemed within 365 days" });
    const demat = await app.prisma.exchangeScheme.findUniqueOrThrow({ where: { code: "HDFCX-GR-D" } });
    expect([demat.transactionMode, demat.purchaseCutOff, demat.endDate]).toEqual(["DEMAT", "13:30", null]);
    const reinvest = await app.prisma.exchangeScheme.findUniqueOrThrow({ where: { code: "HDFCI-DR" } });
    expect([reinvest.transactionMode, reinvest.purchaseMultiple?.toString(), reinvest.minRedemptionUnits?.toString(), reinvest.sipAllowed]).toEqual(["PHYSICAL", "0.01", "1.25", false]);
    // The schemes' summary columns follow their preferred code (BOTH first).
    const scheme = await app.prisma.scheme.findUniqueOrThrow({ where: { schemeCode: "118955" } });
    expect([scheme.purchaseAllowed, scheme.minPurchaseAmount?.toFixed(2), scheme.minAdditionalAmount?.toFixed(2), scheme.sipAllowed]).toEqual([true, "5000.00", "1000.00", true]);
  });

  it("skips a bad line with its line number, keeps the rest, and reports ISINs the AMFI master lacks", async () => {
    const text = schemeMaster([
      schemeRow({}),
      schemeRow({ "Unique No": "2", "Scheme Code": "HDFCX-GR-D", "Purchase Transaction mode": "D" }),
      schemeRow({ "Unique No": "3", "Scheme Code": "BAD-1", "Minimum Purchase Amount": "5,00x" }),
      schemeRow({ "Unique No": "4", "Scheme Code": "BAD-2", "Purchase Allowed": "maybe" }),
      schemeRow({ "Unique No": "5", "Scheme Code": "BAD-3", "Start Date": "31-02-2020" }),
      schemeRow({ "Unique No": "6", "Scheme Code": "HDFCX-GR" }),
      schemeRow({ "Unique No": "7", "Scheme Code": "NEWFUND-GR", ISIN: "INF999Z01AA1" }),
      schemeRow({ "Unique No": "8", "Scheme Code": "HDFCI-DR", ISIN: "INF179K01VM3", "Purchase Transaction mode": "P" }),
    ]);
    const summary = await importExchangeMasters(app.prisma, { schemes: text });
    expect(summary.schemes).toEqual({
      // The two known codes whose rows differ from the first file's are updated; HDFCX-GR is unchanged.
      read: 8, inserted: 1, updated: 2, deactivated: 0, unlinked_isins: ["INF999Z01AA1"],
      problems: [
        { line: 4, message: 'Minimum Purchase Amount "5,00x" is not a number' },
        { line: 5, message: 'Purchase Allowed "maybe" is not Y or N' },
        { line: 6, message: 'Start Date "31-02-2020" is not a real date' },
        { line: 7, message: "Scheme Code HDFCX-GR is repeated (first on line 2); the first is kept" },
      ],
    });
    expect(await app.prisma.exchangeScheme.count({ where: { code: { startsWith: "BAD" } } })).toBe(0);
  });

  it("replaces the previous master: a code it no longer lists is kept inactive, and comes back when listed again", async () => {
    const summary = await importExchangeMasters(app.prisma, {
      schemes: schemeMaster([schemeRow({ "Minimum Purchase Amount": "500" }), schemeRow({ "Unique No": "7", "Scheme Code": "NEWFUND-GR", ISIN: "INF999Z01AA1" })]),
    });
    expect(summary.schemes).toMatchObject({ read: 2, inserted: 0, updated: 1, deactivated: 2, problems: [] });
    expect(await codesOf()).toEqual([
      { code: "HDFCI-DR", active: false }, { code: "HDFCX-GR", active: true }, { code: "HDFCX-GR-D", active: false }, { code: "NEWFUND-GR", active: true },
    ]);
    const back = await importExchangeMasters(app.prisma, {
      schemes: schemeMaster([schemeRow({ "Minimum Purchase Amount": "500" }), schemeRow({ "Unique No": "2", "Scheme Code": "HDFCX-GR-D", "Purchase Transaction mode": "D" }), schemeRow({ "Unique No": "7", "Scheme Code": "NEWFUND-GR", ISIN: "INF999Z01AA1" })]),
    });
    expect(back.schemes).toMatchObject({ inserted: 0, updated: 1, deactivated: 0 });
    // The same file again changes nothing.
    const again = await importExchangeMasters(app.prisma, {
      schemes: schemeMaster([schemeRow({ "Minimum Purchase Amount": "500" }), schemeRow({ "Unique No": "2", "Scheme Code": "HDFCX-GR-D", "Purchase Transaction mode": "D" }), schemeRow({ "Unique No": "7", "Scheme Code": "NEWFUND-GR", ISIN: "INF999Z01AA1" })]),
    });
    expect(again.schemes).toMatchObject({ read: 3, inserted: 0, updated: 0, deactivated: 0 });
  });

  it("imports the SIP master: dates, limits, pause rules; a bad line skipped; rows no longer listed inactive", async () => {
    const scheme = schemeMaster([schemeRow({}), schemeRow({ "Unique No": "2", "Scheme Code": "HDFCX-GR-D", "Purchase Transaction mode": "D" })]);
    const first = await importExchangeMasters(app.prisma, {
      schemes: scheme,
      sip: sipMaster([
        sipRow({}),
        sipRow({ "SIP FREQUENCY": "Quarterly", "SIP DATES": "5, 15 ,25", "SIP STATUS": "Y" }),
        sipRow({ "SIP FREQUENCY": "WEEKLY", "SIP DATES": "1,2,32" }),
        sipRow({ "SIP FREQUENCY": "Half Yearly", "SIP STATUS": "0" }),
      ]),
    });
    expect(first.sip).toEqual({ read: 4, inserted: 3, updated: 0, deactivated: 0, problems: [{ line: 4, message: 'SIP DATES "1,2,32" is not a list of days 1-31' }] });
    const monthly = await app.prisma.exchangeSipRule.findUniqueOrThrow({ where: { code_frequency: { code: "HDFCX-GR", frequency: "MONTHLY" } } });
    expect([monthly.dates, monthly.minAmount?.toString(), monthly.multiple?.toString(), monthly.minInstallments, monthly.maxInstallments, monthly.pauseAllowed, monthly.active])
      .toEqual([[1, 5, 10, 15, 20, 25], "500", "100", 6, 999, true, true]);
    const quarterly = await app.prisma.exchangeSipRule.findUniqueOrThrow({ where: { code_frequency: { code: "HDFCX-GR", frequency: "QUARTERLY" } } });
    expect(quarterly.dates).toEqual([5, 15, 25]);
    expect((await app.prisma.exchangeSipRule.findUniqueOrThrow({ where: { code_frequency: { code: "HDFCX-GR", frequency: "HALF_YEARLY" } } })).active).toBe(false);

    const second = await importExchangeMasters(app.prisma, { schemes: scheme, sip: sipMaster([sipRow({ "SIP DATES": "1,10" })]) });
    expect(second.sip).toMatchObject({ read: 1, inserted: 0, updated: 1, deactivated: 1 });
  });

  it("refuses a file whose header lacks a required column, changing nothing", async () => {
    const before = await app.prisma.exchangeScheme.findMany({ orderBy: { code: "asc" } });
    const header = SCHEME_MASTER_HEADER.filter((h) => h !== "ISIN" && h !== "SIP FLAG");
    await expect(importExchangeMasters(app.prisma, { schemes: file(header, [schemeRow({ "Scheme Code": "GONE" })]) })).rejects.toThrow(
      'the scheme master\'s header lacks the columns "isin", "sipflag" (names are matched ignoring case, spaces and punctuation)',
    );
    await expect(importExchangeMasters(app.prisma, { schemes: schemeMaster([schemeRow({})]), sip: file(SIP_MASTER_HEADER.filter((h) => h !== "SIP DATES"), [sipRow({})]) })).rejects.toThrow(
      'the SIP master\'s header lacks the column "sipdates"',
    );
    await expect(importExchangeMasters(app.prisma, { schemes: schemeMaster([schemeRow({ ISIN: "nope" })]) })).rejects.toThrow("the scheme master has no valid row");
    expect(await app.prisma.exchangeScheme.findMany({ orderBy: { code: "asc" } })).toEqual(before);
  });

  it("shows a scheme's exchange codes and SIP rules: GET /api/masters/v1/schemes/{scheme_code} and the list", async () => {
    const { token } = await app.newDistributor();
    const res = await app.http("GET", "/api/masters/v1/schemes/118955", { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.exchange_codes).toEqual([
      {
        code: "HDFCX-GR", transaction_mode: "BOTH", purchase_allowed: true, redemption_allowed: true, sip_allowed: true, stp_allowed: true,
        swp_allowed: false, switch_allowed: true, min_purchase_amount: 5000, min_additional_amount: 1000, max_purchase_amount: null, purchase_multiple: 1,
        min_redemption_amount: 1000, max_redemption_amount: null, redemption_amount_multiple: 1, min_redemption_units: 0.001, max_redemption_units: null,
        redemption_units_multiple: 0.001, purchase_cut_off: "15:00", redemption_cut_off: "15:00", settlement_type: "T2",
        exit_load: "1% if redeemed within 365 days", lock_in: null, start_date: "2013-04-01", end_date: "9999-12-31", active: true,
      },
      expect.objectContaining({ code: "HDFCX-GR-D", transaction_mode: "DEMAT", active: true }),
    ]);
    // Active rules only: the latest SIP master no longer lists the quarterly one.
    expect(res.body.sip_rules).toEqual([
      { code: "HDFCX-GR", frequency: "MONTHLY", dates: [1, 10], min_amount: 500, max_amount: 99999999, multiple: 100, min_installments: 6, max_installments: 999, pause_allowed: true },
    ]);
    const list = await app.http("GET", "/api/masters/v1/schemes?q=INF179K01UT0", { token });
    expect(list.body.data.map((s: { scheme_code: string; exchange_codes: Array<{ code: string }> }) => [s.scheme_code, s.exchange_codes.map((c) => c.code)])).toEqual([["118955", ["HDFCX-GR", "HDFCX-GR-D"]]]);
    const unknown = await app.http("GET", "/api/masters/v1/schemes/999999", { token });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("runs daily from EXCHANGE_MASTERS_DIR: the newest scheme master and SIP master there", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "exchange-masters-"));
    try {
      const old = path.join(dir, "SchemeMaster_20261126.txt");
      await writeFile(old, schemeMaster([schemeRow({ "Scheme Code": "OLD-ONLY" })]));
      await utimes(old, new Date("2026-11-26T02:00:00Z"), new Date("2026-11-26T02:00:00Z"));
      await writeFile(path.join(dir, "SchemeMaster_20261127.txt"), schemeMaster([schemeRow({ "Minimum Purchase Amount": "2500" })]));
      await writeFile(path.join(dir, "SIPSchemeMaster_20261127.txt"), sipMaster([sipRow({ "SIP DATES": "7" })]));
      const services = { ...app.services, config: { ...app.services.config, exchangeMasters: { dir, cron: "30 7 * * *" } } };
      await runTask(app, importExchangeMastersJob, {}, { services });
      expect(await codesOf()).toEqual(expect.arrayContaining([{ code: "HDFCX-GR", active: true }, { code: "HDFCX-GR-D", active: false }]));
      expect(await app.prisma.exchangeScheme.count({ where: { code: "OLD-ONLY" } })).toBe(0);
      expect((await app.prisma.exchangeScheme.findUniqueOrThrow({ where: { code: "HDFCX-GR" } })).minPurchaseAmount?.toFixed(2)).toBe("2500.00");
      expect((await app.prisma.exchangeSipRule.findUniqueOrThrow({ where: { code_frequency: { code: "HDFCX-GR", frequency: "MONTHLY" } } })).dates).toEqual([7]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("keeps each scheme's lock-in with it (schemes.lock_in): an active code's before an inactive one's, then the lowest code, of either ISIN", async () => {
    const lockInOf = async (schemeCode: string) => (await app.prisma.scheme.findUniqueOrThrow({ where: { schemeCode } })).lockIn;
    const growth = (lockIn: string) => schemeRow({ "Unique No": "11", "Scheme Code": "ZZ-GR", ISIN: "INF179K01VL5", "Lock-in Period Flag": lockIn ? "Y" : "N", "Lock-in Period": lockIn });
    const reinvestment = (lockIn: string) => schemeRow({ "Unique No": "12", "Scheme Code": "AA-DR", ISIN: "INF179K01VM3", "Lock-in Period Flag": lockIn ? "Y" : "N", "Lock-in Period": lockIn });
    await importExchangeMasters(app.prisma, { schemes: schemeMaster([schemeRow({}), growth("3 Years"), reinvestment("5 Years")]) });
    expect([await lockInOf("118954"), await lockInOf("118955")]).toEqual(["5 Years", null]);
    // AA-DR no longer listed (inactive): the active code's lock-in wins.
    await importExchangeMasters(app.prisma, { schemes: schemeMaster([schemeRow({}), growth("3 Years")]) });
    expect(await lockInOf("118954")).toBe("3 Years");
    // No active code has one: the inactive code's, never none while a code of the scheme says so.
    await importExchangeMasters(app.prisma, { schemes: schemeMaster([schemeRow({}), growth("")]) });
    expect(await lockInOf("118954")).toBe("5 Years");
    await app.prisma.exchangeScheme.deleteMany({ where: { code: { in: ["ZZ-GR", "AA-DR"] } } });
    await importExchangeMasters(app.prisma, { schemes: schemeMaster([schemeRow({})]) });
    expect(await lockInOf("118954")).toBeNull();
  });
});

describe("npm run mf -- masters:import-exchange", () => {
  let dir: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "exchange-masters-cli-"));
    db = await createTestDatabase();
    const prisma = createPrisma(db.url, 1);
    await prisma.scheme.create({ data: { schemeCode: "118955", isinGrowth: "INF179K01UT0", name: "HDFC Flexi Cap", amcCode: "HDFC", amcName: "HDFC Mutual Fund", category: "Equity", schemeType: "Open Ended Schemes" } });
    await prisma.$disconnect();
  });
  afterAll(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it("prints one JSON line with --json, and refuses a bad header with exit 1", async () => {
    await writeFile(path.join(dir, "schemes.txt"), schemeMaster([schemeRow({}), schemeRow({ "Scheme Code": "", "Unique No": "2" })]));
    await writeFile(path.join(dir, "sip.txt"), sipMaster([sipRow({})]));
    const env = { DATABASE_URL: db.url, MF_DATA_DIR: dir };
    const run = runEntry("src/cli.ts", ["masters:import-exchange", "--schemes", path.join(dir, "schemes.txt"), "--sip", path.join(dir, "sip.txt"), "--json"], env);
    expect(await run.exited, run.output()).toBe(0);
    expect(JSON.parse(run.output().trim().split("\n").at(-1)!)).toEqual({
      schemes: { read: 2, inserted: 1, updated: 0, deactivated: 0, problems: [{ line: 3, message: "Scheme Code is empty" }], unlinked_isins: [] },
      sip: { read: 1, inserted: 1, updated: 0, deactivated: 0, problems: [] },
    });

    await writeFile(path.join(dir, "bad.txt"), schemeMaster([schemeRow({})], SCHEME_MASTER_HEADER.filter((h) => h !== "Scheme Code").join("|")));
    const refused = runEntry("src/cli.ts", ["masters:import-exchange", "--schemes", path.join(dir, "bad.txt")], env);
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('Refused, nothing imported: the scheme master\'s header lacks the column "schemecode"');
  });
});
