/**
 * The registrars' transaction type codes, mapped to our closed set (holding_transactions.type). The registrar's own
 * code and description are always kept beside the type, so a code mapped to OTHER loses nothing; confirm the lists
 * on real files in UAT and extend them here (the only place they are written).
 *
 * CAMS WBR2 (`TRXNTYPE`, with `TRXN_NATURE`, `SIPTRXNNO` and `TRXN_TYPE_FLAG` to tell the systematic plans apart):
 *   P purchase (SIP when the row carries a SIP transaction number or its nature/flag says SIP), R redemption (SWP
 *   when nature/flag says systematic withdrawal), SI switch in (STP in when nature/flag says systematic transfer),
 *   SO switch out (STP out likewise), TI/TO transfer (transmission) in/out, DR dividend (IDCW) reinvestment,
 *   DP dividend payout, B/BON bonus. A reversal is a row with a `REVERSAL_CODE` or an `ORIGINAL_TRXNNO`, or a code
 *   above with the suffix R (PR, SIR, SOR, TIR, TOR, DRR, DPR, RR): it points at `ORIGINAL_TRXNNO`.
 * KFintech MFSD201 (`TD_TRTYPE`, with `TD_PURRED` P/R as the fallback): NEW/ADD/IPO/NFO purchase, SIN/SIP SIP,
 *   RED redemption, SWD/SWP SWP, LTIN/SWIN/SWI switch in, LTOF/LTOP/SWOF/SWOP/SWO switch out, STPI/STPN STP in,
 *   STPO STP out, DIR/DIVR dividend reinvestment, DP/DIV/DIVP dividend payout, BON/BNS bonus, TRFI/TMI transfer
 *   in, TRFO/TMO transfer out. A reversal is one of those codes with the suffix R (NEWR, ADDR, SINR, REDR...) or a
 *   row carrying `REJTRNOORGNO` (the rejected transaction's number), which it points at.
 */

export const TRANSACTION_TYPES = [
  "PURCHASE", "SIP", "SWITCH_IN", "STP_IN", "REDEMPTION", "SWITCH_OUT", "STP_OUT", "SWP", "DIVIDEND_PAYOUT",
  "DIVIDEND_REINVESTMENT", "BONUS", "TRANSFER_IN", "TRANSFER_OUT", "REVERSAL", "OTHER",
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

const SIP_TEXT = /\bSIP\b|SYSTEMATIC INVESTMENT/;
const STP_TEXT = /\bSTP|SYSTEMATIC TRANSFER/;
const SWP_TEXT = /\bSWP\b|\bSWD\b|SYSTEMATIC WITHDRAWAL/;

const CAMS_BASE: Record<string, TransactionType> = {
  P: "PURCHASE", R: "REDEMPTION", SI: "SWITCH_IN", SO: "SWITCH_OUT", TI: "TRANSFER_IN", TO: "TRANSFER_OUT",
  DR: "DIVIDEND_REINVESTMENT", DP: "DIVIDEND_PAYOUT", B: "BONUS", BON: "BONUS",
};

/** What a CAMS WBR2 row's fields say about its type. */
export interface CamsTypeFields {
  trxntype: string;
  nature: string;
  typeFlag: string;
  sipTrxnNo: string;
  reversalCode: string;
  originalTrxnNo: string;
}

export function camsTransactionType(f: CamsTypeFields): TransactionType {
  const code = f.trxntype.trim().toUpperCase();
  if (f.reversalCode.trim() !== "" || f.originalTrxnNo.trim() !== "") return "REVERSAL";
  if (CAMS_BASE[code] === undefined && code.length > 1 && code.endsWith("R") && CAMS_BASE[code.slice(0, -1)] !== undefined) {
    return "REVERSAL";
  }
  const base = CAMS_BASE[code];
  if (base === undefined) return "OTHER";
  const text = `${f.nature} ${f.typeFlag}`.toUpperCase();
  return systematic(base, text, f.sipTrxnNo.trim() !== "" && f.sipTrxnNo.trim() !== "0");
}

const KFIN_CODES: Record<string, TransactionType> = {
  NEW: "PURCHASE", ADD: "PURCHASE", IPO: "PURCHASE", NFO: "PURCHASE", SIN: "SIP", SIP: "SIP",
  RED: "REDEMPTION", SWD: "SWP", SWP: "SWP",
  LTIN: "SWITCH_IN", SWIN: "SWITCH_IN", SWI: "SWITCH_IN",
  LTOF: "SWITCH_OUT", LTOP: "SWITCH_OUT", SWOF: "SWITCH_OUT", SWOP: "SWITCH_OUT", SWO: "SWITCH_OUT",
  STPI: "STP_IN", STPN: "STP_IN", STPO: "STP_OUT",
  DIR: "DIVIDEND_REINVESTMENT", DIVR: "DIVIDEND_REINVESTMENT", DP: "DIVIDEND_PAYOUT", DIV: "DIVIDEND_PAYOUT", DIVP: "DIVIDEND_PAYOUT",
  BON: "BONUS", BNS: "BONUS", TRFI: "TRANSFER_IN", TMI: "TRANSFER_IN", TRFO: "TRANSFER_OUT", TMO: "TRANSFER_OUT",
};

/** What a KFintech MFSD201 row's fields say about its type. */
export interface KfintechTypeFields {
  trtype: string;
  purred: string;
  description: string;
  rejectedTrno: string;
}

export function kfintechTransactionType(f: KfintechTypeFields): TransactionType {
  const code = f.trtype.trim().toUpperCase();
  const rejected = f.rejectedTrno.trim();
  if (rejected !== "" && rejected !== "0") return "REVERSAL";
  if (KFIN_CODES[code] === undefined && code.length > 1 && code.endsWith("R") && KFIN_CODES[code.slice(0, -1)] !== undefined) {
    return "REVERSAL";
  }
  const known = KFIN_CODES[code];
  if (known !== undefined) return known;
  const purred = f.purred.trim().toUpperCase();
  const text = f.description.toUpperCase();
  if (purred === "P") return systematic("PURCHASE", text, false);
  if (purred === "R") return systematic("REDEMPTION", text, false);
  return "OTHER";
}

/** A purchase, redemption or switch told apart as SIP, SWP or STP by its description. */
function systematic(base: TransactionType, text: string, sipNumber: boolean): TransactionType {
  if (base === "PURCHASE" && (sipNumber || SIP_TEXT.test(text))) return "SIP";
  if (base === "REDEMPTION" && SWP_TEXT.test(text)) return "SWP";
  if (base === "SWITCH_IN" && STP_TEXT.test(text)) return "STP_IN";
  if (base === "SWITCH_OUT" && STP_TEXT.test(text)) return "STP_OUT";
  return base;
}
