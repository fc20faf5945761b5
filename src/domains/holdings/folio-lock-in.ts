import type { DbOrTx } from "../../platform/db/client.js";
import { Decimal } from "../../platform/lib/money.js";
import { lockIn, lockInPeriodOf } from "../portfolio/lock-in.js";
import { buildLots } from "../portfolio/lots.js";
import { fromMilli } from "../portfolio/exact.js";
import { folioPositions, schemeFacts, transactionsOfPositions } from "./position-txns.repo.js";
import { groupByPosition, isElssCategory, positionKeyText } from "./position-txns.js";

export interface FolioLockIn {
  /** Whether every position's transactions explain its balance (else its lock-in is not judged). */
  lotsComplete: boolean;
  freeUnits: Decimal;
  lockedUnits: Decimal;
  undeterminedUnits: Decimal;
  nextUnlockOn: string | null;
}

/**
 * For the orders' placement check: the locked and free units of `folioNo` in `schemeCode` under the distributor
 * (summed across registrars, as folioUnits is), from the positions' FIFO lots; null when holdings know nothing
 * of that folio and scheme.
 */
export async function folioLockIn(db: DbOrTx, distributorId: string, folioNo: string, schemeCode: string, today: string): Promise<FolioLockIn | null> {
  const positions = await folioPositions(db, distributorId, folioNo, schemeCode);
  if (positions.length === 0) return null;
  // One after the other: placement's transaction has one connection, so Promise.all would only queue them.
  const txnRows = await transactionsOfPositions(db, distributorId, positions);
  const [facts] = await schemeFacts(db, [schemeCode]);
  const period = lockInPeriodOf(isElssCategory(facts?.category ?? null), facts?.lock_in ?? null);
  const byPosition = groupByPosition(txnRows);
  let lotsComplete = true;
  let free = 0n;
  let locked = 0n;
  let undetermined = 0n;
  let nextUnlockOn: string | null = null;
  for (const position of positions) {
    const lots = buildLots(byPosition.get(positionKeyText(position)) ?? [], position.units);
    const lock = lockIn(lots.openLots, period, today);
    lotsComplete &&= lots.lotsComplete;
    free += lock.freeMilli;
    locked += lock.lockedMilli;
    undetermined += lock.undeterminedMilli;
    if (lock.nextUnlockOn !== null && (nextUnlockOn === null || lock.nextUnlockOn < nextUnlockOn)) nextUnlockOn = lock.nextUnlockOn;
  }
  return { lotsComplete, freeUnits: fromMilli(free), lockedUnits: fromMilli(locked), undeterminedUnits: fromMilli(undetermined), nextUnlockOn };
}
