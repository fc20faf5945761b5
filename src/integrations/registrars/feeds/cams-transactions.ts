import { parseFeedDate } from "./dates.js";
import { normaliseArn, optionalIsin, optionalPan, optionalText, readRecordBatches, requiredDate, requiredText, type FeedFile, type FeedRow } from "./feed.js";
import { camsTransactionType } from "./transaction-types.js";
import { firstOf, magnitude, paise, requiredTxnNumber, txnNumber, wrapTransaction, type FeedTransaction, type TransactionItem } from "./transactions-feed.js";

/**
 * CAMS WBR2 (transactions for a period): one self-contained file, one row per transaction, read by header name.
 * The layout's columns, as integrators read them: AMC_CODE, FOLIO_NO, PRODCODE, SCHEME, INV_NAME, TRXNTYPE,
 * TRXNNO, TRXNMODE, TRXNSTAT, USERCODE, USRTRXNO, TRADDATE, POSTDATE, PURPRICE, UNITS, AMOUNT, BROKCODE, SUBBROK,
 * BROKPERC, BROKCOMM, ALTFOLIO, REP_DATE, TIME1, TRXNSUBTYP, APPLICATION_NO, TRXN_NATURE, TAX, TOTAL_TAX, TE_15H,
 * MICR_NO, REMARKS, SWFLAG, OLD_FOLIO, SEQ_NO, REINVEST_FLAG, MULT_BROK, STT, LOCATION, SCHEME_TYPE, TAX_STATUS,
 * LOAD, SCANREFNO, PAN, INV_IIN, TARG_SRC_SCHEME, TRXN_TYPE_FLAG, TICOB_TRTYPE, TICOB_TRNO, TICOB_POSTED_DATE,
 * DP_ID, TRXN_CHARGES, ELIGIB_AMT, SRC_OF_TXN, TRXN_SUFFIX, SIPTRXNNO, TER_LOCATION, EUIN, EUIN_VALID, EUIN_OPTED,
 * SUB_BRK_ARN, EXCH_DC_FLAG, SRC_BRK_CODE, SYS_REGN_DATE, AC_NO, BANK_NAME, REVERSAL_CODE, EXCHANGE_FLAG,
 * CA_INITIATED_DATE, GST_STATE_CODE, IGST_AMOUNT, CGST_AMOUNT, SGST_AMOUNT, REV_REMARK, ORIGINAL_TRXNNO,
 * STAMP_DUTY (the DBF export cuts names to 10 characters: TRXN_NATUR, REVERSAL_C, ORIGINAL_T, TRXN_TYPE_; both
 * spellings are read). PURPRICE is the NAV; TOTAL_TAX (else TAX) the TDS; an ISIN column is read when present.
 * A transaction number is unique within CAMS with the AMC code.
 */

export const WBR2_REQUIRED = [
  "amc_code", "folio_no", "prodcode", "trxntype", "trxnno", "traddate", "postdate", "purprice", "units", "amount", "brokcode", "pan",
] as const;

/** Column names that tell a WBR2 file from the positions files by its header. */
export const WBR2_SIGNATURE = ["trxnno", "trxntype", "traddate"] as const;

export function readCamsTransactionBatches(file: FeedFile): AsyncGenerator<TransactionItem[]> {
  return readRecordBatches(file, WBR2_REQUIRED, camsTransaction, wrapTransaction);
}

function camsTransaction(row: FeedRow): FeedTransaction {
  const code = requiredText(row, "trxntype");
  const nature = firstOf(row, "trxn_nature", "trxn_natur");
  const original = firstOf(row, "original_trxnno", "original_t");
  const type = camsTransactionType({
    trxntype: code, nature, typeFlag: firstOf(row, "trxn_type_flag", "trxn_type_"), sipTrxnNo: row.get("siptrxnno"),
    reversalCode: firstOf(row, "reversal_code", "reversal_c"), originalTrxnNo: original,
  });
  const postText = row.get("postdate").trim();
  return {
    registrar: "CAMS",
    arn: normaliseArn(requiredText(row, "brokcode")),
    amc_code: requiredText(row, "amc_code").toUpperCase(),
    folio_no: requiredText(row, "folio_no"),
    scheme_code: requiredText(row, "prodcode").toUpperCase(),
    scheme_name: optionalText(row.get("scheme")),
    isin: optionalIsin(row.get("isin")),
    type,
    registrar_type_code: code,
    registrar_type_description: nature === "" ? null : nature,
    txn_no: requiredTxnNumber(row, "trxnno"),
    reverses_txn_no: type === "REVERSAL" ? txnNumber(original) : null,
    trade_date: requiredDate(row, "traddate", parseFeedDate),
    post_date: postText === "" ? null : requiredDate(row, "postdate", parseFeedDate),
    amount_paise: paise(row, "amount"),
    units: magnitude(row, "units", 3),
    nav: magnitude(row, "purprice", 4),
    stamp_duty_paise: paise(row, "stamp_duty", firstOf(row, "stamp_duty")),
    stt_paise: paise(row, "stt"),
    tds_paise: paise(row, "total_tax", firstOf(row, "total_tax", "tax")),
    pan: optionalPan(row.get("pan")),
  };
}
