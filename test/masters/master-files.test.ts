import { describe, expect, it } from "vitest";
import { CellError, cutOffTime, decimal, flag, integer, MasterFileError, masterDate, normaliseHeader, readMasterLines } from "../../src/integrations/exchange/masters/master-file.js";
import { parseSchemeMaster, SCHEME_MASTER_REQUIRED, transactionMode, type ExchangeSchemeRecord } from "../../src/integrations/exchange/masters/scheme-master.js";
import { parseSipMaster, SIP_MASTER_REQUIRED, type ExchangeSipRecord } from "../../src/integrations/exchange/masters/sip-master.js";
import { masterFile, SCHEME_MASTER_HEADER, SIP_MASTER_HEADER, type MasterRow } from "../helpers/exchange-masters.js";

/**
 * The exchange's master files read without a database (exchange-masters.md): pure unit tests of the value
 * formats, the header matching and the line rules, pinned exactly for mutation testing (npm run
 * mutate:exchange-rules). The import into the database is tested in exchange-masters.test.ts.
 */

/** The error a parser throws for `value`, or a failure when it returns. */
function refusal(read: () => unknown): Error {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal");
}

describe("header names", () => {
  it("are matched in lower case, letters and digits only", () => {
    expect(normaliseHeader("  SCHEME   CODE ")).toBe("schemecode");
    expect(normaliseHeader("Redemption Amount \u2013 Maximum")).toBe("redemptionamountmaximum");
    expect(normaliseHeader("Redemption Amount - Minimum")).toBe("redemptionamountminimum");
    expect(normaliseHeader("AMC_IND")).toBe("amcind");
    expect(normaliseHeader("Lock-in Period")).toBe("lockinperiod");
    expect(normaliseHeader("Open/Close Ended Scheme")).toBe("opencloseendedscheme");
    // Every letter and digit is kept, the ends of the ranges included.
    expect(normaliseHeader("Filler 1")).toBe("filler1");
    expect(normaliseHeader("a-z A-Z 0.9 ()[]")).toBe("azaz09");
    expect(normaliseHeader("Zebra 0 Yak 9")).toBe("zebra0yak9");
    expect(normaliseHeader("")).toBe("");
  });
});

describe("readMasterLines", () => {
  it("reads cells by normalised header name, trimmed, with each line's number in the file", () => {
    const { lines, headers } = readMasterLines("Scheme Code| ISIN |Min-Amount\r\n 01-DP | INF209K01AJ8 |1000\r\n02-GR|INF209K01UN8|\r\n", "scheme master", ["schemecode"]);
    expect(headers).toEqual(["schemecode", "isin", "minamount"]);
    expect(lines.map((l) => [l.line, l.cell("schemecode"), l.cell("isin"), l.cell("minamount")])).toEqual([
      [2, "01-DP", "INF209K01AJ8", "1000"],
      [3, "02-GR", "INF209K01UN8", ""],
    ]);
  });

  it("answers an empty cell for a column the header lacks, and for a line shorter than the header", () => {
    const { lines } = readMasterLines("a|b|c\nx\n", "file", []);
    expect(lines).toHaveLength(1);
    expect([lines[0]!.cell("a"), lines[0]!.cell("b"), lines[0]!.cell("c"), lines[0]!.cell("d")]).toEqual(["x", "", "", ""]);
  });

  it("splits on LF, CRLF and CR alike, and counts lines in each", () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const { lines } = readMasterLines(["a|b", "1|2", "", "3|4"].join(eol), "file", ["a"]);
      expect(lines.map((l) => [l.line, l.cell("a"), l.cell("b")]), JSON.stringify(eol)).toEqual([[2, "1", "2"], [4, "3", "4"]]);
    }
    // Mixed endings, each one line.
    const { lines } = readMasterLines("a\r\n1\n2\r3\r\n\r\n4", "file", ["a"]);
    expect(lines.map((l) => [l.line, l.cell("a")])).toEqual([[2, "1"], [3, "2"], [4, "3"], [6, "4"]]);
  });

  it("takes the first non-blank line as the header, and skips blank lines (spaces only too)", () => {
    const { lines, headers } = readMasterLines("\n   \n\tA|B\n\n  \n1|2\n \t \n3|4\n", "file", ["a", "b"]);
    expect(headers).toEqual(["a", "b"]);
    expect(lines.map((l) => [l.line, l.cell("a"), l.cell("b")])).toEqual([[6, "1", "2"], [8, "3", "4"]]);
  });

  it("drops a byte-order mark before the header (and only there)", () => {
    const { lines, headers } = readMasterLines("\uFEFFCode|Name\n1|A\uFEFFB\n", "file", ["code"]);
    expect(headers).toEqual(["code", "name"]);
    expect(lines.map((l) => [l.cell("code"), l.cell("name")])).toEqual([["1", "A\uFEFFB"]]);
    expect(readMasterLines("Code|Name\n1|A\uFEFFB\n", "file", ["code"]).lines[0]!.cell("name")).toBe("A\uFEFFB");
    // The mark is not part of the first header cell, whatever that cell holds.
    const raw = readMasterLines("\uFEFF|x\n1|2\n", "file", []);
    expect(raw.headers).toEqual(["", "x"]);
  });

  it("keeps the first of two columns with the same name; an unnamed column is never a cell", () => {
    const { lines } = readMasterLines("Code|CODE||Name\nfirst|second|hidden|n\n", "file", ["code"]);
    expect([lines[0]!.cell("code"), lines[0]!.cell("name"), lines[0]!.cell("")]).toEqual(["first", "n", ""]);
  });

  it("refuses a file without a header line", () => {
    for (const text of ["", "\n", " \r\n\t\r\n", "\uFEFF"]) {
      const error = refusal(() => readMasterLines(text, "SIP master", ["schemecode"]));
      expect(error).toBeInstanceOf(MasterFileError);
      expect(error.name).toBe("MasterFileError");
      expect(error.message).toBe("the SIP master is empty: it needs a header line naming its columns");
    }
  });

  it("refuses a header lacking a required column, naming each one missing", () => {
    const one = refusal(() => readMasterLines("Scheme Code|ISIN\n", "scheme master", ["schemecode", "isin", "schemename"]));
    expect(one).toBeInstanceOf(MasterFileError);
    expect(one.message).toBe('the scheme master\'s header lacks the column "schemename" (names are matched ignoring case, spaces and punctuation)');
    const two = refusal(() => readMasterLines("Scheme Code|ISIN\n1|2\n", "scheme master", ["isin", "sipflag", "schemecode", "stpflag"]));
    expect(two.message).toBe('the scheme master\'s header lacks the columns "sipflag", "stpflag" (names are matched ignoring case, spaces and punctuation)');
    // A header alone is a file with no lines.
    expect(readMasterLines("Scheme Code|ISIN", "scheme master", ["schemecode", "isin"]).lines).toEqual([]);
  });
});

