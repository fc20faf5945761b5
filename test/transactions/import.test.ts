import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRefresh, refreshHoldings } from "../../src/domains/holdings/refresh.js";
import { useTestApp } from "../helpers/app.js";

// The fixtures are made to the registrars' layouts; every PAN, name and number in them is made up.
const FIXTURES = path.join(import.meta.dirname, "../fixtures/registrars");
const PAN_A = "ABCPE1234F";

let feedDir: string;
const app = useTestApp();
let d1: Awaited<ReturnType<typeof app.newDistributor>>;
let d2: Awaited<ReturnType<typeof app.newDistributor>>;

beforeAll(async () => {
  feedDir = await mkdtemp(path.join(os.tmpdir(), "transaction-feeds-"));
  await mkdir(path.join(feedDir, "cams"));
  await mkdir(path.join(feedDir, "kfintech"));
  d1 = await app.newDistributor({ arn: "ARN-271001" });
  d2 = await app.newDistributor({ arn: "ARN-271002" });
  await app.prisma.scheme.create({
    data: { schemeCode: "990101", isinGrowth: "INF000T01KF7", name: "Test Small Cap Fund", amcCode: "TESTAMC", amcName: "Test Mutual Fund", category: "Equity", schemeType: "Open Ended Schemes" },
  });
});

afterAll(async () => {
  await rm(feedDir, { recursive: true, force: true });
});

const refresh = () => refreshHoldings(app.services, { feedDir, sandboxFeed: false });
const put = (folder: "cams" | "kfintech", fixture: string, name = fixture) => copyFile(path.join(FIXTURES, fixture), path.join(feedDir, folder, name));
const transactionsOf = (registrar: string) =>
  app.prisma.holdingTransaction.findMany({ where: { registrar }, orderBy: [{ amcCode: "asc" }, { txnNo: "asc" }] });

/** An MFSD201 file of the fixture's header with rows given as column → value. */
async function putMfsd201(name: string, rows: Array<Record<string, string>>) {
  const header = (await readFile(path.join(FIXTURES, "MFSD201_20250430.csv"), "utf8")).split("\r\n", 1)[0]!;
  const columns = header.split(",");
  const lines = rows.map((row) => columns.map((c) => row[c] ?? "").join(","));
  await writeFile(path.join(feedDir, "kfintech", name), [header, ...lines].join("\r\n") + "\r\n");
}

const kfinRow = (trno: string, trtype: string, more: Record<string, string> = {}) => ({
  FMCODE: "117TSGP", TD_FUND: "117", TD_ACNO: "7700001", TD_PURRED: trtype.endsWith("R") ? "R" : "P", TD_TRNO: trno,
  TD_TRDT: "05-May-2025", TD_UNITS: "1.000", TD_AMT: "25.00", TD_AGENT: "ARN-271001", TD_TRTYPE: trtype, PAN1: PAN_A, td_nav: "25", ...more,
});

