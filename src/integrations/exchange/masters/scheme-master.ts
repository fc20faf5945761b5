import { CellError, cutOffTime, decimal, flag, integer, masterDate, readMasterLines, type MasterProblem } from "./master-file.js";

/** exchange_schemes.transaction_mode: the holding modes an exchange code serves (the master's P, D, DP). */
export const EXCHANGE_TRANSACTION_MODES = ["PHYSICAL", "DEMAT", "BOTH"] as const;
export type ExchangeTransactionMode = (typeof EXCHANGE_TRANSACTION_MODES)[number];

/** One row of the exchange's scheme master, read: what the service keeps of it. */
export interface ExchangeSchemeRecord {
  line: number;
  code: string;
  uniqueNo: number | null;
  isin: string;
  name: string;
  rtaSchemeCode: string | null;
  amcSchemeCode: string | null;
  amcCode: string | null;
  schemeType: string | null;
  schemePlan: string | null;
  transactionMode: ExchangeTransactionMode;
  purchaseAllowed: boolean;
  redemptionAllowed: boolean;
  sipAllowed: boolean;
  stpAllowed: boolean;
  swpAllowed: boolean;
  switchAllowed: boolean;
  amcActive: boolean;
  minPurchaseAmount: string | null;
  minAdditionalAmount: string | null;
  maxPurchaseAmount: string | null;
  purchaseMultiple: string | null;
  minRedemptionAmount: string | null;
  maxRedemptionAmount: string | null;
  redemptionAmountMultiple: string | null;
  minRedemptionUnits: string | null;
  maxRedemptionUnits: string | null;
  redemptionUnitsMultiple: string | null;
  purchaseCutOff: string | null;
  redemptionCutOff: string | null;
  settlementType: string | null;
  exitLoad: string | null;
  lockIn: string | null;
  startDate: string | null;
  endDate: string | null;
  reopeningDate: string | null;
}

/** The columns a scheme master must have (normalised names); the rest are read when present. */
export const SCHEME_MASTER_REQUIRED = [
  "schemecode", "isin", "schemename", "purchaseallowed", "purchasetransactionmode", "minimumpurchaseamount",
  "redemptionallowed", "sipflag", "stpflag", "swpflag", "switchflag",
] as const;

/** The master's P / D / DP (either order, or BOTH) as the holding modes a code serves. */
export function transactionMode(value: string, column: string): ExchangeTransactionMode {
  switch (value.toUpperCase().replace(/[^A-Z]/g, "")) {
    case "P":
    case "PHYSICAL":
      return "PHYSICAL";
    case "D":
    case "DEMAT":
      return "DEMAT";
    case "DP":
    case "PD":
    case "BOTH":
      return "BOTH";
    default:
      throw new CellError(`${column} "${value}" is not P, D or DP`);
  }
}

const text = (value: string) => (value === "" ? null : value);
/** The rupee columns keep 2 decimals, the unit columns 3. */
const rupees = (value: string, column: string, zeroIsNone = false) => decimal(value, column, 2, zeroIsNone);
const units = (value: string, column: string, zeroIsNone = false) => decimal(value, column, 3, zeroIsNone);

/**
 * Reads a scheme master. Answers its records and the lines skipped (a cell of the wrong type, no scheme code
 * or ISIN, a code repeated); throws MasterFileError when the header lacks a required column.
 */
