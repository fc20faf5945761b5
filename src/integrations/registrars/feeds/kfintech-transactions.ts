import { parseFeedDate } from "./dates.js";
import { normaliseArn, optionalIsin, optionalPan, optionalText, readRecordBatches, requiredDate, requiredText, type FeedFile, type FeedRow } from "./feed.js";
import { kfintechTransactionType } from "./transaction-types.js";
import { firstOf, magnitude, paise, requiredTxnNumber, txnNumber, wrapTransaction, type FeedTransaction, type TransactionItem } from "./transactions-feed.js";

/**
 * KFintech MFSD201 (transactions for a period): one self-contained file, read by header name. The layout's
 * columns, as integrators read them: FMCODE, TD_FUND, TD_SCHEME, TD_PLAN, TD_ACNO, SCHPLN, DIVOPT, FUNDDESC,
 * TD_PURRED, TD_TRNO, SMCODE, CHQNO, INVNAME, TRNMODE, TRNSTAT, TD_BRANCH, ISCTRNO, TD_TRDT, TD_PRDT, TD_UNITS,
 * TD_AMT, TD_AGENT, TD_BROKER, BROKPER, BROKCOMM, INVID, CRDATE, CRTIME, TRNSUB, TD_APPNO, UNQNO, TRDESC,
 * TD_TRTYPE, NAVDATE, PORTDT, ASSETTYPE, SUBTRTYPE, CITYCATEGORY, EUIN, TRCHARGES, CLIENTID, DPID, STT, IHNO,
 * BRANCHCODE, INWARDNUMBER, PAN1, PAN2, PAN3, TDSAMOUNT, CHQDATE, CHQBANK, TRFLAG, LOAD1, BROK_ENTDT, NCTREMARKS,
 * PRCODE1, STATUS, SCHEMEISIN, TD_NAV, INSAMOUNT, REJTRNOORGNO, EVALID, EDECLFLAG, SUBARNCODE, ATMCARDREMARKS,
 * ATMCARDSTATUS, SCH1, PLN1, TD_TRXNMODE, NEWUNQNO, SIPREGDT, SIPREGSLNO, DIVPER, CAN, EXCHORGTRTYPE,
 * ELECTRXNFLAG, CLEARED, BROK_VALUEDT, TD_POP, INVSTATE, STAMPDUTY (the DBF export cuts REJTRNOORGNO to
 * REJTRNOOR2; both are read).
 *
 * TD_FUND is the AMC (fund) code, FMCODE the product (scheme) code as MFSD203's PRCODE, TD_AGENT the distributor
 * code, PAN1 the first holder's PAN, TD_NAV (else TD_POP) the NAV. A transaction number is kept with the fund code.
 */

export const MFSD201_REQUIRED = [
  "fmcode", "td_fund", "td_acno", "td_purred", "td_trno", "td_trdt", "td_units", "td_amt", "td_agent", "td_trtype", "pan1",
] as const;

/** Column names that tell an MFSD201 file from MFSD203 by its header. */
export const MFSD201_SIGNATURE = ["td_trno", "td_acno", "td_trdt"] as const;

export function readKfintechTransactionBatches(file: FeedFile): AsyncGenerator<TransactionItem[]> {
  return readRecordBatches(file, MFSD201_REQUIRED, kfintechTransaction, wrapTransaction);
}

function kfintechTransaction(row: FeedRow): FeedTransaction {
  const code = requiredText(row, "td_trtype");
  const description = row.get("trdesc").trim();
  const rejected = firstOf(row, "rejtrnoorgno", "rejtrnoor2");
  const type = kfintechTransactionType({ trtype: code, purred: row.get("td_purred"), description, rejectedTrno: rejected });
  const postText = row.get("td_prdt").trim();
  return {
    registrar: "KFINTECH",
    arn: normaliseArn(requiredText(row, "td_agent")),
    amc_code: requiredText(row, "td_fund").toUpperCase(),
    folio_no: requiredText(row, "td_acno"),
    scheme_code: requiredText(row, "fmcode").toUpperCase(),
    scheme_name: optionalText(row.get("funddesc")),
    isin: optionalIsin(row.get("schemeisin")),
    type,
    registrar_type_code: code,
    registrar_type_description: description === "" ? null : description,
    txn_no: requiredTxnNumber(row, "td_trno"),
    reverses_txn_no: type === "REVERSAL" ? txnNumber(rejected) : null,
    trade_date: requiredDate(row, "td_trdt", parseFeedDate),
    post_date: postText === "" ? null : requiredDate(row, "td_prdt", parseFeedDate),
    amount_paise: paise(row, "td_amt"),
    units: magnitude(row, "td_units", 3),
    nav: magnitude(row, "td_nav", 4, firstOf(row, "td_nav", "td_pop")),
    stamp_duty_paise: paise(row, "stampduty"),
    stt_paise: paise(row, "stt"),
    tds_paise: paise(row, "tdsamount"),
    pan: optionalPan(row.get("pan1")),
  };
}
