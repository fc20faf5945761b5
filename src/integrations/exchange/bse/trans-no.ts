import type { DbOrTx } from "../../../platform/db/client.js";
import { todayInIndia } from "../../../platform/lib/india-date.js";
import { memberIdProblem, RUNNING_DIGITS } from "./trans-no-layout.js";
import { nextRunningNumber } from "./trans-no.repo.js";

/**
 * The exchange's unique reference of an order request (TransNo / UniqueRefNo, varchar 19):
 * `YYYYMMDD` (the day in India) + the member id + a 6-digit running number that restarts every day.
 * A new one for every request, even after a rejection; the running number comes from PostgreSQL
 * (bse_trans_no_counters), never from memory, so a restart or a second process never repeats one.
 */

export class TransNoExhaustedError extends Error {}

/** The next TransNo of `now`'s day in India. */
export async function allocateTransNo(db: DbOrTx, memberId: string, now: Date = new Date()): Promise<string> {
  const problem = memberIdProblem(memberId);
  if (problem) throw new Error(problem);
  const day = todayInIndia(now).replaceAll("-", "");
  const n = await nextRunningNumber(db, day);
  if (n >= 10 ** RUNNING_DIGITS) throw new TransNoExhaustedError(`the ${day} running numbers of TransNo are used up`);
  return `${day}${memberId}${String(n).padStart(RUNNING_DIGITS, "0")}`;
}