describe("flag", () => {
  it.each([["Y"], ["y"], ["YES"], ["Yes"], ["1"], ["TRUE"], ["true"]])("%j is Y", (value) => {
    expect(flag(value, "SIP FLAG")).toBe(true);
  });
  it.each([[""], ["N"], ["n"], ["NO"], ["no"], ["0"], ["FALSE"], ["false"]])("%j is N", (value) => {
    expect(flag(value, "SIP FLAG")).toBe(false);
  });
  it.each([["maybe"], ["2"], ["YN"], ["Z"], ["T"], ["F"], [" "]])("%j is refused", (value) => {
    const error = refusal(() => flag(value, "Switch FLAG"));
    expect(error).toBeInstanceOf(CellError);
    expect(error.message).toBe(`Switch FLAG "${value}" is not Y or N`);
  });
});

describe("decimal", () => {
  it.each([
    ["0", 2, "0"],
    ["5000", 2, "5000"],
    ["1000.00", 2, "1000"],
    ["12.50", 2, "12.5"],
    ["1.05", 2, "1.05"],
    ["1.500", 2, "1.5"],
    ["1.230", 2, "1.23"],
    ["0.001", 3, "0.001"],
    ["1.25", 3, "1.25"],
    ["007", 2, "7"],
    ["000", 2, "0"],
    ["00.5", 2, "0.5"],
    ["100", 2, "100"],
    ["1020", 2, "1020"],
    ["1,00,000.50", 2, "100000.5"],
    ["99,999,999", 2, "99999999"],
    ["123456789012345", 2, "123456789012345"],
    ["123456789012345.12", 2, "123456789012345.12"],
    ["7.000000", 0, "7"],
    ["", 2, null],
  ] as const)("%j with %d decimals is %j", (value, scale, expected) => {
    expect(decimal(value, "Minimum Purchase Amount", scale)).toBe(expected);
  });

  it.each([["1234567890123456"], ["1."], [".5"], ["-1"], ["+1"], ["1e3"], ["abc1"], ["1abc"], ["5,00x"], ["1.2.3"], ["1 000"], ["NIL"], [" 1"], ["1.5x"]])("%j is not a number", (value) => {
    const error = refusal(() => decimal(value, "Maximum Purchase Amount", 2));
    expect(error).toBeInstanceOf(CellError);
    expect(error.message).toBe(`Maximum Purchase Amount "${value}" is not a number`);
  });

  it("refuses more significant decimals than the column keeps", () => {
    expect(refusal(() => decimal("1.234", "Minimum Purchase Amount", 2)).message).toBe('Minimum Purchase Amount "1.234" has more than 2 decimals');
    expect(refusal(() => decimal("0.0001", "Minimum Redemption Qty", 3)).message).toBe('Minimum Redemption Qty "0.0001" has more than 3 decimals');
    expect(refusal(() => decimal("0.1", "Whole", 0))).toBeInstanceOf(CellError);
  });

  it("answers no rule for a zero where zero means none, and zero otherwise", () => {
    for (const zero of ["0", "0.00", "000", "0,000.0"]) {
      expect(decimal(zero, "Maximum Purchase Amount", 2, true), zero).toBeNull();
      expect(decimal(zero, "Minimum Purchase Amount", 2), zero).toBe("0");
    }
    expect(decimal("0.5", "Purchase Amount Multiplier", 2, true)).toBe("0.5");
    expect(decimal("0.01", "Purchase Amount Multiplier", 2, true)).toBe("0.01");
    expect(decimal("10", "Purchase Amount Multiplier", 2, true)).toBe("10");
    expect(decimal("", "Purchase Amount Multiplier", 2, true)).toBeNull();
  });
});

describe("integer", () => {
  it.each([["0", 0], ["12", 12], ["007", 7], ["12.0", 12], ["12.00", 12], ["123456789", 123456789], ["", null]] as const)("%j is %j", (value, expected) => {
    expect(integer(value, "Unique No")).toBe(expected);
  });
  it.each([["1234567890"], ["12.5"], ["12.05"], ["12."], ["-1"], ["a1"], ["1a"], ["12x0"], ["1,000"], [".0"], ["1 2"]])("%j is not a whole number", (value) => {
    const error = refusal(() => integer(value, "SIP MINIMUM GAP"));
    expect(error).toBeInstanceOf(CellError);
    expect(error.message).toBe(`SIP MINIMUM GAP "${value}" is not a whole number`);
  });
});

describe("cutOffTime", () => {
  it.each([
    ["15:00:00", "15:00"],
    ["15:00", "15:00"],
    ["9:30", "09:30"],
    ["0:05", "00:05"],
    ["00:00:00", "00:00"],
    ["23:59:59", "23:59"],
    ["15:00:00.000", "15:00"],
    ["13:30:00.5", "13:30"],
    ["3:00 PM", "15:00"],
    ["3:00PM", "15:00"],
    ["3:00  PM", "15:00"],
    ["03:00:00 pm", "15:00"],
    ["1:30 pm", "13:30"],
    ["12:00 AM", "00:00"],
    ["12:30 am", "00:30"],
    ["12:00 PM", "12:00"],
    ["12:59 PM", "12:59"],
    ["1:00 AM", "01:00"],
    ["11:59 AM", "11:59"],
    ["11:59 PM", "23:59"],
    ["10:15:30 AM", "10:15"],
    ["", null],
  ])("%j is %j", (value, expected) => {
    expect(cutOffTime(value, "Purchase Cutoff Time")).toBe(expected);
  });

  it.each([
    ["0.5625", "13:30"],
    [".625", "15:00"],
    ["0.5", "12:00"],
    ["0.25", "06:00"],
    ["0.2535", "06:05"],
    ["0.0104166", "00:15"],
    ["0.999", "23:59"],
    // The last half minute of the day rounds to midnight: kept in the day, as 23:59:40 is 23:59.
    ["0.9997", "23:59"],
    ["0.99999999", "23:59"],
    ["0.0", "00:00"],
    ["0.041666", "01:00"],
    ["0.3", "07:12"],
  ])("the day fraction %j is %j", (value, expected) => {
    expect(cutOffTime(value, "Purchase Cutoff Time")).toBe(expected);
  });

  it.each([
    ["24:00"], ["23:60"], ["12:60 PM"], ["13:00 PM"], ["0:30 AM"], ["00:00 PM"], ["123:00"], ["1:5"], ["15"], ["15:00:0"], ["15:00:00."], ["15:000"],
    ["15:00 XM"], ["15:00 P"], ["x15:00"], ["15:00x"], ["1.5"], ["00.5"], ["0."], ["0.5x"], ["15-00"], ["3 PM"], ["15:00:00:00"],
  ])("%j is refused", (value) => {
    const error = refusal(() => cutOffTime(value, "Redemption Cut off Time"));
    expect(error).toBeInstanceOf(CellError);
    expect(error.message).toBe(`Redemption Cut off Time "${value}" is not a time HH:MM:SS`);
  });
});