export function parseSchemeMaster(text_: string): { records: ExchangeSchemeRecord[]; problems: MasterProblem[] } {
  const { lines } = readMasterLines(text_, "scheme master", SCHEME_MASTER_REQUIRED);
  const records: ExchangeSchemeRecord[] = [];
  const problems: MasterProblem[] = [];
  const seen = new Map<string, number>();
  for (const l of lines) {
    try {
      const code = l.cell("schemecode");
      if (!code) throw new CellError("Scheme Code is empty");
      if (code.length > 20) throw new CellError(`Scheme Code "${code.slice(0, 30)}" is longer than 20 characters`);
      const isin = l.cell("isin").toUpperCase();
      if (!/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(isin)) throw new CellError(`ISIN "${isin.slice(0, 20)}" is not an ISIN`);
      const first = seen.get(code);
      if (first !== undefined) throw new CellError(`Scheme Code ${code} is repeated (first on line ${first}); the first is kept`);
      const purchaseMode = l.cell("purchasetransactionmode");
      records.push({
        line: l.line,
        code,
        uniqueNo: integer(l.cell("uniqueno"), "Unique No"),
        isin,
        name: l.cell("schemename") || code,
        rtaSchemeCode: text(l.cell("rtaschemecode")),
        amcSchemeCode: text(l.cell("amcschemecode")),
        amcCode: text(l.cell("amccode")),
        schemeType: text(l.cell("schemetype").toUpperCase()),
        schemePlan: text(l.cell("schemeplan").toUpperCase()),
        transactionMode: transactionMode(purchaseMode || l.cell("redemptiontransactionmode"), "Purchase Transaction mode"),
        purchaseAllowed: flag(l.cell("purchaseallowed"), "Purchase Allowed"),
        redemptionAllowed: flag(l.cell("redemptionallowed"), "Redemption Allowed"),
        sipAllowed: flag(l.cell("sipflag"), "SIP FLAG"),
        stpAllowed: flag(l.cell("stpflag"), "STP FLAG"),
        swpAllowed: flag(l.cell("swpflag"), "SWP Flag"),
        switchAllowed: flag(l.cell("switchflag"), "Switch FLAG"),
        // Absent column: the AMC takes orders.
        amcActive: l.cell("amcactiveflag") === "" ? true : flag(l.cell("amcactiveflag"), "AMC Active Flag"),
        minPurchaseAmount: rupees(l.cell("minimumpurchaseamount"), "Minimum Purchase Amount"),
        minAdditionalAmount: rupees(l.cell("additionalpurchaseamount"), "Additional Purchase Amount"),
        maxPurchaseAmount: rupees(l.cell("maximumpurchaseamount"), "Maximum Purchase Amount", true),
        purchaseMultiple: rupees(l.cell("purchaseamountmultiplier"), "Purchase Amount Multiplier", true),
        minRedemptionAmount: rupees(l.cell("redemptionamountminimum"), "Redemption Amount - Minimum"),
        maxRedemptionAmount: rupees(l.cell("redemptionamountmaximum"), "Redemption Amount - Maximum", true),
        redemptionAmountMultiple: rupees(l.cell("redemptionamountmultiple"), "Redemption Amount Multiple", true),
        minRedemptionUnits: units(l.cell("minimumredemptionqty"), "Minimum Redemption Qty"),
        maxRedemptionUnits: units(l.cell("maximumredemptionqty"), "Maximum Redemption Qty", true),
        redemptionUnitsMultiple: units(l.cell("redemptionqtymultiplier"), "Redemption Qty Multiplier", true),
        purchaseCutOff: cutOffTime(l.cell("purchasecutofftime"), "Purchase Cutoff Time"),
        redemptionCutOff: cutOffTime(l.cell("redemptioncutofftime"), "Redemption Cut off Time"),
        settlementType: text(l.cell("settlementtype").toUpperCase()),
        exitLoad: text(l.cell("exitload")),
        lockIn: text(l.cell("lockinperiod")),
        startDate: masterDate(l.cell("startdate"), "Start Date"),
        endDate: masterDate(l.cell("enddate"), "End Date"),
        reopeningDate: masterDate(l.cell("reopeningdate"), "ReOpening Date"),
      });
      seen.set(code, l.line);
    } catch (error) {
      // Stryker disable next-line ConditionalExpression: nothing in the try block throws another error; a programming error must still surface
      if (!(error instanceof CellError)) throw error;
      problems.push({ line: l.line, message: error.message });
    }
  }
  return { records, problems };
}
