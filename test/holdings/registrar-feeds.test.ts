import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCamsFeed } from "../../src/integrations/registrars/feeds/cams.js";
import { parseFields, readCsv, type CsvItem } from "../../src/integrations/registrars/feeds/csv.js";
import { parseFeedDate } from "../../src/integrations/registrars/feeds/dates.js";
import {
  collectFeed,
  feedFile,
  FeedFileError,
  holdingNature,
  normaliseArn,
  servable,
  toFixedDecimal,
  type FeedItem,
  type FeedPosition,
} from "../../src/integrations/registrars/feeds/feed.js";
import { readKfintechFeed } from "../../src/integrations/registrars/feeds/kfintech.js";
import { collectGarbage } from "../helpers/memory.js";

// Every PAN and name below is made up.

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "registrar-feeds-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function feed(name: string, lines: string[], { crlf = false, bom = false } = {}) {
  const file = path.join(dir, name);
  await writeFile(file, (bom ? "\uFEFF" : "") + lines.join(crlf ? "\r\n" : "\n") + (crlf ? "\r\n" : "\n"));
  return feedFile(file);
}

async function* chunks(...parts: Array<string | Buffer>): AsyncGenerator<string | Buffer> {
  yield* parts;
}

async function csvItems(...parts: Array<string | Buffer>): Promise<CsvItem[]> {
  const items: CsvItem[] = [];
  for await (const item of readCsv(chunks(...parts))) items.push(item);
  return items;
}

function byFolio(positions: FeedPosition[], folio: string, scheme?: string): FeedPosition {
  const found = positions.find((p) => p.folio_no === folio && (scheme === undefined || p.scheme_code === scheme));
  if (!found) throw new Error(`no position for folio ${folio}`);
  return found;
}

describe("csv reader", () => {
  it("splits quoted fields with commas, doubled quotes and a literal quote inside a bare field", () => {
    expect(parseFields('a,"b, c","say ""hi""",d"e,')).toEqual(["a", "b, c", 'say "hi"', 'd"e', ""]);
    expect(parseFields('a,"open')).toBeUndefined();
  });

  it("keys records by trimmed lower-case header names, across CRLF, a BOM and chunk boundaries", async () => {
    const bytes = Buffer.from("\uFEFF Name ,CITY\r\n\"Test, Investor\",Pune\r\n\r\nTest Éclair,Goa\r\n", "utf8");
    const e = bytes.indexOf(Buffer.from("É"));
    // Split inside the BOM, between CR and LF, and inside a two-byte character.
    const parts = [bytes.subarray(0, 2), bytes.subarray(2, 20), bytes.subarray(20, e + 1), bytes.subarray(e + 1)];
    expect(await csvItems(...parts)).toEqual([
      { kind: "header", line: 1, columns: ["name", "city"] },
      { kind: "record", line: 2, record: { name: "Test, Investor", city: "Pune" } },
      { kind: "record", line: 4, record: { name: "Test Éclair", city: "Goa" } },
    ]);
  });

  it("reads a quoted field across a line break, and reports rows with another field count", async () => {
    expect(await csvItems('a,b\n"x\ny",1\n1,2,3\n4\n5,6,,\n')).toEqual([
      { kind: "header", line: 1, columns: ["a", "b"] },
      { kind: "record", line: 2, record: { a: "x\ny", b: "1" } },
      { kind: "mismatch", line: 4, reason: "expected 2 fields, found 3" },
      { kind: "mismatch", line: 5, reason: "expected 2 fields, found 1" },
      // Trailing empty fields the header lacks are an export artefact, not a misaligned row.
      { kind: "record", line: 6, record: { a: "5", b: "6" } },
    ]);
  });

  it("gives up an unterminated quote and reads the lines after it again", async () => {
    const items: CsvItem[] = [];
    for await (const item of readCsv(chunks('a,b\n"broken,1\n2,3\n4,5\n'), { maxLinesPerRecord: 2 })) items.push(item);
    expect(items).toEqual([
      { kind: "header", line: 1, columns: ["a", "b"] },
      { kind: "mismatch", line: 2, reason: "unterminated quoted field" },
      { kind: "record", line: 3, record: { a: "2", b: "3" } },
      { kind: "record", line: 4, record: { a: "4", b: "5" } },
    ]);
  });
});