describe("masterDate", () => {
  it.each([
    ["2013-04-01", "2013-04-01"],
    ["2013-4-1", "2013-04-01"],
    ["2013-04-01T00:00:00", "2013-04-01"],
    ["2013-04-01 00:00:00.000", "2013-04-01"],
    ["01-04-2013", "2013-04-01"],
    ["1/4/2013", "2013-04-01"],
    ["01.04.2013", "2013-04-01"],
    ["31-12-2013 00:00:00", "2013-12-31"],
    ["05-Jan-2024", "2024-01-05"],
    ["05 JAN 2024", "2024-01-05"],
    ["5-january-2024", "2024-01-05"],
    ["05 Jan, 2024", "2024-01-05"],
    ["05-Jan-2024 10:00", "2024-01-05"],
    ["Dec 31 9999 12:00AM", "9999-12-31"],
    ["Apr  1 2010 12:00AM", "2010-04-01"],
    ["December 31, 9999", "9999-12-31"],
    ["jan 5 2024", "2024-01-05"],
    ["  Jan \t 5   2024  ", "2024-01-05"],
    [" 2013-04-01 ", "2013-04-01"],
    ["29-02-2024", "2024-02-29"],
    ["01-01-1900", "1900-01-01"],
    ["", null],
  ])("%j is %j", (value, expected) => {
    expect(masterDate(value, "Start Date")).toBe(expected);
  });

  it.each([
    ["Jan", 1], ["Feb", 2], ["Mar", 3], ["Apr", 4], ["May", 5], ["Jun", 6], ["Jul", 7], ["Aug", 8], ["Sep", 9], ["Oct", 10], ["Nov", 11], ["Dec", 12],
  ])("%s is month %d in both month-name forms", (month, number) => {
    const mm = String(number).padStart(2, "0");
    expect(masterDate(`${month} 7 2025`, "End Date")).toBe(`2025-${mm}-07`);
    expect(masterDate(`07-${month}-2025`, "End Date")).toBe(`2025-${mm}-07`);
  });

  it.each([
    ["13-04-01"], ["2013/04/01"], ["2013-04-01X"], ["01-04-13"], ["01-04-2013X"], ["01-04-20135"], ["x01-04-2013"], ["05-XYZ-2024"], ["Xyz 31 2024"],
    ["05-Ja-2024"], ["Ja 5 2024"], ["Jan 5 24"], ["Jan 123 2024"], ["Jan5 2024"], ["Jan 5  x2024"], ["05--Jan-2024"], ["2013"], ["tomorrow"], ["12345-01-01"],
    ["05 Jan2024"], ["05Jan-2024"], ["X05-Jan-2024"], ["05-Jan-2024X"], ["05-Jan-20245"], ["1 Jan 5 2024"], ["Jan 5 2024X"], ["Jan 5 20245"],
  ])("%j is not a date", (value) => {
    const error = refusal(() => masterDate(value, "ReOpening Date"));
    expect(error).toBeInstanceOf(CellError);
    expect(error.message).toBe(`ReOpening Date "${value}" is not a date`);
  });

  it.each([
    ["31-02-2020"], ["29-02-2023"], ["31-04-2024"], ["00-01-2024"], ["2024-13-01"], ["2024-00-10"], ["2024-12-32"], ["01-01-1899"], ["01-01-0099"],
    ["31-Jun-2024"], ["Feb 30 2024"], ["0000-01-01"],
  ])("%j is not a real date", (value) => {
    const error = refusal(() => masterDate(value, "End Date"));
    expect(error).toBeInstanceOf(CellError);
    expect(error.message).toBe(`End Date "${value}" is not a real date`);
  });
});

describe("transactionMode", () => {
  it.each([
    ["P", "PHYSICAL"], ["p", "PHYSICAL"], ["PHYSICAL", "PHYSICAL"], ["Physical", "PHYSICAL"], [" P ", "PHYSICAL"],
    ["D", "DEMAT"], ["d", "DEMAT"], ["DEMAT", "DEMAT"], ["Demat", "DEMAT"],
    ["DP", "BOTH"], ["PD", "BOTH"], ["D/P", "BOTH"], ["d p", "BOTH"], ["P-D", "BOTH"], ["BOTH", "BOTH"], ["both", "BOTH"],
  ])("%j is %s", (value, expected) => {
    expect(transactionMode(value, "Purchase Transaction mode")).toBe(expected);
  });
  it.each([[""], ["X"], ["DPX"], ["PZ"], ["AP"], ["PP"], ["DD"], ["1"], ["PHYS"]])("%j is refused", (value) => {
    const error = refusal(() => transactionMode(value, "SIP TRANSACTION MODE"));
    expect(error).toBeInstanceOf(CellError);
    expect(error.message).toBe(`SIP TRANSACTION MODE "${value}" is not P, D or DP`);
  });
});

// --- The scheme master -------------------------------------------------------------------------------

