import type { Decimal } from "../../../platform/lib/money.js";
import type { Registrar } from "../feeds/feed.js";
import { camsDate, csv, kfinDate, sha256 } from "./sandbox-files.js";

/**
 * The sandbox registrar's transaction feeds: CAMS WBR2 and KFintech MFSD201 in their real layouts (the columns the
 * readers in integrations/registrars/feeds/cams-transactions.ts and kfintech-transactions.ts name), one line per transaction the
 * sandbox booked. Outflows carry negative units and amounts, as the registrars print them (the readers keep the
 * magnitude; the type gives the direction). The sandbox models no stamp duty, STT or TDS: those columns are blank.
 */

/** What the sandbox booked: one leg of an allotted order (a switch or STP is two: out of the source, into the target). */
export type SandboxTransactionType = "PURCHASE" | "SIP" | "REDEMPTION" | "SWP" | "SWITCH_OUT" | "SWITCH_IN" | "STP_OUT" | "STP_IN";

export interface SandboxTransaction {
  arn: string;
  registrar: Registrar;
  amcCode: string;
  folio: string;
  schemeCode: string;
  schemeName: string;
  isin: string | null;
  pan: string;
  name: string;
  type: SandboxTransactionType;
  /** A first purchase in the folio (KFintech's NEW rather than ADD). */
  fresh: boolean;
  /** Digits, unique and stable (derived from the order id and the leg). */
  txnNo: string;
  /** A SIP installment's registration number (CAMS SIPTRXNNO). */
  sipTxnNo: string | null;
  tradeDate: string;
  amount: Decimal | null;
  units: Decimal;
  nav: Decimal;
}

/** A registrar-style transaction number: 15 digits from a hash of the order id and the leg, the same at every refresh. */
export function sandboxTxnNo(orderId: string, leg: string): string {
  return String(BigInt(`0x${sha256(`${orderId}:${leg}`).slice(0, 12)}`) + 100_000_000_000_000n);
}

const OUT = new Set<SandboxTransactionType>(["REDEMPTION", "SWP", "SWITCH_OUT", "STP_OUT"]);
const signed = (t: SandboxTransaction, value: string) => (OUT.has(t.type) ? `-${value}` : value);

const CAMS_CODES: Record<SandboxTransactionType, { code: string; nature: string }> = {
  PURCHASE: { code: "P", nature: "Purchase" }, SIP: { code: "P", nature: "SIP Purchase" },
  REDEMPTION: { code: "R", nature: "Redemption" }, SWP: { code: "R", nature: "Systematic Withdrawal" },
  SWITCH_OUT: { code: "SO", nature: "Switch Out" }, SWITCH_IN: { code: "SI", nature: "Switch In" },
  STP_OUT: { code: "SO", nature: "Systematic Transfer Out" }, STP_IN: { code: "SI", nature: "Systematic Transfer In" },
};

/** The WBR2 header, as integrators read the layout (ISIN last: the reader takes it when a file carries it). */
const WBR2_COLUMNS = [
  "AMC_CODE", "FOLIO_NO", "PRODCODE", "SCHEME", "INV_NAME", "TRXNTYPE", "TRXNNO", "TRXNMODE", "TRXNSTAT", "USERCODE", "USRTRXNO",
  "TRADDATE", "POSTDATE", "PURPRICE", "UNITS", "AMOUNT", "BROKCODE", "SUBBROK", "BROKPERC", "BROKCOMM", "ALTFOLIO", "REP_DATE",
  "TIME1", "TRXNSUBTYP", "APPLICATION_NO", "TRXN_NATURE", "TAX", "TOTAL_TAX", "TE_15H", "MICR_NO", "REMARKS", "SWFLAG",
  "OLD_FOLIO", "SEQ_NO", "REINVEST_FLAG", "MULT_BROK", "STT", "LOCATION", "SCHEME_TYPE", "TAX_STATUS", "LOAD", "SCANREFNO",
  "PAN", "INV_IIN", "TARG_SRC_SCHEME", "TRXN_TYPE_FLAG", "TICOB_TRTYPE", "TICOB_TRNO", "TICOB_POSTED_DATE", "DP_ID",
  "TRXN_CHARGES", "ELIGIB_AMT", "SRC_OF_TXN", "TRXN_SUFFIX", "SIPTRXNNO", "TER_LOCATION", "EUIN", "EUIN_VALID", "EUIN_OPTED",
  "SUB_BRK_ARN", "EXCH_DC_FLAG", "SRC_BRK_CODE", "SYS_REGN_DATE", "AC_NO", "BANK_NAME", "REVERSAL_CODE", "EXCHANGE_FLAG",
  "CA_INITIATED_DATE", "GST_STATE_CODE", "IGST_AMOUNT", "CGST_AMOUNT", "SGST_AMOUNT", "REV_REMARK", "ORIGINAL_TRXNNO",
  "STAMP_DUTY", "ISIN",
] as const;

