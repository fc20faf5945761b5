import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCamsTransactionBatches } from "../../src/integrations/registrars/feeds/cams-transactions.js";
import { feedFile } from "../../src/integrations/registrars/feeds/feed.js";
import { readKfintechTransactionBatches } from "../../src/integrations/registrars/feeds/kfintech-transactions.js";
import { camsTransactionType, kfintechTransactionType } from "../../src/integrations/registrars/feeds/transaction-types.js";
import { collectTransactions, type FeedTransaction } from "../../src/integrations/registrars/feeds/transactions-feed.js";

// The fixtures are made to the registrars' layouts; every PAN, name and number in them is made up.
const fixture = (name: string) => feedFile(path.join(import.meta.dirname, "../fixtures/registrars", name));

const brief = (t: FeedTransaction) => [
  t.txn_no, t.type, t.registrar_type_code, t.scheme_code, t.trade_date, t.amount_paise, t.units, t.nav,
  t.stamp_duty_paise, t.stt_paise, t.tds_paise, t.reverses_txn_no,
];

describe("CAMS WBR2", () => {
  it("reads each row into a typed transaction, exact to the paisa, with malformed lines reported", async () => {
    const { transactions, problems } = await collectTransactions(readCamsTransactionBatches(fixture("20250430_WBR2.csv")));
    expect(transactions.map(brief)).toEqual([
      ["100001", "PURCHASE", "P", "TFCG", "2025-04-02", "999950", "221.610", "45.1234", "50", null, null, null],
      ["100002", "SIP", "P", "TFCG", "2025-04-05", "499975", "109.887", "45.5000", "25", null, null, null],
      ["100003", "SWITCH_OUT", "SO", "TFCG", "2025-04-10", "230000", "50.000", "46.0000", null, "2", null, null],
      ["100004", "SWITCH_IN", "SI", "TLQG", "2025-04-10", "229989", "2.299", "1000.1234", "11", null, null, null],
      ["100005", "DIVIDEND_REINVESTMENT", "DR", "TBDR", "2025-04-15", "10000", "8.100", "12.3456", null, null, "1111", null],
      // Negative amounts and units are kept as magnitudes; 480.2175 rounds half-up to 480.22, 0.005 to 0.01.
      ["100006", "REDEMPTION", "R", "TFCG", "2025-04-20", "48022", "10.500", "45.7350", null, "1", null, null],
      ["100007", "REVERSAL", "P", "TFCG", "2025-04-02", "999950", "221.610", "45.1234", "50", null, null, "100001"],
      ["100009", "PURCHASE", "P", "TFCG", "2025-04-21", "100000", "21.834", "45.8000", null, null, null, null],
      ["100010", "PURCHASE", "P", "TFCG", "2025-04-21", "100000", "21.834", "45.8000", null, null, null, null],
      ["100011", "SWP", "R", "TFCG", "2025-04-25", "100000", "21.692", "46.1000", null, null, null, null],
      ["100012", "STP_OUT", "SO", "TFCG", "2025-04-28", "50000", "10.823", "46.2000", null, null, null, null],
      ["100013", "STP_IN", "SI", "TLQG", "2025-04-28", "49998", "0.499", "1001.0000", "2", null, null, null],
    ]);
    expect(problems).toEqual([
      { file: "20250430_WBR2.csv", line: 9, reason: 'traddate is not a date: "31-Feb-2025"' },
      { file: "20250430_WBR2.csv", line: 15, reason: "expected 75 fields, found 7" },
    ]);
    const first = transactions[0]!;
    expect(first).toMatchObject({
      registrar: "CAMS", arn: "ARN-271001", amc_code: "T", folio_no: "4410001", scheme_name: "Test Flexi Cap Fund - Growth",
      isin: null, registrar_type_description: "Purchase", post_date: "2025-04-03", pan: "ABCPE1234F",
    });
  });
});