type Row = MasterRow;
/** A row whose every kept cell differs from every other, so a column read from the wrong header shows. */
const schemeRow = (overrides: Row = {}): Row => ({
  "Unique No": "17", "Scheme Code": "HDFCX-GR", "RTA Scheme Code": "HX", "AMC Scheme Code": "HX1", ISIN: "INF179K01UT0", "AMC Code": "HDFC_MF",
  "Scheme Type": "Equity", "Scheme Plan": "Direct", "Scheme Name": "HDFC Flexi Cap Direct Growth", "Purchase Allowed": "Y",
  "Purchase Transaction mode": "DP", "Minimum Purchase Amount": "5000", "Additional Purchase Amount": "1000.00", "Maximum Purchase Amount": "2000000",
  "Purchase Amount Multiplier": "1", "Purchase Cutoff Time": "15:00:00", "Redemption Allowed": "N", "Redemption Transaction Mode": "P",
  "Minimum Redemption Qty": "0.001", "Redemption Qty Multiplier": "0.002", "Maximum Redemption Qty": "90000.5", "Redemption Amount - Minimum": "1001",
  "Redemption Amount \u2013 Maximum": "700000", "Redemption Amount Multiple": "2", "Redemption Cut off Time": "14:30:00", "RTA Agent Code": "CAMS",
  "AMC Active Flag": "1", "Dividend Reinvestment Flag": "Z", "SIP FLAG": "Y", "STP FLAG": "N", "SWP Flag": "Y", "Switch FLAG": "N",
  "SETTLEMENT TYPE": "t2", "AMC_IND": "", "Face Value": "10", "Start Date": "01-04-2013", "End Date": "Dec 31 9999 12:00AM", "Exit Load Flag": "Y",
  "Exit Load": "1% if redeemed within 365 days", "Lock-in Period Flag": "N", "Lock-in Period": "3 Years", "Channel Partner Code": "", "ReOpening Date": "2020-06-15",
  ...overrides,
});
const file = masterFile;
const schemeMaster = (rows: Row[], header = SCHEME_MASTER_HEADER) => file(header, rows);

const RECORD: ExchangeSchemeRecord = {
  line: 2, code: "HDFCX-GR", uniqueNo: 17, isin: "INF179K01UT0", name: "HDFC Flexi Cap Direct Growth", rtaSchemeCode: "HX", amcSchemeCode: "HX1",
  amcCode: "HDFC_MF", schemeType: "EQUITY", schemePlan: "DIRECT", transactionMode: "BOTH", purchaseAllowed: true, redemptionAllowed: false,
  sipAllowed: true, stpAllowed: false, swpAllowed: true, switchAllowed: false, amcActive: true, minPurchaseAmount: "5000", minAdditionalAmount: "1000",
  maxPurchaseAmount: "2000000", purchaseMultiple: "1", minRedemptionAmount: "1001", maxRedemptionAmount: "700000", redemptionAmountMultiple: "2",
  minRedemptionUnits: "0.001", maxRedemptionUnits: "90000.5", redemptionUnitsMultiple: "0.002", purchaseCutOff: "15:00", redemptionCutOff: "14:30",
  settlementType: "T2", exitLoad: "1% if redeemed within 365 days", lockIn: "3 Years", startDate: "2013-04-01", endDate: "9999-12-31", reopeningDate: "2020-06-15",
};

const oneScheme = (overrides: Row, header = SCHEME_MASTER_HEADER) => parseSchemeMaster(schemeMaster([schemeRow(overrides)], header));
const oneRecord = (overrides: Row, header = SCHEME_MASTER_HEADER) => {
  const { records, problems } = oneScheme(overrides, header);
  expect(problems).toEqual([]);
  expect(records).toHaveLength(1);
  return records[0]!;
};
const oneProblem = (overrides: Row, header = SCHEME_MASTER_HEADER) => {
  const { records, problems } = oneScheme(overrides, header);
  expect(records).toEqual([]);
  expect(problems).toHaveLength(1);
  return problems[0]!;
};