/** The MFSD201 header, as integrators read the layout. */
const MFSD201_COLUMNS = [
  "FMCODE", "TD_FUND", "TD_SCHEME", "TD_PLAN", "TD_ACNO", "SCHPLN", "DIVOPT", "FUNDDESC", "TD_PURRED", "TD_TRNO", "SMCODE",
  "CHQNO", "INVNAME", "TRNMODE", "TRNSTAT", "TD_BRANCH", "ISCTRNO", "TD_TRDT", "TD_PRDT", "TD_UNITS", "TD_AMT", "TD_AGENT",
  "TD_BROKER", "BROKPER", "BROKCOMM", "INVID", "CRDATE", "CRTIME", "TRNSUB", "TD_APPNO", "UNQNO", "TRDESC", "TD_TRTYPE",
  "NAVDATE", "PORTDT", "ASSETTYPE", "SUBTRTYPE", "CITYCATEGORY", "EUIN", "TRCHARGES", "CLIENTID", "DPID", "STT", "IHNO",
  "BRANCHCODE", "INWARDNUMBER", "PAN1", "PAN2", "PAN3", "TDSAMOUNT", "CHQDATE", "CHQBANK", "TRFLAG", "LOAD1", "BROK_ENTDT",
  "NCTREMARKS", "PRCODE1", "STATUS", "SCHEMEISIN", "TD_NAV", "INSAMOUNT", "REJTRNOORGNO", "EVALID", "EDECLFLAG", "SUBARNCODE",
  "ATMCARDREMARKS", "ATMCARDSTATUS", "SCH1", "PLN1", "TD_TRXNMODE", "NEWUNQNO", "SIPREGDT", "SIPREGSLNO", "DIVPER", "CAN",
  "EXCHORGTRTYPE", "ELECTRXNFLAG", "CLEARED", "BROK_VALUEDT", "TD_POP", "INVSTATE", "STAMPDUTY",
] as const;

const KFIN_CODES: Record<SandboxTransactionType, { code: string; description: string }> = {
  PURCHASE: { code: "ADD", description: "Additional Purchase" }, SIP: { code: "SIN", description: "Systematic Investment" },
  REDEMPTION: { code: "RED", description: "Redemption" }, SWP: { code: "SWD", description: "Systematic Withdrawal" },
  SWITCH_OUT: { code: "SWOF", description: "Switch Over Out" }, SWITCH_IN: { code: "SWIN", description: "Switch Over In" },
  STP_OUT: { code: "STPO", description: "Systematic Transfer Out" }, STP_IN: { code: "STPI", description: "Systematic Transfer In" },
};

function row<C extends string>(columns: readonly C[], values: Partial<Record<C, string | null>>): Array<string | null> {
  return columns.map((c) => values[c] ?? "");
}

export function camsWbr2(transactions: SandboxTransaction[], repDate: string): string {
  return csv([
    [...WBR2_COLUMNS],
    ...transactions.map((t) => {
      const { code, nature } = CAMS_CODES[t.type];
      return row(WBR2_COLUMNS, {
        AMC_CODE: t.amcCode, FOLIO_NO: t.folio, PRODCODE: t.schemeCode, SCHEME: t.schemeName, INV_NAME: t.name, TRXNTYPE: code,
        TRXNNO: t.txnNo, TRXNMODE: "N", TRXNSTAT: "P", USRTRXNO: t.txnNo, TRADDATE: camsDate(t.tradeDate), POSTDATE: camsDate(t.tradeDate),
        PURPRICE: t.nav.toFixed(4), UNITS: signed(t, t.units.toFixed(3)), AMOUNT: t.amount === null ? null : signed(t, t.amount.toFixed(2)),
        BROKCODE: t.arn, REP_DATE: camsDate(repDate), TRXN_NATURE: nature, TAX_STATUS: "Individual", PAN: t.pan,
        SIPTRXNNO: t.sipTxnNo, EXCHANGE_FLAG: "Y", ISIN: t.isin,
      });
    }),
  ]);
}

export function kfintechMfsd201(transactions: SandboxTransaction[], repDate: string): string {
  return csv([
    [...MFSD201_COLUMNS],
    ...transactions.map((t) => {
      const { code, description } = t.type === "PURCHASE" && t.fresh ? { code: "NEW", description: "New Purchase" } : KFIN_CODES[t.type];
      return row(MFSD201_COLUMNS, {
        FMCODE: t.schemeCode, TD_FUND: t.amcCode, TD_SCHEME: t.schemeCode, TD_ACNO: t.folio, FUNDDESC: t.schemeName,
        TD_PURRED: OUT.has(t.type) ? "R" : "P", TD_TRNO: t.txnNo, INVNAME: t.name, TRNSTAT: "Active", TD_TRDT: kfinDate(t.tradeDate),
        TD_PRDT: kfinDate(t.tradeDate), TD_UNITS: signed(t, t.units.toFixed(3)), TD_AMT: t.amount === null ? null : signed(t, t.amount.toFixed(2)),
        TD_AGENT: t.arn, TD_BROKER: t.arn, CRDATE: kfinDate(repDate), TRDESC: description, TD_TRTYPE: code, NAVDATE: kfinDate(t.tradeDate),
        PAN1: t.pan, STATUS: "Individual", SCHEMEISIN: t.isin, TD_NAV: t.nav.toFixed(4), TD_POP: t.nav.toFixed(4),
        SIPREGSLNO: t.sipTxnNo,
      });
    }),
  ]);
}
