import { addDays, addMonths } from "./calendar.js";
import type { Lot } from "./lots.js";

/**
 * Locked and free units (reports.md, Lock-in). A lot is locked until its unlock date and redeemable on or after
 * it: the allotment date plus the period, the same calendar date ("locked for 3 years" = redeemable on or after
 * the 3rd anniversary). A lot of 29 February unlocks on 1 March when the anniversary year has no 29 February
 * (calendar.ts, addMonths): the later of the two readings, so we never call free a unit the registrar holds
 * locked. ELSS: 36 months per lot (each SIP installment its own lot); other schemes: the exchange master's
 * period, if any.
 *
 * The opening lot (units before our history, date unknown) is free only when it is free even if acquired on the
 * first transaction's date (it can only be older); otherwise its units are undetermined, never guessed.
 */

export interface LockInPeriod {
  count: number;
  unit: "DAYS" | "MONTHS" | "YEARS";
}

export const ELSS_LOCK_IN: LockInPeriod = { count: 3, unit: "YEARS" };

/** The exchange scheme master's lock-in text ("3 Years", "60 months", "1095 Days", "3Y"); null for none or unreadable. */
export function parseLockInPeriod(text: string | null): LockInPeriod | null {
  // Stryker disable next-line StringLiteral: any text that is not a period reads as none, as no text does
  const match = /^\s*(\d{1,4})\s*(d|days?|m|months?|y|yrs?|years?)\s*$/i.exec(text ?? "");
  if (!match) return null;
  const count = Number(match[1]);
  if (count === 0) return null;
  const unit = match[2]!.toLowerCase()[0] === "d" ? "DAYS" : match[2]!.toLowerCase()[0] === "m" ? "MONTHS" : "YEARS";
  return { count, unit };
}

/** ELSS always 3 years; any other scheme the master's period (null: no lock-in). */
export function lockInPeriodOf(isElss: boolean, masterLockIn: string | null): LockInPeriod | null {
  return isElss ? ELSS_LOCK_IN : parseLockInPeriod(masterLockIn);
}

export function unlockDate(acquiredOn: string, period: LockInPeriod): string {
  if (period.unit === "DAYS") return addDays(acquiredOn, period.count);
  return addMonths(acquiredOn, period.unit === "YEARS" ? period.count * 12 : period.count);
}

/** Units as whole thousandths (exact.ts). */
export interface LockInResult {
  lockedMilli: bigint;
  freeMilli: bigint;
  /** Opening units that may still be locked (their date is unknown). */
  undeterminedMilli: bigint;
  /** The earliest date a locked lot unlocks (null when none is locked). */
  nextUnlockOn: string | null;
}

export function lockIn(lots: readonly Pick<Lot, "acquiredOn" | "acquiredOnOrBefore" | "milli">[], period: LockInPeriod | null, today: string): LockInResult {
  let locked = 0n;
  let free = 0n;
  let undetermined = 0n;
  const unlocking: string[] = [];
  for (const lot of lots) {
    const date = lot.acquiredOn ?? lot.acquiredOnOrBefore;
    if (period === null) free += lot.milli;
    else if (date === null) undetermined += lot.milli;
    else {
      const unlock = unlockDate(date, period);
      if (unlock <= today) free += lot.milli;
      else if (lot.acquiredOn === null) undetermined += lot.milli;
      else {
        locked += lot.milli;
        unlocking.push(unlock);
      }
    }
  }
  return { lockedMilli: locked, freeMilli: free, undeterminedMilli: undetermined, nextUnlockOn: unlocking.sort()[0] ?? null };
}