describe("feed dates", () => {
  it.each([
    ["01-Jan-2026", "2026-01-01"],
    ["1-feb-2026", "2026-02-01"],
    ["1/16/2026", "2026-01-16"],
    ["12/31/2025", "2025-12-31"],
    ["20260116", "2026-01-16"],
    ["2026-01-16", "2026-01-16"],
    ["29-Feb-2024", "2024-02-29"],
    ["1/16/2026 12:00:00 AM", "2026-01-16"],
    [" 2026-01-16 00:00:00 ", "2026-01-16"],
  ])("%s -> %s", (text, iso) => {
    expect(parseFeedDate(text)).toBe(iso);
  });

  it.each(["29-Feb-2026", "31-Apr-2026", "13/01/2026", "16/1/2026", "20261301", "20260230", "2026-1-16", "01-Foo-2026", "", "yesterday"])(
    "rejects %j",
    (text) => {
      expect(parseFeedDate(text)).toBeUndefined();
    },
  );
});

describe("feed decimals and codes", () => {
  it.each([
    ["1234.5", 3, "1234.500"],
    ["1,234.5", 3, "1234.500"],
    ["1,23,456.78", 2, "123456.78"],
    ["12,34,56,789", 0, "123456789"],
    ["1,234,567.891", 2, "1234567.89"],
    ["1234.5678", 3, "1234.568"],
    ["1234.5674", 3, "1234.567"],
    ["0.0005", 3, "0.001"],
    ["999.9995", 3, "1000.000"],
    ["007", 2, "7.00"],
    [".5", 4, "0.5000"],
    ["-2.345", 2, "-2.35"],
    ["-0.0001", 2, "0.00"],
    ["123456789012345678.123456", 3, "123456789012345678.123"],
    // The plain common case (read by a character scan).
    ["0", 2, "0.00"],
    ["5", 0, "5"],
    ["5.", 3, "5.000"],
    ["5.", 0, "5"],
    ["12.125", 3, "12.125"],
    ["12.1", 4, "12.1000"],
    ["0.125", 2, "0.13"],
  ])("%s at %i decimals -> %s", (text, scale, expected) => {
    expect(toFixedDecimal(text, scale)).toBe(expected);
  });

  it.each(["", "abc", "1.2.3", "1..2", "5a", "1e5", "12,34", "1,2345", "1234,567", "1 234", "-", "."])("rejects %j", (text) => {
    expect(toFixedDecimal(text, 3)).toBeUndefined();
  });

  it("maps holding codes and normalises ARNs", () => {
    expect(["SI", "Single", "s"].map(holdingNature)).toEqual(["SINGLE", "SINGLE", "SINGLE"]);
    expect(["JO", "joint", "J"].map(holdingNature)).toEqual(["JOINT", "JOINT", "JOINT"]);
    expect(["AS", "Anyone or Survivor", "EITHER-OR-SURVIVOR", "E"].map(holdingNature)).toEqual(
      Array(4).fill("ANYONE_OR_SURVIVOR"),
    );
    expect(["", "XX", "Minor"].map(holdingNature)).toEqual(["OTHER", "OTHER", "OTHER"]);
    expect(["ARN-12345", "arn 12345", "ARN12345", "12345", "XYZ-1"].map(normaliseArn)).toEqual([
      "ARN-12345", "ARN-12345", "ARN-12345", "ARN-12345", "XYZ-1",
    ]);
  });
});

const WBR9_HEADER = "foliochk,inv_dob,pan_no,jnt_name1,jnt_name2,joint1_pan,joint2_pan,holding_nature,amc_code,product,clos_bal,rep_date";
const WBR22_HEADER = "brok_dlr_code, Product ,ASSET_DATE,folio,inv_name,scheme_name,units,nav,closing_assets,ae_code,tax_status,remarks";

