import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folioUnits } from "../../src/domains/holdings/holdings.service.js";
import { refreshHoldings } from "../../src/domains/holdings/refresh.js";
import { useTestApp } from "../helpers/app.js";
import { randomPan } from "../helpers/factories.js";

// Every PAN, name and ARN below is made up.

let feedDir: string;
const app = useTestApp();

let d1: Awaited<ReturnType<typeof app.newDistributor>>;
let d2: Awaited<ReturnType<typeof app.newDistributor>>;
const arn1 = `ARN-7${process.pid}1`;
const arn2 = `ARN-7${process.pid}2`;
const panA = randomPan();
const panB = randomPan();
const panC = randomPan();

beforeAll(async () => {
  feedDir = await mkdtemp(path.join(os.tmpdir(), "holdings-feed-"));
  d1 = await app.newDistributor({ arn: arn1 });
  d2 = await app.newDistributor({ arn: arn2 });
  await app.prisma.scheme.create({
    data: { schemeCode: "990001", isinGrowth: "INF000T01AA1", name: "Test Flexi Cap Fund", amcCode: "TESTAMC", amcName: "Test Mutual Fund", category: "Equity", schemeType: "Open Ended Schemes" },
  });
});

afterAll(async () => {
  await rm(feedDir, { recursive: true, force: true });
});