describe("transaction feeds through the holdings refresh", () => {
  it("imports WBR2 and MFSD201 files told apart by their header, records each file, and links reversals", async () => {
    await put("cams", "20250430_WBR2.csv", "03082025112841_106234332R2.csv");
    await put("kfintech", "MFSD201_20250430.csv");
    const report = await refresh();
    const counts = { kind: "TRANSACTIONS", outcome: "IMPORTED", skipped_stale: 0, companion: null, reason: null };
    expect(report.files).toEqual([
      expect.objectContaining({
        ...counts, registrar: "CAMS", file: "03082025112841_106234332R2.csv", balance_date: "2025-04-28", rows: 12,
        imported: 11, skipped_unknown_arn: 1, skipped_duplicate: 0, problem_count: 2,
        problems: [
          { file: "03082025112841_106234332R2.csv", line: 9, reason: 'traddate is not a date: "31-Feb-2025"' },
          { file: "03082025112841_106234332R2.csv", line: 15, reason: "expected 75 fields, found 7" },
        ],
      }),
      expect.objectContaining({
        ...counts, registrar: "KFINTECH", file: "MFSD201_20250430.csv", balance_date: "2025-04-24", rows: 10, imported: 10,
        skipped_unknown_arn: 0, skipped_duplicate: 0, problem_count: 1,
        problems: [{ file: "MFSD201_20250430.csv", line: 10, reason: 'td_units is not a number: "12.3.4"' }],
      }),
    ]);
    expect(describeRefresh(report)).toBe("2 feed(s) imported (0 positions, 21 transactions), 0 already imported, 0 rejected, 0 waiting");

    const files = await app.prisma.holdingFeedFile.findMany({ orderBy: { registrar: "asc" } });
    expect(files.map((f) => [f.kind, f.registrar, f.outcome, f.rows, f.imported, f.skippedUnknownArn, f.skippedDuplicate, f.problemCount])).toEqual([
      ["TRANSACTIONS", "CAMS", "IMPORTED", 12, 11, 1, 0, 2],
      ["TRANSACTIONS", "KFINTECH", "IMPORTED", 10, 10, 0, 0, 1],
    ]);

    const cams = await transactionsOf("CAMS");
    // Tenancy: each row under the distributor of its ARN; the unknown ARN's row (100010) is not stored.
    expect(cams.map((t) => [t.txnNo, t.distributorId === d1.distributor_id ? "d1" : t.distributorId === d2.distributor_id ? "d2" : "?", t.type])).toEqual([
      ["100001", "d1", "PURCHASE"], ["100002", "d1", "SIP"], ["100003", "d1", "SWITCH_OUT"], ["100004", "d1", "SWITCH_IN"],
      ["100005", "d1", "DIVIDEND_REINVESTMENT"], ["100006", "d1", "REDEMPTION"], ["100007", "d1", "REVERSAL"],
      ["100009", "d2", "PURCHASE"], ["100011", "d1", "SWP"], ["100012", "d1", "STP_OUT"], ["100013", "d1", "STP_IN"],
    ]);
    const redemption = cams.find((t) => t.txnNo === "100006")!;
    expect({
      ...redemption, tradeDate: redemption.tradeDate.toISOString().slice(0, 10), postDate: redemption.postDate?.toISOString().slice(0, 10),
      units: redemption.units?.toFixed(3), nav: redemption.nav?.toFixed(4), createdAt: undefined,
    }).toEqual({
      registrar: "CAMS", amcCode: "T", txnNo: "100006", distributorId: d1.distributor_id, folioNo: "4410001", registrarSchemeCode: "TFCG",
      schemeCode: null, schemeName: "Test Flexi Cap Fund - Growth", isin: null, type: "REDEMPTION", registrarTypeCode: "R",
      registrarTypeDescription: "Redemption", reversesTxnNo: null, reversedByTxnNo: null, tradeDate: "2025-04-20", postDate: "2025-04-03",
      amountPaise: 48022n, units: "10.500", nav: "45.7350", stampDutyPaise: null, sttPaise: 1n, tdsPaise: null,
      panHash: app.services.cipher.lookupHash(PAN_A), feedFileId: files[0]!.id, createdAt: undefined,
    });
    expect(cams.find((t) => t.txnNo === "100001")!.reversedByTxnNo).toBe("100007");
    expect(cams.find((t) => t.txnNo === "100007")!.reversesTxnNo).toBe("100001");

    const kfin = await transactionsOf("KFINTECH");
    expect(kfin.find((t) => t.txnNo === "5000006")!.reversedByTxnNo).toBe("5000007");
    // Our scheme code through the ISIN of the scheme master.
    expect(kfin.find((t) => t.txnNo === "5000001")).toMatchObject({ schemeCode: "990101", registrarSchemeCode: "117TSGP", amountPaise: 249988n, stampDutyPaise: 12n });
    expect(kfin.find((t) => t.txnNo === "5000012")!.distributorId).toBe(d2.distributor_id);
    // No PAN is stored in clear anywhere in the rows.
    expect(JSON.stringify([...cams, ...kfin], (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toMatch(/ABCP[EF]\d{4}[FG]/);
  });

  it("adds nothing when a file is read again, and only the new rows of an overlapping file", async () => {
    const before = await app.prisma.holdingTransaction.count();
    const again = await refresh();
    expect(again.files.map((f) => f.outcome)).toEqual(["DUPLICATE", "DUPLICATE"]);

    // The same transactions under another name and with other bytes (a trailing blank line): nothing new.
    const original = await readFile(path.join(FIXTURES, "MFSD201_20250430.csv"), "utf8");
    await writeFile(path.join(feedDir, "kfintech", "MFSD201_20250430_resent.csv"), original + "\r\n");
    await put("kfintech", "MFSD201_20250505.csv");
    const overlap = await refresh();
    expect(overlap.files.filter((f) => f.outcome === "IMPORTED").map((f) => [f.file, f.rows, f.imported, f.skipped_duplicate])).toEqual([
      ["MFSD201_20250430_resent.csv", 10, 0, 10],
      ["MFSD201_20250505.csv", 2, 1, 1],
    ]);
    expect(await app.prisma.holdingTransaction.count()).toBe(before + 1);
  });

  it("links a reversal that arrives before the transaction it reverses", async () => {
    await putMfsd201("MFSD201_20250506.csv", [kfinRow("5000021", "NEWR", { RejTrnoOrgNo: "5000020" })]);
    await refresh();
    await putMfsd201("MFSD201_20250507.csv", [kfinRow("5000020", "NEW")]);
    await refresh();
    const rows = await app.prisma.holdingTransaction.findMany({ where: { txnNo: { in: ["5000020", "5000021"] } }, orderBy: { txnNo: "asc" } });
    expect(rows.map((r) => [r.txnNo, r.type, r.reversesTxnNo, r.reversedByTxnNo])).toEqual([
      ["5000020", "PURCHASE", null, "5000021"],
      ["5000021", "REVERSAL", "5000020", null],
    ]);
  });

  it("rejects a transaction file whose header lacks a mandatory column, recording it, and imports nothing from it", async () => {
    await writeFile(path.join(feedDir, "kfintech", "MFSD201_broken.csv"), "TD_TRNO,TD_ACNO,TD_TRDT\r\n1,2,05-May-2025\r\n");
    const before = await app.prisma.holdingTransaction.count();
    const report = await refresh();
    expect(report.files.filter((f) => f.outcome !== "DUPLICATE")).toEqual([
      expect.objectContaining({ kind: "TRANSACTIONS", file: "MFSD201_broken.csv", outcome: "REJECTED", imported: 0 }),
    ]);
    expect(report.files.find((f) => f.outcome === "REJECTED")!.reason).toMatch(/^MFSD201_broken\.csv: missing mandatory columns: fmcode, td_fund/);
    expect(await app.prisma.holdingTransaction.count()).toBe(before);
  });

  it("still reads a holdings file beside the transaction files of the same folder as positions", async () => {
    await writeFile(
      path.join(feedDir, "kfintech", "MFSD203_20250430.csv"),
      "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE,BRANCH\r\n" +
        `117TSGP,117,7700001,Test Small Cap Fund - Growth,INF000T01KF7,78.001,0,25.1,1957.83,SINGLE,ARN-271001,${PAN_A},Chitra Testname,04/30/2025,Pune\r\n`,
    );
    const report = await refresh();
    expect(report.files.filter((f) => f.outcome === "IMPORTED")).toEqual([
      expect.objectContaining({ registrar: "KFINTECH", file: "MFSD203_20250430.csv", rows: 1, imported: 1 }),
    ]);
    expect(report.files.find((f) => f.file === "MFSD203_20250430.csv")!.kind).toBeUndefined();
    expect(await app.prisma.holdingPosition.count({ where: { distributorId: d1.distributor_id } })).toBe(1);
  });
});