describe("parseSchemeMaster", () => {
  it("reads every column it keeps, by name", () => {
    expect(parseSchemeMaster(schemeMaster([schemeRow()]))).toEqual({ records: [RECORD], problems: [] });
  });

  it("reads the columns in any order and any spelling of their names", () => {
    const header = [...SCHEME_MASTER_HEADER].reverse();
    const odd = header.map((h) => (h === "Scheme Code" ? "  SCHEME   CODE " : h === "Purchase Transaction mode" ? "PURCHASE-TRANSACTION-MODE" : h === "Redemption Amount \u2013 Maximum" ? "redemption_amount_maximum" : h.toLowerCase()));
    expect(parseSchemeMaster(file(header, [schemeRow()], odd.join("|")))).toEqual({ records: [RECORD], problems: [] });
  });

  it("needs only its required columns: an absent optional column is no rule, text null, a flag's default", () => {
    const header = SCHEME_MASTER_HEADER.filter((h) => SCHEME_MASTER_REQUIRED.includes(normaliseHeader(h) as (typeof SCHEME_MASTER_REQUIRED)[number]));
    expect(header).toHaveLength(SCHEME_MASTER_REQUIRED.length);
    expect(oneRecord({}, header)).toEqual({
      line: 2, code: "HDFCX-GR", uniqueNo: null, isin: "INF179K01UT0", name: "HDFC Flexi Cap Direct Growth", rtaSchemeCode: null, amcSchemeCode: null,
      amcCode: null, schemeType: null, schemePlan: null, transactionMode: "BOTH", purchaseAllowed: true, redemptionAllowed: false,
      sipAllowed: true, stpAllowed: false, swpAllowed: true, switchAllowed: false, amcActive: true, minPurchaseAmount: "5000", minAdditionalAmount: null,
      maxPurchaseAmount: null, purchaseMultiple: null, minRedemptionAmount: null, maxRedemptionAmount: null, redemptionAmountMultiple: null,
      minRedemptionUnits: null, maxRedemptionUnits: null, redemptionUnitsMultiple: null, purchaseCutOff: null, redemptionCutOff: null,
      settlementType: null, exitLoad: null, lockIn: null, startDate: null, endDate: null, reopeningDate: null,
    });
  });

  it("refuses a file whose header lacks required columns, naming them", () => {
    const header = SCHEME_MASTER_HEADER.filter((h) => h !== "ISIN" && h !== "SIP FLAG");
    const error = refusal(() => parseSchemeMaster(schemeMaster([schemeRow()], header)));
    expect(error).toBeInstanceOf(MasterFileError);
    expect(error.message).toBe('the scheme master\'s header lacks the columns "isin", "sipflag" (names are matched ignoring case, spaces and punctuation)');
    expect(refusal(() => parseSchemeMaster("")).message).toBe("the scheme master is empty: it needs a header line naming its columns");
    for (const name of SCHEME_MASTER_REQUIRED) {
      const without = SCHEME_MASTER_HEADER.filter((h) => normaliseHeader(h) !== name);
      expect(refusal(() => parseSchemeMaster(schemeMaster([schemeRow()], without))).message, name).toBe(
        `the scheme master's header lacks the column "${name}" (names are matched ignoring case, spaces and punctuation)`,
      );
    }
  });

  it("empty cells: no rule for numbers and dates, null for text, N for flags, the AMC active, the code as the name", () => {
    const empty = Object.fromEntries(SCHEME_MASTER_HEADER.filter((h) => !["Scheme Code", "ISIN", "Purchase Transaction mode"].includes(h)).map((h) => [h, ""]));
    expect(oneRecord(empty)).toEqual({
      line: 2, code: "HDFCX-GR", uniqueNo: null, isin: "INF179K01UT0", name: "HDFCX-GR", rtaSchemeCode: null, amcSchemeCode: null,
      amcCode: null, schemeType: null, schemePlan: null, transactionMode: "BOTH", purchaseAllowed: false, redemptionAllowed: false,
      sipAllowed: false, stpAllowed: false, swpAllowed: false, switchAllowed: false, amcActive: true, minPurchaseAmount: null, minAdditionalAmount: null,
      maxPurchaseAmount: null, purchaseMultiple: null, minRedemptionAmount: null, maxRedemptionAmount: null, redemptionAmountMultiple: null,
      minRedemptionUnits: null, maxRedemptionUnits: null, redemptionUnitsMultiple: null, purchaseCutOff: null, redemptionCutOff: null,
      settlementType: null, exitLoad: null, lockIn: null, startDate: null, endDate: null, reopeningDate: null,
    });
  });

  it("a zero maximum or multiple is no rule; a zero minimum is a minimum of zero", () => {
    const zeros = Object.fromEntries([
      "Minimum Purchase Amount", "Additional Purchase Amount", "Maximum Purchase Amount", "Purchase Amount Multiplier", "Minimum Redemption Qty",
      "Redemption Qty Multiplier", "Maximum Redemption Qty", "Redemption Amount - Minimum", "Redemption Amount \u2013 Maximum", "Redemption Amount Multiple",
    ].map((h) => [h, "0.00"]));
    expect(oneRecord(zeros)).toMatchObject({
      minPurchaseAmount: "0", minAdditionalAmount: "0", maxPurchaseAmount: null, purchaseMultiple: null, minRedemptionAmount: "0",
      maxRedemptionAmount: null, redemptionAmountMultiple: null, minRedemptionUnits: "0", maxRedemptionUnits: null, redemptionUnitsMultiple: null,
    });
  });

  it("keeps 2 decimals for rupees and 3 for units", () => {
    const rupees = ["Minimum Purchase Amount", "Additional Purchase Amount", "Maximum Purchase Amount", "Purchase Amount Multiplier", "Redemption Amount - Minimum", "Redemption Amount \u2013 Maximum", "Redemption Amount Multiple"];
    const units = ["Minimum Redemption Qty", "Redemption Qty Multiplier", "Maximum Redemption Qty"];
    for (const column of rupees) {
      expect(oneProblem({ [column]: "1.005" }).message, column).toBe(`${column.replace("\u2013", "-")} "1.005" has more than 2 decimals`);
    }
    for (const column of units) {
      expect(oneProblem({ [column]: "1.0005" }).message, column).toBe(`${column} "1.0005" has more than 3 decimals`);
    }
    expect(oneRecord({ "Minimum Redemption Qty": "1.005", "Redemption Qty Multiplier": "0.125", "Maximum Redemption Qty": "9.999" })).toMatchObject({
      minRedemptionUnits: "1.005", redemptionUnitsMultiple: "0.125", maxRedemptionUnits: "9.999",
    });
  });

  it.each([
    ["Unique No", "1.5", 'Unique No "1.5" is not a whole number'],
    ["Purchase Allowed", "maybe", 'Purchase Allowed "maybe" is not Y or N'],
    ["Redemption Allowed", "X", 'Redemption Allowed "X" is not Y or N'],
    ["SIP FLAG", "X", 'SIP FLAG "X" is not Y or N'],
    ["STP FLAG", "X", 'STP FLAG "X" is not Y or N'],
    ["SWP Flag", "X", 'SWP Flag "X" is not Y or N'],
    ["Switch FLAG", "X", 'Switch FLAG "X" is not Y or N'],
    ["AMC Active Flag", "X", 'AMC Active Flag "X" is not Y or N'],
    ["Minimum Purchase Amount", "5,00x", 'Minimum Purchase Amount "5,00x" is not a number'],
    ["Additional Purchase Amount", "x", 'Additional Purchase Amount "x" is not a number'],
    ["Maximum Purchase Amount", "x", 'Maximum Purchase Amount "x" is not a number'],
    ["Purchase Amount Multiplier", "x", 'Purchase Amount Multiplier "x" is not a number'],
    ["Redemption Amount - Minimum", "x", 'Redemption Amount - Minimum "x" is not a number'],
    ["Redemption Amount \u2013 Maximum", "x", 'Redemption Amount - Maximum "x" is not a number'],
    ["Redemption Amount Multiple", "x", 'Redemption Amount Multiple "x" is not a number'],
    ["Minimum Redemption Qty", "x", 'Minimum Redemption Qty "x" is not a number'],
    ["Maximum Redemption Qty", "x", 'Maximum Redemption Qty "x" is not a number'],
    ["Redemption Qty Multiplier", "x", 'Redemption Qty Multiplier "x" is not a number'],
    ["Purchase Cutoff Time", "3pm", 'Purchase Cutoff Time "3pm" is not a time HH:MM:SS'],
    ["Redemption Cut off Time", "25:00", 'Redemption Cut off Time "25:00" is not a time HH:MM:SS'],
    ["Start Date", "31-02-2020", 'Start Date "31-02-2020" is not a real date'],
    ["End Date", "someday", 'End Date "someday" is not a date'],
    ["ReOpening Date", "soon", 'ReOpening Date "soon" is not a date'],
    ["Purchase Transaction mode", "X", 'Purchase Transaction mode "X" is not P, D or DP'],
  ])("a bad %s skips the line: %s", (column, value, message) => {
    expect(oneProblem({ [column]: value })).toEqual({ line: 2, message });
  });

  it("reads the holding modes, from the redemption mode when the purchase mode is empty", () => {
    expect(oneRecord({ "Purchase Transaction mode": "P", "Redemption Transaction Mode": "D" }).transactionMode).toBe("PHYSICAL");
    expect(oneRecord({ "Purchase Transaction mode": "D", "Redemption Transaction Mode": "P" }).transactionMode).toBe("DEMAT");
    expect(oneRecord({ "Purchase Transaction mode": "", "Redemption Transaction Mode": "D" }).transactionMode).toBe("DEMAT");
    expect(oneProblem({ "Purchase Transaction mode": "", "Redemption Transaction Mode": "" })).toEqual({ line: 2, message: 'Purchase Transaction mode "" is not P, D or DP' });
  });

  it("the AMC takes orders unless its flag says N", () => {
    expect(oneRecord({ "AMC Active Flag": "0" }).amcActive).toBe(false);
    expect(oneRecord({ "AMC Active Flag": "N" }).amcActive).toBe(false);
    expect(oneRecord({ "AMC Active Flag": "Y" }).amcActive).toBe(true);
    expect(oneRecord({ "AMC Active Flag": "" }).amcActive).toBe(true);
  });

  it("reads each flag from its own column", () => {
    const flags = ["Purchase Allowed", "Redemption Allowed", "SIP FLAG", "STP FLAG", "SWP Flag", "Switch FLAG"];
    const keys = ["purchaseAllowed", "redemptionAllowed", "sipAllowed", "stpAllowed", "swpAllowed", "switchAllowed"] as const;
    flags.forEach((column, i) => {
      const record = oneRecord(Object.fromEntries(flags.map((c) => [c, c === column ? "Y" : "N"])));
      expect(keys.map((k) => record[k]), column).toEqual(keys.map((_, j) => j === i));
    });
  });

  it("refuses an empty or long scheme code, and an ISIN that is not one", () => {
    expect(oneProblem({ "Scheme Code": "" })).toEqual({ line: 2, message: "Scheme Code is empty" });
    expect(oneRecord({ "Scheme Code": "A".repeat(20) }).code).toBe("A".repeat(20));
    expect(oneProblem({ "Scheme Code": "B".repeat(21) }).message).toBe(`Scheme Code "${"B".repeat(21)}" is longer than 20 characters`);
    expect(oneProblem({ "Scheme Code": "0123456789".repeat(4) }).message).toBe(`Scheme Code "${"0123456789".repeat(3)}" is longer than 20 characters`);
    expect(oneRecord({ ISIN: "inf179k01ut0" }).isin).toBe("INF179K01UT0");
    expect(oneRecord({ ISIN: "IN0000000000" }).isin).toBe("IN0000000000");
    expect(oneRecord({ ISIN: "USZZZZZZZZZ9" }).isin).toBe("USZZZZZZZZZ9");
    for (const isin of ["INF179K01UTX", "1NF179K01UT0", "INF179K01UT", "INF179K01UT00", "XINF179K01UT0", "INF179K01-T0", "", "I1F179K01UT0"]) {
      expect(oneProblem({ ISIN: isin }).message, isin).toBe(`ISIN "${isin.toUpperCase()}" is not an ISIN`);
    }
    expect(oneProblem({ ISIN: "not an isin at all, no, not at all" }).message).toBe('ISIN "NOT AN ISIN AT ALL, " is not an ISIN');
  });

  it("skips lines with their line numbers, keeps the first of a repeated code, and lets a code whose first line was bad come again", () => {
    const text = [
      "",
      SCHEME_MASTER_HEADER.join("|"),
      SCHEME_MASTER_HEADER.map((h) => schemeRow({ "Scheme Code": "A-GR", "Unique No": "1" })[h]).join("|"),
      "",
      SCHEME_MASTER_HEADER.map((h) => schemeRow({ "Scheme Code": "B-GR", "SIP FLAG": "maybe" })[h]).join("|"),
      SCHEME_MASTER_HEADER.map((h) => schemeRow({ "Scheme Code": "A-GR", "Unique No": "2" })[h]).join("|"),
      SCHEME_MASTER_HEADER.map((h) => schemeRow({ "Scheme Code": "B-GR", "Unique No": "3" })[h]).join("|"),
      SCHEME_MASTER_HEADER.map((h) => schemeRow({ "Scheme Code": "A-GR", "Unique No": "4" })[h]).join("|"),
      SCHEME_MASTER_HEADER.map((h) => schemeRow({ "Scheme Code": "B-GR", "Unique No": "5" })[h]).join("|"),
    ].join("\n");
    const { records, problems } = parseSchemeMaster(text);
    expect(records.map((r) => [r.line, r.code, r.uniqueNo])).toEqual([[3, "A-GR", 1], [7, "B-GR", 3]]);
    expect(problems).toEqual([
      { line: 5, message: 'SIP FLAG "maybe" is not Y or N' },
      { line: 6, message: "Scheme Code A-GR is repeated (first on line 3); the first is kept" },
      { line: 8, message: "Scheme Code A-GR is repeated (first on line 3); the first is kept" },
      { line: 9, message: "Scheme Code B-GR is repeated (first on line 7); the first is kept" },
    ]);
  });

  it("reads the fixture the exchange double serves", () => {
    const text = "Unique No|Scheme Code|ISIN|Scheme Name|Purchase Allowed|Purchase Transaction mode|Minimum Purchase Amount|Redemption Allowed|SIP FLAG|STP FLAG|SWP Flag|Switch FLAG|Start Date|End Date\n" +
      "1|02-DP|INF209K01AJ8|Flexi Cap - Growth|Y|DP|1000|Y|Y|Y|Y|Y|Apr  1 2010 12:00AM|Dec 31 9999 12:00AM\n";
    expect(parseSchemeMaster(text).records.map((r) => [r.code, r.startDate, r.endDate, r.transactionMode])).toEqual([["02-DP", "2010-04-01", "9999-12-31", "BOTH"]]);
  });
});