async function put(registrar: "cams" | "kfintech", name: string, lines: string[], crlf = true) {
  await mkdir(path.join(feedDir, registrar), { recursive: true });
  await writeFile(path.join(feedDir, registrar, name), lines.join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n"));
}

const refresh = () => refreshHoldings(app.services, { feedDir, sandboxFeed: false });
const lookup = (token: string, pan: unknown) => app.http("POST", "/api/holdings/v1/lookup", { token, json: { pan } });
const positionsOf = (distributorId: string) =>
  app.prisma.holdingPosition.findMany({ where: { distributorId }, orderBy: [{ registrar: "asc" }, { folioNo: "asc" }, { registrarSchemeCode: "asc" }] });

const MFSD203 = "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE,BRANCH";
const WBR22 = "brok_dlr_code,product,asset_date,folio,inv_name,scheme_name,units,nav,closing_assets,ae_code,tax_status,isin,extra";
const WBR9 = "foliochk,inv_name,pan_no,jnt_name1,jnt_name2,joint1_pan,joint2_pan,holding_nature,amc_code,product,clos_bal,rep_date";

describe("KFintech MFSD203 import", () => {
  it("imports single-holder rows of known ARNs, skips unknown ARNs and malformed rows, and records the file", async () => {
    await put("kfintech", "MFSD203_20261116.csv", [
      MFSD203,
      // Month-first date, a quoted scheme name with a comma, an ISIN in the scheme master.
      `TFCG,TESTAMC,1001/22,"Test Flexi Cap Fund, Growth",INF000T01AA1,"1,234.5678",0,45.12345,55703.24,SINGLE,${arn1},${panA},Test Investor,11/16/2026,Pune`,
      // Joint folio of the same PAN: stored, never served.
      `TFCG,TESTAMC,1002,Test Flexi Cap Fund,INF000T01AA1,10,0,45.1234,451.23,JOINT,${arn1},${panA},Test Investor,11/16/2026,Pune`,
      // Another PAN is the first holder.
      `TLQG,TESTAMC,1003,Test Liquid Fund,,5.5,0,1000,5500,SI,${arn1},${panB},Other Investor,11/16/2026,Pune`,
      // Unknown ARN.
      `TLQG,TESTAMC,1004,Test Liquid Fund,,5.5,0,1000,5500,SI,ARN-999999999,${panA},Test Investor,11/16/2026,Pune`,
      // Malformed: units not a number; then a row with a field missing.
      `TLQG,TESTAMC,1005,Test Liquid Fund,,abc,0,1000,5500,SI,${arn1},${panA},Test Investor,11/16/2026,Pune`,
      `TLQG,TESTAMC,1006,Test Liquid Fund`,
      // Same PAN under the other distributor.
      `TLQG,TESTAMC,2001,Test Liquid Fund,,7,0,1000.5,,SINGLE,${arn2},${panA},Test Investor,11/16/2026,Pune`,
    ]);
    const report = await refresh();
    expect(report.files).toEqual([
      expect.objectContaining({
        registrar: "KFINTECH", file: "MFSD203_20261116.csv", outcome: "IMPORTED", balance_date: "2026-11-16", rows: 5, imported: 4,
        skipped_unknown_arn: 1, skipped_stale: 0, skipped_duplicate: 0, problem_count: 2,
        problems: [
          { file: "MFSD203_20261116.csv", line: 6, reason: 'balunits is not a number: "abc"' },
          { file: "MFSD203_20261116.csv", line: 7, reason: "expected 15 fields, found 4" },
        ],
      }),
    ]);
    const rows = await positionsOf(d1.distributor_id);
    expect(rows.map((r) => [r.folioNo, r.registrarSchemeCode, r.schemeCode, r.holdingNature, r.units.toFixed(3), r.panHash === app.services.cipher.lookupHash(r.folioNo === "1003" ? panB : panA)])).toEqual([
      ["1001/22", "TFCG", "990001", "SINGLE", "1234.568", true],
      ["1002", "TFCG", "990001", "JOINT", "10.000", true],
      ["1003", "TLQG", null, "SINGLE", "5.500", true],
    ]);
    // No PAN is stored with the positions, in clear or encrypted: only its keyed hash.
    const stored = await app.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      "SELECT to_jsonb(p) AS row FROM holding_positions p WHERE distributor_id = $1 ORDER BY folio_no", d1.distributor_id,
    ).then((found) => found.map((r) => r.row as Record<string, unknown>));
    expect(Object.keys(stored[0]!).sort()).toEqual([
      "amc_code", "amc_name", "balance_date", "distributor_id", "feed_file_id", "folio_no", "holding_nature", "isin", "market_value", "nav",
      "nav_date", "pan_hash", "registrar", "registrar_scheme_code", "scheme_code", "scheme_name", "units",
    ]);
    for (const row of stored) {
      const pan = row.folio_no === "1003" ? panB : panA;
      expect(row.pan_hash).toBe(app.services.cipher.lookupHash(pan));
      for (const value of Object.values(row)) {
        expect(String(value).toUpperCase()).not.toContain(pan);
        expect(() => app.services.cipher.decrypt(String(value))).toThrow();
      }
    }
    // Market value computed from units x NAV when the feed leaves it blank.
    expect((await positionsOf(d2.distributor_id)).map((r) => r.marketValue?.toFixed(2))).toEqual(["7003.50"]);
    const recorded = await app.prisma.holdingFeedFile.findMany();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ registrar: "KFINTECH", fileName: "MFSD203_20261116.csv", outcome: "IMPORTED", rows: 5, imported: 4, skippedUnknownArn: 1, problemCount: 2 });
    expect(recorded[0]!.contentSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("serves only single-holder folios under the holder's own PAN, with exact figures and a masked PAN", async () => {
    const res = await lookup(d1.token, panA.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      pan: `${panA.slice(0, 2)}XXXXX${panA.slice(7)}`,
      holdings: [
        {
          registrar: "KFINTECH", amc_code: "TESTAMC", amc_name: "Test Mutual Fund", folio_no: "1001/22", scheme_code: "990001",
          isin: "INF000T01AA1", scheme_name: "Test Flexi Cap Fund, Growth", units: 1234.568, nav: 45.1235, nav_date: "2026-11-16",
          market_value: 55703.24, balance_date: "2026-11-16", cost_value: null, average_nav: null, unrealised_gain: null, xirr: null, locked_units: 0, free_units: 1234.568, undetermined_units: 0, next_unlock_date: null, lots_complete: false, lots_note: "No transactions of this position yet: 1234.568 units were held before the transactions we have; their date and cost are unknown, so cost, gain and XIRR leave them out",
        },
      ],
      summary: {
        total_market_value: 55703.24, positions: 1, folios: 1, schemes: 1, as_of: "2026-11-16",
        by_registrar: { CAMS: { positions: 0, market_value: 0, as_of: null }, KFINTECH: { positions: 1, market_value: 55703.24, as_of: "2026-11-16" } },
        cost_value: 0, current_value: 0, unrealised_gain: 0, xirr: null, lots_complete: false,
      },
    });
    expect(res.text).not.toContain(panA);
    expect(app.logs.some((line) => line.includes(panA))).toBe(false);
  });

  it("importing the same file twice changes nothing", async () => {
    const before = await positionsOf(d1.distributor_id);
    const report = await refresh();
    expect(report.files.map((f) => f.outcome)).toEqual(["DUPLICATE"]);
    expect(await positionsOf(d1.distributor_id)).toEqual(before);
    expect(await app.prisma.holdingFeedFile.count()).toBe(1);
  });
});