describe("CAMS WBR22 + WBR9", () => {
  async function camsBatch() {
    const investors = await feed("WBR9.csv", [
      WBR9_HEADER,
      "1001,01-Jan-1980,abcpe1234f,,,,,SI,P,P8022,100,16-Jan-2026",
      "1001,01-Jan-1980,ABCPE1234F,,,,,SI,P,P8030,5,16-Jan-2026",
      '1002,,ABCPE1234F,"Holder, Second",,ABCPF2345G,,JO,P,P8023,10,16-Jan-2026',
      "1003,,,,,,,SI,P,P8024,1,16-Jan-2026",
      "1004,,PQRPS5678K,Test Joint Holder,,ABCPE1234F,,AS,P,P8025,1,16-Jan-2026",
      "1005,,ABCPE1234F,Test Other Holder,,,,SI,P,P8026,1,16-Jan-2026",
      // Same folio number at another AMC: a different investor.
      "1001,,PQRPS9999K,,,,,SI,H,H02,1,16-Jan-2026",
      ",,ABCPE1234F,,,,,SI,P,P8099,1,16-Jan-2026",
    ]);
    const positions = await feed(
      "WBR22.csv",
      [
        WBR22_HEADER,
        'ARN-11111,P8022,01-Jan-2026,1001,"Investor, Test","ICICI Pru ""Bluechip"" Fund, Growth","1,234.5",101.23456,"1,24,967.59",,01,x',
        "ARN-11111,P8030,1/16/2026,1001,Test Investor,Scheme Thirty,1234.5678,10,12345.68,,01,",
        "11111,P8023,20260116,1002,Test Investor,Scheme B,10.0005,,,,01,",
        "ARN-11111,P8024,2026-01-16,1003,Test Investor,Scheme C,1,1,1,,01,",
        "ARN-11111,P8025,16-Jan-2026,1004,Test Joint Holder,Scheme D,1,1,1,,01,",
        "ARN-11111,P8026,16-Jan-2026,1005,Test Investor,Scheme E,1,1,1,,01,",
        "ARN-22222,H02,16-Jan-2026,1001,Test Investor,HDFC Scheme,2,1,2,,01,",
        "ARN-11111,P8022,16-Jan-2026,1001,Test Investor,Scheme A,12.3.4,1,1,,01,",
        "",
        "ARN-11111,P8022,31-Feb-2026,1001,Test Investor,Scheme A,1,1,1,,01,",
        "ARN-11111,P8022,16-Jan-2026,,Test Investor,Scheme A,1,1,1,,01,",
        "ARN-11111,P8022,16-Jan-2026,9999,Test Investor,Scheme A,1,1,1,,01,",
        "ARN-11111,P8022,16-Jan-2026,1001,Test Investor",
        "ARN-11111,P8022,16-Jan-2026,1001,Test Investor,Scheme A,-1,1,1,,01,",
      ],
      { crlf: true, bom: true },
    );
    return collectFeed(readCamsFeed({ positions, investors }));
  }

  it("joins positions with investor data, tolerating extra columns, quotes, CRLF and a BOM", async () => {
    const { positions } = await camsBatch();
    expect(positions).toHaveLength(7);
    expect(byFolio(positions, "1001", "P8022")).toEqual({
      registrar: "CAMS",
      arn: "ARN-11111",
      amc_code: "P",
      amc_name: null,
      folio_no: "1001",
      scheme_code: "P8022",
      isin: null,
      scheme_name: 'ICICI Pru "Bluechip" Fund, Growth',
      units: "1234.500",
      nav: "101.2346",
      nav_date: "2026-01-01",
      market_value: "124967.59",
      balance_date: "2026-01-01",
      holding_nature: "SINGLE",
      pan: "ABCPE1234F",
      investor_name: "Investor, Test",
    } satisfies FeedPosition);
    expect(servable(byFolio(positions, "1001", "P8022"))).toBe(true);
  });

  it("reads every date style and keeps decimals exact, rounding half-up beyond 3 decimals", async () => {
    const { positions } = await camsBatch();
    const thirty = byFolio(positions, "1001", "P8030");
    expect([thirty.balance_date, thirty.units, thirty.nav, thirty.market_value]).toEqual([
      "2026-01-16", "1234.568", "10.0000", "12345.68",
    ]);
    const joint = byFolio(positions, "1002");
    expect([joint.arn, joint.balance_date, joint.units, joint.nav, joint.nav_date, joint.market_value]).toEqual([
      "ARN-11111", "2026-01-16", "10.001", null, null, null,
    ]);
    expect(byFolio(positions, "1003").balance_date).toBe("2026-01-16");
  });

  it("serves only single-holder folios with the first holder's PAN", async () => {
    const { positions } = await camsBatch();
    const joint = byFolio(positions, "1002");
    expect([joint.holding_nature, servable(joint)]).toEqual(["JOINT", false]);
    const noPan = byFolio(positions, "1003");
    expect([noPan.pan, servable(noPan)]).toEqual([null, false]);
    // ABCPE1234F is only the second holder of 1004: the position carries the first holder's PAN.
    const survivor = byFolio(positions, "1004");
    expect([survivor.pan, survivor.holding_nature, servable(survivor)]).toEqual(["PQRPS5678K", "ANYONE_OR_SURVIVOR", false]);
    // Coded single but with a joint holder named: not trusted as single.
    expect(byFolio(positions, "1005").holding_nature).toBe("OTHER");
  });

  it("joins a folio number on the AMC of the product, not on the folio alone", async () => {
    const { positions } = await camsBatch();
    const hdfc = byFolio(positions, "1001", "H02");
    expect([hdfc.amc_code, hdfc.pan, hdfc.arn]).toEqual(["H", "PQRPS9999K", "ARN-22222"]);
  });

  it("reports malformed rows with file, line and reason and keeps parsing the file", async () => {
    const { problems } = await camsBatch();
    expect(problems).toEqual([
      { file: "WBR9.csv", line: 9, reason: "foliochk is empty" },
      { file: "WBR22.csv", line: 9, reason: 'units is not a number: "12.3.4"' },
      { file: "WBR22.csv", line: 11, reason: 'asset_date is not a date: "31-Feb-2026"' },
      { file: "WBR22.csv", line: 12, reason: "folio is empty" },
      { file: "WBR22.csv", line: 13, reason: "no WBR9 investor record for the folio" },
      { file: "WBR22.csv", line: 14, reason: "expected 12 fields, found 5" },
      { file: "WBR22.csv", line: 15, reason: 'units is negative: "-1"' },
    ]);
  });

  it("does not serve a folio whose WBR9 records disagree on the PAN", async () => {
    const investors = await feed("WBR9-conflict.csv", [
      WBR9_HEADER,
      "2001,,ABCPE1234F,,,,,SI,P,P8022,1,",
      "2001,,PQRPS5678K,,,,,SI,P,P8023,1,",
    ]);
    const positions = await feed("WBR22-conflict.csv", [
      WBR22_HEADER,
      "ARN-11111,P8022,16-Jan-2026,2001,Test Investor,Scheme A,1,1,1,,01,",
    ]);
    const result = await collectFeed(readCamsFeed({ positions, investors }));
    expect(result.positions.map((p) => [p.holding_nature, servable(p)])).toEqual([["OTHER", false]]);
    expect(result.problems).toEqual([
      {
        file: "WBR9-conflict.csv",
        line: 3,
        reason: "PAN or holding nature differs from an earlier record of this folio; the folio is not served",
      },
    ]);
  });

  it("rejects a whole file that lacks a mandatory column", async () => {
    const investors = await feed("WBR9-ok.csv", [WBR9_HEADER, "1001,,ABCPE1234F,,,,,SI,P,P8022,1,"]);
    const positions = await feed("WBR22-no-units.csv", [
      "brok_dlr_code,product,asset_date,folio,inv_name,scheme_name,nav,closing_assets",
      "ARN-11111,P8022,16-Jan-2026,1001,Test Investor,Scheme A,1,1",
    ]);
    const error = await collectFeed(readCamsFeed({ positions, investors })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedFileError);
    expect(error).toMatchObject({ file: "WBR22-no-units.csv", message: "WBR22-no-units.csv: missing mandatory columns: units" });

    const noPan = await feed("WBR9-no-pan.csv", ["foliochk,jnt_name1,jnt_name2,holding_nature,amc_code,product"]);
    await expect(collectFeed(readCamsFeed({ positions, investors: noPan }))).rejects.toThrow(
      "WBR9-no-pan.csv: missing mandatory columns: pan_no",
    );
    const empty = await feed("WBR9-empty.csv", []);
    await expect(collectFeed(readCamsFeed({ positions, investors: empty }))).rejects.toThrow(
      "WBR9-empty.csv: empty file: no header row",
    );
  });
});