// --- The SIP master ----------------------------------------------------------------------------------

const sipRow = (overrides: Row = {}): Row => ({
  "AMC CODE": "HDFC_MF", "AMC NAME": "HDFC Mutual Fund", "SCHEME CODE": "HDFCX-GR", "SCHEME NAME": "HDFC Flexi Cap", "SIP TRANSACTION MODE": "DP",
  "SIP FREQUENCY": "MONTHLY", "SIP DATES": "1,5,10,15,20,25", "SIP MINIMUM GAP": "30", "SIP MAXIMUM GAP": "90", "SIP INSTALLMENT GAP": "1",
  "SIP STATUS": "1", "SIP MINIMUM INSTALLMENT AMOUNT": "500", "SIP MAXIMUM INSTALLMENT AMOUNT": "99999999", "SIP MULTIPLIER AMOUNT": "100",
  "SIP MINIMUM INSTALLMENT NUMBERS": "6", "SIP MAXIMUM INSTALLMENT NUMBERS": "999", "SCHEME ISIN": "inf179k01ut0", "SCHEME TYPE": "EQUITY",
  "PAUSE FLAG": "Y", "PAUSE MINIMUM INSTALLMENTS": "2", "PAUSE MAXIMUM INSTALLMENTS": "3", "PAUSE MODIFICATION COUNT": "4",
  ...overrides,
});
const sipMaster = (rows: Row[], header = SIP_MASTER_HEADER) => file(header, rows);