describe("CAMS WBR22 + WBR9 import", () => {
  it("joins WBR22 with WBR9 for the PAN and holding nature, in both date styles, and waits for a missing WBR9", async () => {
    await put("cams", "D1_20261117_WBR22.csv", [WBR22, `${arn1},X1G,20261117,C-1,Test,Cams Growth,1.5,20,30,,,,`], false);
    let report = await refresh();
    expect(report.files.map((f) => f.outcome)).toEqual(["DUPLICATE"]);
    expect(report.waiting).toEqual([{ registrar: "CAMS", file: "D1_20261117_WBR22.csv", reason: "waiting for its WBR9 file D1_20261117_WBR9.csv" }]);

    await put("cams", "D1_20261117_WBR22.csv", [
      WBR22,
      `${arn1},X1G,20261117,C-1,Test,Cams Growth,1.5,20,30,,,,`,
      `${arn1},X1G,17-Nov-2026,C-2,Test,Cams Growth,2,20,40,,,,`,
      `${arn1},X1G,17-Nov-2026,C-3,Test,Cams Growth,3,20,60,,,,`,
      `${arn1},X1G,17-Nov-2026,C-4,Test,Cams Growth,4,20,80,,,,`,
      `ARN-888888888,X1G,17-Nov-2026,C-1,Test,Cams Growth,4,20,80,,,,`,
      `${arn1},X1G,17-Nov-2026,C-9,Test,Cams Growth,4,20,80,,,,`,
      `${arn1},X1G,31-Feb-2026,C-1,Test,Cams Growth,4,20,80,,,,`,
    ]);
    await put("cams", "D1_20261117_WBR9.csv", [
      WBR9,
      `C-1,Test,${panC},,,,,SI,CAMSAMC,X1G,1.5,17-Nov-2026`,
      `C-2,Test,${panC},Joint Person,,,,JO,CAMSAMC,X1G,2,17-Nov-2026`,
      // Coded single, but a joint holder is named: treated as joint.
      `C-3,Test,${panC},Joint Person,,,,SI,CAMSAMC,X1G,3,17-Nov-2026`,
      `C-4,Test,${panB},,,,,SI,CAMSAMC,X1G,4,17-Nov-2026`,
    ]);
    report = await refresh();
    const cams = report.files.find((f) => f.registrar === "CAMS")!;
    expect(cams).toMatchObject({
      outcome: "IMPORTED", file: "D1_20261117_WBR22.csv", companion: "D1_20261117_WBR9.csv", rows: 5, imported: 4, skipped_unknown_arn: 1, problem_count: 2,
      problems: [
        { file: "D1_20261117_WBR22.csv", line: 7, reason: "no WBR9 investor record for the folio" },
        { file: "D1_20261117_WBR22.csv", line: 8, reason: 'asset_date is not a date: "31-Feb-2026"' },
      ],
    });
    const res = await lookup(d1.token, panC);
    expect(res.body.holdings).toEqual([
      { registrar: "CAMS", amc_code: "CAMSAMC", amc_name: null, folio_no: "C-1", scheme_code: "X1G", isin: null, scheme_name: "Cams Growth", units: 1.5, nav: 20, nav_date: "2026-11-17", market_value: 30, balance_date: "2026-11-17", cost_value: null, average_nav: null, unrealised_gain: null, xirr: null, locked_units: 0, free_units: 1.5, undetermined_units: 0, next_unlock_date: null, lots_complete: false, lots_note: "No transactions of this position yet: 1.500 units were held before the transactions we have; their date and cost are unknown, so cost, gain and XIRR leave them out" },
    ]);
    // C-4's first holder is panB: it shows under panB only.
    expect((await lookup(d1.token, panB)).body.holdings.map((h: { folio_no: string }) => h.folio_no)).toEqual(["C-4", "1003"]);
    expect((await lookup(d1.token, panB)).body.summary).toMatchObject({ positions: 2, folios: 2, schemes: 2, as_of: "2026-11-17", total_market_value: 5580 });
  });
});