const MFSD203_HEADER = "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE,TRXNNO";

describe("KFintech MFSD203", () => {
  async function kfintech() {
    const file = await feed("MFSD203.csv", [
      MFSD203_HEADER,
      '128GPGR,128,3001,"Axis Test Fund, ""Growth""",INF846K01DP8,"1,000.25",0,45.6789,"45,690.12",SINGLE,ARN-11111,ABCPE1234F,"Investor, Test",16-Jan-2026,T1',
      "128GPGR,128,3002,Axis Test Fund,INF846K01DP8,5,0,45.6789,228.39,Joint,ARN-11111,ABCPE1234F,Test Investor,1/16/2026,T2",
      "128GPGR,128,3003,Axis Test Fund,not-an-isin,5,0,,,Anyone or Survivor,ARN-11111,PQRPS5678K,Test Investor,20260116,T3",
      "128GPGR,128,3004,Axis Test Fund,INF846K01DP8,5,0,1,5,S,ARN-11111,,Test Investor,2026-01-16,T4",
      "128GPGR,128,3005,Axis Test Fund,INF846K01DP8,5,0,1,5,XYZ,ARN-11111,ABCPE1234F,Test Investor,16-Jan-2026,T5",
      "128GPGR,128,3006,Axis Test Fund,INF846K01DP8,abc,0,1,5,S,ARN-11111,ABCPE1234F,Test Investor,16-Jan-2026,T6",
      "128GPGR,128,3007,Axis Test Fund,INF846K01DP8,5,0,1,5,S,ARN-11111,ABCPE1234F,Test Investor,16/01/2026,T7",
      "128GPGR,128,3008,Axis Test Fund,INF846K01DP8,0.0004,0,1,0,S,ARN-11111,abcpe1234f,Test Investor,16-Jan-2026,T8",
    ]);
    return collectFeed(readKfintechFeed(file));
  }

  it("reads positions by header name with quotes and extra columns", async () => {
    const { positions } = await kfintech();
    expect(positions).toHaveLength(6);
    expect(byFolio(positions, "3001")).toEqual({
      registrar: "KFINTECH",
      arn: "ARN-11111",
      amc_code: "128",
      amc_name: null,
      folio_no: "3001",
      scheme_code: "128GPGR",
      isin: "INF846K01DP8",
      scheme_name: 'Axis Test Fund, "Growth"',
      units: "1000.250",
      nav: "45.6789",
      nav_date: "2026-01-16",
      market_value: "45690.12",
      balance_date: "2026-01-16",
      holding_nature: "SINGLE",
      pan: "ABCPE1234F",
      investor_name: "Investor, Test",
    } satisfies FeedPosition);
    expect(byFolio(positions, "3003")).toMatchObject({ isin: null, nav: null, nav_date: null, market_value: null });
    expect(byFolio(positions, "3008")).toMatchObject({ units: "0.000", market_value: "0.00", pan: "ABCPE1234F" });
    expect(positions.map((p) => p.balance_date)).toEqual(Array(6).fill("2026-01-16"));
  });

  it("maps the mode of holding and serves only single holders with a PAN", async () => {
    const { positions } = await kfintech();
    expect(positions.map((p) => [p.folio_no, p.holding_nature, servable(p)])).toEqual([
      ["3001", "SINGLE", true],
      ["3002", "JOINT", false],
      ["3003", "ANYONE_OR_SURVIVOR", false],
      ["3004", "SINGLE", false],
      ["3005", "OTHER", false],
      ["3008", "SINGLE", true],
    ]);
  });

  it("reports malformed rows and rejects a file missing a mandatory column", async () => {
    const { problems } = await kfintech();
    expect(problems).toEqual([
      { file: "MFSD203.csv", line: 7, reason: 'balunits is not a number: "abc"' },
      { file: "MFSD203.csv", line: 8, reason: 'crdate is not a date: "16/01/2026"' },
    ]);
    const noMoh = await feed("MFSD203-no-moh.csv", [
      MFSD203_HEADER.replace(",MOH", "").replace(",PAN", ""),
      "128GPGR,128,3001,Axis Test Fund,INF846K01DP8,1,0,1,1,ARN-11111,Test Investor,16-Jan-2026,T1",
    ]);
    await expect(collectFeed(readKfintechFeed(noMoh))).rejects.toThrow(
      new FeedFileError("MFSD203-no-moh.csv", "missing mandatory columns: moh, pan"),
    );
  });
});

