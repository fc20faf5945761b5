import { CellError, decimal, flag, integer, readMasterLines, type MasterProblem } from "./master-file.js";
import { transactionMode, type ExchangeTransactionMode } from "./scheme-master.js";

/** One row of the exchange's SIP master: a code's rules for one frequency. */
export interface ExchangeSipRecord {
  line: number;
  code: string;
  /** Upper case, words joined by `_`: MONTHLY, QUARTERLY, WEEKLY, DAILY, FORTNIGHTLY, HALF_YEARLY, ... */
  frequency: string;
  transactionMode: ExchangeTransactionMode | null;
  dates: number[];
  minGapDays: number | null;
  maxGapDays: number | null;
  installmentGap: number | null;
  /** SIP STATUS: the exchange takes registrations for this code and frequency. */
  active: boolean;
  minAmount: string | null;
  maxAmount: string | null;
  multiple: string | null;
  minInstallments: number | null;
  maxInstallments: number | null;
  isin: string | null;
  pauseAllowed: boolean;
  pauseMinInstallments: number | null;
  pauseMaxInstallments: number | null;
  pauseModificationCount: number | null;
}

export const SIP_MASTER_REQUIRED = ["schemecode", "sipfrequency", "sipdates", "sipstatus", "sipminimuminstallmentamount"] as const;

/** "1,5,10" (also spaces or semicolons between) as sorted distinct days 1-31. */
function sipDates(value: string): number[] {
  const parts = value.split(/[,;\s]/).filter(Boolean);
  if (parts.length === 0) throw new CellError("SIP DATES is empty");
  const days = parts.map((part) => {
    if (!/^\d{1,2}$/.test(part) || Number(part) < 1 || Number(part) > 31) throw new CellError(`SIP DATES "${value.slice(0, 40)}" is not a list of days 1-31`);
    return Number(part);
  });
  return [...new Set(days)].sort((a, b) => a - b);
}

/** SIP STATUS: Y/1 (or ACTIVE) when the exchange takes registrations. */
function sipStatus(value: string): boolean {
  const v = value.toUpperCase();
  if (v === "ACTIVE") return true;
  if (v === "INACTIVE") return false;
  return flag(v, "SIP STATUS");
}

export function parseSipMaster(text: string): { records: ExchangeSipRecord[]; problems: MasterProblem[] } {
  const { lines } = readMasterLines(text, "SIP master", SIP_MASTER_REQUIRED);
  const records: ExchangeSipRecord[] = [];
  const problems: MasterProblem[] = [];
  const seen = new Map<string, number>();
  for (const l of lines) {
    try {
      const code = l.cell("schemecode");
      if (!code) throw new CellError("SCHEME CODE is empty");
      if (code.length > 20) throw new CellError(`SCHEME CODE "${code.slice(0, 30)}" is longer than 20 characters`);
      const frequency = l.cell("sipfrequency").toUpperCase().replace(/[^A-Z]+/g, " ").trim().replace(/ /g, "_");
      if (!frequency) throw new CellError("SIP FREQUENCY is empty");
      const key = `${code} ${frequency}`;
      const first = seen.get(key);
      if (first !== undefined) throw new CellError(`${code} ${frequency} is repeated (first on line ${first}); the first is kept`);
      const mode = l.cell("siptransactionmode");
      const isin = l.cell("schemeisin").toUpperCase();
      records.push({
        line: l.line,
        code,
        frequency,
        transactionMode: mode ? transactionMode(mode, "SIP TRANSACTION MODE") : null,
        dates: sipDates(l.cell("sipdates")),
        minGapDays: integer(l.cell("sipminimumgap"), "SIP MINIMUM GAP"),
        maxGapDays: integer(l.cell("sipmaximumgap"), "SIP MAXIMUM GAP"),
        installmentGap: integer(l.cell("sipinstallmentgap"), "SIP INSTALLMENT GAP"),
        active: sipStatus(l.cell("sipstatus")),
        minAmount: decimal(l.cell("sipminimuminstallmentamount"), "SIP MINIMUM INSTALLMENT AMOUNT", 2),
        maxAmount: decimal(l.cell("sipmaximuminstallmentamount"), "SIP MAXIMUM INSTALLMENT AMOUNT", 2, true),
        multiple: decimal(l.cell("sipmultiplieramount"), "SIP MULTIPLIER AMOUNT", 2, true),
        minInstallments: integer(l.cell("sipminimuminstallmentnumbers"), "SIP MINIMUM INSTALLMENT NUMBERS"),
        maxInstallments: integer(l.cell("sipmaximuminstallmentnumbers"), "SIP MAXIMUM INSTALLMENT NUMBERS") || null,
        isin: isin === "" ? null : isin,
        pauseAllowed: flag(l.cell("pauseflag"), "PAUSE FLAG"),
        pauseMinInstallments: integer(l.cell("pauseminimuminstallments"), "PAUSE MINIMUM INSTALLMENTS"),
        pauseMaxInstallments: integer(l.cell("pausemaximuminstallments"), "PAUSE MAXIMUM INSTALLMENTS"),
        pauseModificationCount: integer(l.cell("pausemodificationcount"), "PAUSE MODIFICATION COUNT"),
      });
      seen.set(key, l.line);
    } catch (error) {
      // Stryker disable next-line ConditionalExpression: nothing in the try block throws another error; a programming error must still surface
      if (!(error instanceof CellError)) throw error;
      problems.push({ line: l.line, message: error.message });
    }
  }
  return { records, problems };
}