describe("malformed files and refresh atomicity", () => {
  it("rejects a file without a mandatory column whole, records it, and never reads it again", async () => {
    const before = await positionsOf(d1.distributor_id);
    await put("kfintech", "MFSD203_20261118.csv", ["PRCODE,FUND,ACNO", `TLQG,TESTAMC,1003`]);
    const report = await refresh();
    const rejected = report.files.find((f) => f.file === "MFSD203_20261118.csv")!;
    expect(rejected).toMatchObject({
      outcome: "REJECTED", imported: 0,
      reason: expect.stringContaining("MFSD203_20261118.csv: missing mandatory columns: funddesc, schemeisin"),
    });
    expect(await app.prisma.holdingFeedFile.findFirst({ where: { fileName: "MFSD203_20261118.csv" } })).toMatchObject({ outcome: "REJECTED" });
    expect(await positionsOf(d1.distributor_id)).toEqual(before);
    expect((await refresh()).files.find((f) => f.file === "MFSD203_20261118.csv")!.outcome).toBe("DUPLICATE");
  });

  it("replaces a registrar's positions of the distributor as of the new balance date, never older ones", async () => {
    await put("kfintech", "MFSD203_20261119.csv", [
      MFSD203,
      `TLQG,TESTAMC,1003,Test Liquid Fund,,6,0,1000,6000,SI,${arn1},${panB},Other Investor,20261119,Pune`,
      `TLQG,TESTAMC,1003,Test Liquid Fund,,9,0,1000,9000,SI,${arn1},${panB},Other Investor,20261119,Pune`,
    ]);
    await put("kfintech", "MFSD203_20261120_late_but_old.csv", [
      MFSD203,
      `TLQG,TESTAMC,1003,Test Liquid Fund,,1,0,1000,1000,SI,${arn1},${panB},Other Investor,20261101,Pune`,
    ]);
    const report = await refresh();
    expect(report.files.find((f) => f.file === "MFSD203_20261119.csv")).toMatchObject({ outcome: "IMPORTED", imported: 1, skipped_duplicate: 1 });
    expect(report.files.find((f) => f.file === "MFSD203_20261120_late_but_old.csv")).toMatchObject({ outcome: "IMPORTED", imported: 0, skipped_stale: 1 });
    const kfin = (await positionsOf(d1.distributor_id)).filter((p) => p.registrar === "KFINTECH");
    // 1001/22 and 1002 were not in the new feed: the registrar's set is replaced whole. CAMS is untouched.
    expect(kfin.map((p) => [p.folioNo, p.units.toFixed(3), p.balanceDate.toISOString().slice(0, 10)])).toEqual([["1003", "6.000", "2026-11-19"]]);
    expect((await positionsOf(d1.distributor_id)).filter((p) => p.registrar === "CAMS")).toHaveLength(4);
    // The other distributor's KFintech positions are not touched by a file that does not carry its ARN.
    expect(await positionsOf(d2.distributor_id)).toHaveLength(1);
  });

  it("a lookup during a refresh sees the whole old set or the whole new one", async () => {
    const d = await app.newDistributor({ arn: `ARN-7${process.pid}9` });
    const pan = randomPan();
    const file = (date: string, n: number) => [
      MFSD203,
      ...Array.from({ length: n }, (_, i) => `TLQG,TESTAMC,F${i},Test Liquid Fund,,1,0,10,10,SI,${d.arn},${pan},Big Investor,${date},Pune`),
    ];
    await put("kfintech", "MFSD203_20261121_big.csv", file("20261121", 20_000));
    await refresh();
    expect((await lookup(d.token, pan)).body.summary.positions).toBe(20_000);
    await put("kfintech", "MFSD203_20261122_big.csv", file("20261122", 15_000));
    const seen = new Set<number>();
    let done = false;
    const running = refresh().finally(() => (done = true));
    while (!done) seen.add(await app.prisma.holdingPosition.count({ where: { distributorId: d.distributor_id } }));
    await running;
    seen.add(await app.prisma.holdingPosition.count({ where: { distributorId: d.distributor_id } }));
    expect([...seen].every((n) => n === 20_000 || n === 15_000)).toBe(true);
    expect(seen.has(15_000)).toBe(true);
  });
});

describe("folioUnits (the redemption check hook)", () => {
  it("sums a folio's units in a scheme across holding natures; null when unknown", async () => {
    expect((await folioUnits(app.prisma, d1.distributor_id, "1003", "TLQG"))?.toFixed(3)).toBe("6.000");
    expect((await folioUnits(app.prisma, d1.distributor_id, "C-2", "X1G"))?.toFixed(3)).toBe("2.000");
    expect(await folioUnits(app.prisma, d1.distributor_id, "1003", "OTHER")).toBeNull();
    expect(await folioUnits(app.prisma, d2.distributor_id, "1003", "TLQG")).toBeNull();
  });
});