describe("streaming", () => {
  const ROWS = 200_000;

  async function writeRows(name: string, header: string, row: (i: number) => string) {
    const file = path.join(dir, name);
    const out = createWriteStream(file);
    out.write(`${header}\n`);
    for (let i = 0; i < ROWS; i++) {
      if (!out.write(`${row(i)}\n`)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    return feedFile(file);
  }

  /** Consumes the items without keeping them, sampling the heap; returns counts and the peak heap growth. */
  async function drain(items: AsyncIterable<FeedItem>) {
    collectGarbage();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let positions = 0;
    let servableCount = 0;
    for await (const item of items) {
      if (item.kind !== "position") continue;
      positions++;
      if (servable(item.position)) servableCount++;
      // The live heap (after a collection), not what the young generation happens to hold: its size is the
      // engine's choice (Node 24's V8 lets it grow further than 20's did before scavenging).
      if (positions % 10_000 === 0) {
        collectGarbage();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    return { positions, servable: servableCount, peakGrowthMb: peak / 2 ** 20 };
  }

  it(`parses ${ROWS.toLocaleString("en")} KFintech rows with bounded memory`, async () => {
    const file = await writeRows("MFSD203-big.csv", MFSD203_HEADER, (i) =>
      `128GPGR,128,${100000 + i},"Axis Test Fund, Growth",INF846K01DP8,${i}.125,0,45.6789,"1,${String(i % 1000).padStart(3, "0")}.78",${i % 2 ? "JOINT" : "SINGLE"},ARN-11111,ABCPE1234F,Test Investor,16-Jan-2026,T${i}`,
    );
    const result = await drain(readKfintechFeed(file));
    expect(result.positions).toBe(ROWS);
    expect(result.servable).toBe(ROWS / 2);
    expect(result.peakGrowthMb).toBeLessThan(16);
  });

  it(`parses ${ROWS.toLocaleString("en")} CAMS WBR22 rows with bounded memory`, async () => {
    const investors = await writeRowsSmall();
    const positions = await writeRows("WBR22-big.csv", WBR22_HEADER, (i) =>
      `ARN-11111,P${8000 + (i % 100)},16-Jan-2026,${i % 1000},Test Investor,"Scheme, ${i % 100}",${i}.5,10.25,${i}.00,,01,`,
    );
    const result = await drain(readCamsFeed({ positions, investors }));
    expect(result.positions).toBe(ROWS);
    expect(result.peakGrowthMb).toBeLessThan(16);
  });

  async function writeRowsSmall() {
    const lines = [WBR9_HEADER];
    for (let folio = 0; folio < 1000; folio++) {
      for (let scheme = 0; scheme < 100; scheme += 25) lines.push(`${folio},,ABCPE1234F,,,,,SI,P,P${8000 + scheme},1,`);
    }
    // The remaining products' AMC comes from the folio's only AMC in WBR9.
    return feed("WBR9-big.csv", lines);
  }
});
