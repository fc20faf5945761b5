import type { Decimal } from "../../platform/lib/money.js";
import type { FolioLockIn } from "../holdings/folio-lock-in.js";
import { requestedQuantity, type OrderRequest, type RuleViolation } from "./rules.js";
import type { PlacementScheme } from "./placement.repo.js";

/**
 * A redemption, switch, STP or SWP cannot take locked units (ELSS, or the exchange master's lock-in): more units
 * than the free and undetermined ones, or an amount worth more than those at the scheme's latest NAV, is refused
 * `units_locked`; so is all_units while any unit is locked. Judged only where the folio's lots are complete (the
 * transactions explain the registrar's balance): on an incomplete history nothing is refused on a guess. An STP's
 * or SWP's quantity is one installment's, so only its first installment is judged here.
 */
export function lockInViolations(order: OrderRequest, scheme: Pick<PlacementScheme, "schemeCode" | "nav">, lock: FolioLockIn | null): RuleViolation[] {
  if (lock === null || !lock.lotsComplete || lock.lockedUnits.isZero()) return [];
  const redeemable = lock.freeUnits.plus(lock.undeterminedUnits);
  const state = `folio ${order.folio_no} has ${redeemable.toFixed(3)} free units of ${scheme.schemeCode}; ${lock.lockedUnits.toFixed(3)} are locked in, the next lot unlocking on ${lock.nextUnlockOn}`;
  if (order.all_units) return [violation("all_units", `${state}: ask for at most the free units`)];
  const { amount, units } = requestedQuantity(order);
  if (units && redeemable.lessThan(units)) return [violation("units", `${state}: ask for at most the free units`)];
  const worth: Decimal | null = amount && scheme.nav ? redeemable.times(scheme.nav.toString()) : null;
  if (worth && worth.lessThan(amount!)) return [violation("amount", `${state}, worth ${worth.toFixed(2)} at NAV ${scheme.nav!.toFixed(4)}: ask for at most that`)];
  return [];
}

const violation = (path: string, message: string): RuleViolation => ({ path, reason: "units_locked", message });