describe("KFintech MFSD201", () => {
  it("reads each row into a typed transaction, exact to the paisa, with malformed lines reported", async () => {
    const { transactions, problems } = await collectTransactions(readKfintechTransactionBatches(fixture("MFSD201_20250430.csv")));
    expect(transactions.map(brief)).toEqual([
      ["5000001", "PURCHASE", "NEW", "117TSGP", "2025-04-15", "249988", "100.000", "24.9988", "12", null, null, null],
      ["5000002", "SIP", "SIN", "117TSGP", "2025-04-16", "99995", "40.001", "24.9981", "5", null, null, null],
      ["5000003", "SWITCH_OUT", "LTOF", "117TSGP", "2025-04-17", "50000", "20.000", "25.0000", null, "1", null, null],
      ["5000004", "SWITCH_IN", "LTIN", "117TLGP", "2025-04-17", "49998", "0.250", "1999.9200", "2", null, null, null],
      ["5000005", "DIVIDEND_REINVESTMENT", "DIR", "117TDRI", "2025-04-18", "5000", "3.333", "15.0015", null, null, "555", null],
      ["5000006", "PURCHASE", "ADD", "117TSGP", "2025-04-19", "25000", "10.000", "25.0000", "1", null, null, null],
      ["5000007", "REVERSAL", "ADDR", "117TSGP", "2025-04-19", "25000", "10.000", "25.0000", null, null, null, "5000006"],
      ["5000008", "REDEMPTION", "RED", "117TSGP", "2025-04-22", "123456", "12.345", "100.0049", null, "1", "0", null],
      ["5000011", "OTHER", "CON", "117TSGP", "2025-04-24", "0", "0.000", "25.0000", null, null, null, null],
      ["5000012", "PURCHASE", "NEW", "117TSGP", "2025-04-24", "10000", "4.000", "25.0000", null, null, null, null],
    ]);
    expect(problems).toEqual([{ file: "MFSD201_20250430.csv", line: 10, reason: 'td_units is not a number: "12.3.4"' }]);
    expect(transactions[0]).toMatchObject({
      registrar: "KFINTECH", arn: "ARN-271001", amc_code: "117", folio_no: "7700001", isin: "INF000T01KF7",
      registrar_type_description: "New Purchase", post_date: "2025-04-16", pan: "ABCPE1234F",
    });
    expect(transactions.at(-1)).toMatchObject({ arn: "ARN-271002", pan: "ABCPF5678G" });
  });
});

describe("the type mapping", () => {
  const cams = (trxntype: string, more: Partial<Parameters<typeof camsTransactionType>[0]> = {}) =>
    camsTransactionType({ trxntype, nature: "", typeFlag: "", sipTrxnNo: "", reversalCode: "", originalTrxnNo: "", ...more });
  const kfin = (trtype: string, more: Partial<Parameters<typeof kfintechTransactionType>[0]> = {}) =>
    kfintechTransactionType({ trtype, purred: "", description: "", rejectedTrno: "", ...more });

  it("maps the CAMS codes, telling SIP, STP and SWP apart by their fields", () => {
    expect(["P", "R", "SI", "SO", "TI", "TO", "DR", "DP", "B", "J"].map((code) => cams(code))).toEqual([
      "PURCHASE", "REDEMPTION", "SWITCH_IN", "SWITCH_OUT", "TRANSFER_IN", "TRANSFER_OUT", "DIVIDEND_REINVESTMENT",
      "DIVIDEND_PAYOUT", "BONUS", "OTHER",
    ]);
    expect(cams("P", { sipTrxnNo: "123" })).toBe("SIP");
    expect(cams("P", { sipTrxnNo: "0" })).toBe("PURCHASE");
    expect(cams("P", { typeFlag: "SIP" })).toBe("SIP");
    expect(cams("SI", { nature: "Systematic Transfer Plan - In" })).toBe("STP_IN");
    expect(cams("SO", { typeFlag: "STPO" })).toBe("STP_OUT");
    expect(cams("R", { nature: "SWP Redemption" })).toBe("SWP");
    expect(["PR", "SIR", "SOR", "RR", "DPR"].map((code) => cams(code))).toEqual(Array(5).fill("REVERSAL"));
    expect(cams("R", { reversalCode: "CR" })).toBe("REVERSAL");
  });

  it("maps the KFintech codes, with TD_PURRED as the fallback", () => {
    expect(["NEW", "ADD", "SIN", "RED", "SWD", "LTIN", "LTOF", "STPI", "STPO", "DIR", "DP", "BON", "TRFI", "TRFO"].map((code) => kfin(code))).toEqual([
      "PURCHASE", "PURCHASE", "SIP", "REDEMPTION", "SWP", "SWITCH_IN", "SWITCH_OUT", "STP_IN", "STP_OUT",
      "DIVIDEND_REINVESTMENT", "DIVIDEND_PAYOUT", "BONUS", "TRANSFER_IN", "TRANSFER_OUT",
    ]);
    expect(["NEWR", "SINR", "REDR", "LTINR"].map((code) => kfin(code))).toEqual(Array(4).fill("REVERSAL"));
    expect(kfin("XYZ", { purred: "P" })).toBe("PURCHASE");
    expect(kfin("XYZ", { purred: "P", description: "Systematic Investment" })).toBe("SIP");
    expect(kfin("XYZ", { purred: "R" })).toBe("REDEMPTION");
    expect(kfin("RED", { rejectedTrno: "77" })).toBe("REVERSAL");
    expect(kfin("XYZ")).toBe("OTHER");
  });
});