const SIP_RECORD: ExchangeSipRecord = {
  line: 2, code: "HDFCX-GR", frequency: "MONTHLY", transactionMode: "BOTH", dates: [1, 5, 10, 15, 20, 25], minGapDays: 30, maxGapDays: 90,
  installmentGap: 1, active: true, minAmount: "500", maxAmount: "99999999", multiple: "100", minInstallments: 6, maxInstallments: 999,
  isin: "INF179K01UT0", pauseAllowed: true, pauseMinInstallments: 2, pauseMaxInstallments: 3, pauseModificationCount: 4,
};

const oneSip = (overrides: Row, header = SIP_MASTER_HEADER) => {
  const { records, problems } = parseSipMaster(sipMaster([sipRow(overrides)], header));
  expect(problems).toEqual([]);
  expect(records).toHaveLength(1);
  return records[0]!;
};
const oneSipProblem = (overrides: Row) => {
  const { records, problems } = parseSipMaster(sipMaster([sipRow(overrides)]));
  expect(records).toEqual([]);
  expect(problems).toHaveLength(1);
  return problems[0]!;
};

describe("parseSipMaster", () => {
  it("reads every column it keeps, by name", () => {
    expect(parseSipMaster(sipMaster([sipRow()]))).toEqual({ records: [SIP_RECORD], problems: [] });
    const header = [...SIP_MASTER_HEADER].reverse();
    expect(parseSipMaster(file(header, [sipRow()], header.map((h) => h.toLowerCase().replace(/ /g, "_")).join("|")))).toEqual({ records: [SIP_RECORD], problems: [] });
  });

  it("needs only its required columns", () => {
    const header = ["SCHEME CODE", "SIP FREQUENCY", "SIP DATES", "SIP STATUS", "SIP MINIMUM INSTALLMENT AMOUNT"];
    expect(header.map(normaliseHeader)).toEqual([...SIP_MASTER_REQUIRED]);
    expect(oneSip({}, header)).toEqual({
      line: 2, code: "HDFCX-GR", frequency: "MONTHLY", transactionMode: null, dates: [1, 5, 10, 15, 20, 25], minGapDays: null, maxGapDays: null,
      installmentGap: null, active: true, minAmount: "500", maxAmount: null, multiple: null, minInstallments: null, maxInstallments: null,
      isin: null, pauseAllowed: false, pauseMinInstallments: null, pauseMaxInstallments: null, pauseModificationCount: null,
    });
    for (const name of SIP_MASTER_REQUIRED) {
      const without = SIP_MASTER_HEADER.filter((h) => normaliseHeader(h) !== name);
      expect(refusal(() => parseSipMaster(sipMaster([sipRow()], without))).message, name).toBe(
        `the SIP master's header lacks the column "${name}" (names are matched ignoring case, spaces and punctuation)`,
      );
    }
    expect(refusal(() => parseSipMaster(" \n"))).toBeInstanceOf(MasterFileError);
  });

  it("empty cells: no rule, no mode, no ISIN, no pause", () => {
    const empty = Object.fromEntries(SIP_MASTER_HEADER.filter((h) => !["SCHEME CODE", "SIP FREQUENCY", "SIP DATES"].includes(h)).map((h) => [h, ""]));
    expect(oneSip(empty)).toEqual({
      line: 2, code: "HDFCX-GR", frequency: "MONTHLY", transactionMode: null, dates: [1, 5, 10, 15, 20, 25], minGapDays: null, maxGapDays: null,
      installmentGap: null, active: false, minAmount: null, maxAmount: null, multiple: null, minInstallments: null, maxInstallments: null,
      isin: null, pauseAllowed: false, pauseMinInstallments: null, pauseMaxInstallments: null, pauseModificationCount: null,
    });
  });

  it("a zero maximum, multiple or maximum installments is no rule; a zero minimum is zero", () => {
    expect(oneSip({
      "SIP MINIMUM INSTALLMENT AMOUNT": "0", "SIP MAXIMUM INSTALLMENT AMOUNT": "0.00", "SIP MULTIPLIER AMOUNT": "0", "SIP MINIMUM INSTALLMENT NUMBERS": "0",
      "SIP MAXIMUM INSTALLMENT NUMBERS": "0", "SIP MINIMUM GAP": "0", "PAUSE MODIFICATION COUNT": "0",
    })).toMatchObject({ minAmount: "0", maxAmount: null, multiple: null, minInstallments: 0, maxInstallments: null, minGapDays: 0, pauseModificationCount: 0 });
    expect(oneSip({ "SIP MULTIPLIER AMOUNT": "0.50", "SIP MAXIMUM INSTALLMENT AMOUNT": "1,00,000" })).toMatchObject({ multiple: "0.5", maxAmount: "100000" });
  });

  it.each([
    ["1,5,10", [1, 5, 10]],
    ["31,2,10,1", [1, 2, 10, 31]],
    ["10,5,5,1", [1, 5, 10]],
    ["5, 15 ,25", [5, 15, 25]],
    ["25; 1 5,,10", [1, 5, 10, 25]],
    [",1,2,", [1, 2]],
    ["7\t8", [7, 8]],
    ["01,09", [1, 9]],
    ["1", [1]],
    ["31", [31]],
    [Array.from({ length: 28 }, (_, i) => i + 1).reverse().join(","), Array.from({ length: 28 }, (_, i) => i + 1)],
  ])("SIP DATES %j are the days %j", (value, days) => {
    expect(oneSip({ "SIP DATES": value }).dates).toEqual(days);
  });

  it("refuses SIP DATES that are not days 1-31", () => {
    expect(oneSipProblem({ "SIP DATES": "" })).toEqual({ line: 2, message: "SIP DATES is empty" });
    expect(oneSipProblem({ "SIP DATES": " ,; ," })).toEqual({ line: 2, message: "SIP DATES is empty" });
    for (const value of ["0", "32", "1,2,32", "100", "1.5", "1-5", "x", "-1", "001"]) {
      expect(oneSipProblem({ "SIP DATES": value }).message, value).toBe(`SIP DATES "${value}" is not a list of days 1-31`);
    }
    const long = Array.from({ length: 20 }, (_, i) => i + 12).join(",") + ",99";
    expect(oneSipProblem({ "SIP DATES": long }).message).toBe(`SIP DATES "${long.slice(0, 40)}" is not a list of days 1-31`);
  });

  it.each([
    ["1", true], ["Y", true], ["y", true], ["YES", true], ["ACTIVE", true], ["Active", true],
    ["0", false], ["N", false], ["", false], ["INACTIVE", false], ["inactive", false], ["No", false],
  ])("SIP STATUS %j is %s", (value, active) => {
    expect(oneSip({ "SIP STATUS": value }).active).toBe(active);
  });

  it("refuses another SIP STATUS, naming it in capitals", () => {
    expect(oneSipProblem({ "SIP STATUS": "paused" })).toEqual({ line: 2, message: 'SIP STATUS "PAUSED" is not Y or N' });
  });

  it.each([
    ["Monthly", "MONTHLY"],
    [" quarterly ", "QUARTERLY"],
    ["Half Yearly", "HALF_YEARLY"],
    ["half-yearly", "HALF_YEARLY"],
    ["HALF - YEARLY", "HALF_YEARLY"],
    ["Once a Week", "ONCE_A_WEEK"],
    ["2 Weekly", "WEEKLY"],
    ["Fortnightly", "FORTNIGHTLY"],
  ])("SIP FREQUENCY %j is %s", (value, frequency) => {
    expect(oneSip({ "SIP FREQUENCY": value }).frequency).toBe(frequency);
  });

  it("reads the SIP transaction mode and the ISIN", () => {
    expect(oneSip({ "SIP TRANSACTION MODE": "P" }).transactionMode).toBe("PHYSICAL");
    expect(oneSip({ "SIP TRANSACTION MODE": "d" }).transactionMode).toBe("DEMAT");
    expect(oneSip({ "SIP TRANSACTION MODE": "" }).transactionMode).toBeNull();
    expect(oneSipProblem({ "SIP TRANSACTION MODE": "x" })).toEqual({ line: 2, message: 'SIP TRANSACTION MODE "x" is not P, D or DP' });
    expect(oneSip({ "SCHEME ISIN": "" }).isin).toBeNull();
  });

  it("takes a scheme code of 20 characters", () => {
    expect(oneSip({ "SCHEME CODE": "C".repeat(20) }).code).toBe("C".repeat(20));
  });

  it.each([
    ["SCHEME CODE", "", "SCHEME CODE is empty"],
    ["SCHEME CODE", "C".repeat(21), `SCHEME CODE "${"C".repeat(21)}" is longer than 20 characters`],
    ["SCHEME CODE", "0123456789".repeat(4), `SCHEME CODE "${"0123456789".repeat(3)}" is longer than 20 characters`],
    ["SIP FREQUENCY", "", "SIP FREQUENCY is empty"],
    ["SIP FREQUENCY", "12 / -", "SIP FREQUENCY is empty"],
    ["SIP MINIMUM GAP", "x", 'SIP MINIMUM GAP "x" is not a whole number'],
    ["SIP MAXIMUM GAP", "x", 'SIP MAXIMUM GAP "x" is not a whole number'],
    ["SIP INSTALLMENT GAP", "x", 'SIP INSTALLMENT GAP "x" is not a whole number'],
    ["SIP MINIMUM INSTALLMENT AMOUNT", "x", 'SIP MINIMUM INSTALLMENT AMOUNT "x" is not a number'],
    ["SIP MINIMUM INSTALLMENT AMOUNT", "1.001", 'SIP MINIMUM INSTALLMENT AMOUNT "1.001" has more than 2 decimals'],
    ["SIP MAXIMUM INSTALLMENT AMOUNT", "x", 'SIP MAXIMUM INSTALLMENT AMOUNT "x" is not a number'],
    ["SIP MAXIMUM INSTALLMENT AMOUNT", "1.001", 'SIP MAXIMUM INSTALLMENT AMOUNT "1.001" has more than 2 decimals'],
    ["SIP MULTIPLIER AMOUNT", "x", 'SIP MULTIPLIER AMOUNT "x" is not a number'],
    ["SIP MULTIPLIER AMOUNT", "1.001", 'SIP MULTIPLIER AMOUNT "1.001" has more than 2 decimals'],
    ["SIP MINIMUM INSTALLMENT NUMBERS", "x", 'SIP MINIMUM INSTALLMENT NUMBERS "x" is not a whole number'],
    ["SIP MAXIMUM INSTALLMENT NUMBERS", "x", 'SIP MAXIMUM INSTALLMENT NUMBERS "x" is not a whole number'],
    ["PAUSE FLAG", "x", 'PAUSE FLAG "x" is not Y or N'],
    ["PAUSE MINIMUM INSTALLMENTS", "x", 'PAUSE MINIMUM INSTALLMENTS "x" is not a whole number'],
    ["PAUSE MAXIMUM INSTALLMENTS", "x", 'PAUSE MAXIMUM INSTALLMENTS "x" is not a whole number'],
    ["PAUSE MODIFICATION COUNT", "x", 'PAUSE MODIFICATION COUNT "x" is not a whole number'],
  ])("a bad %s skips the line: %s", (column, value, message) => {
    expect(oneSipProblem({ [column]: value })).toEqual({ line: 2, message });
  });

  it("keeps the first row of a code and frequency; another frequency of the code is its own row; a bad first row does not count", () => {
    const text = sipMaster([
      sipRow({ "SIP DATES": "1" }),
      sipRow({ "SIP FREQUENCY": "Quarterly", "SIP DATES": "2" }),
      sipRow({ "SIP FREQUENCY": "monthly", "SIP DATES": "3" }),
      sipRow({ "SCHEME CODE": "OTHER", "SIP DATES": "4" }),
      sipRow({ "SIP FREQUENCY": "WEEKLY", "SIP STATUS": "?" }),
      sipRow({ "SIP FREQUENCY": "WEEKLY", "SIP DATES": "5" }),
      sipRow({ "SIP FREQUENCY": "QUARTERLY", "SIP DATES": "6" }),
    ]);
    const { records, problems } = parseSipMaster(text);
    expect(records.map((r) => [r.line, r.code, r.frequency, r.dates])).toEqual([
      [2, "HDFCX-GR", "MONTHLY", [1]], [3, "HDFCX-GR", "QUARTERLY", [2]], [5, "OTHER", "MONTHLY", [4]], [7, "HDFCX-GR", "WEEKLY", [5]],
    ]);
    expect(problems).toEqual([
      { line: 4, message: "HDFCX-GR MONTHLY is repeated (first on line 2); the first is kept" },
      { line: 6, message: 'SIP STATUS "?" is not Y or N' },
      { line: 8, message: "HDFCX-GR QUARTERLY is repeated (first on line 3); the first is kept" },
    ]);
  });
});
