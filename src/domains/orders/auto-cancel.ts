import type { Tx } from "../../platform/db/client.js";
import { askCancellationAtExchange } from "./cancellation-request.js";
import { lockInstallmentOutcomes, type InstallmentOutcome } from "./installments.repo.js";
import { orderDetails } from "./order-details.js";
import type { OrderFailureCode } from "../../integrations/exchange/outcomes.js";
import { getOrderById } from "./orders.repo.js";

/**
 * SEBI's automatic SIP cancellation: a SIP or XSIP whose installments fail 3 times in a row (monthly,
 * quarterly) or 6 times in a row (weekly) has its cancellation asked of the exchange, as a distributor's cancel
 * is (cancellation-request.ts), with the reason `auto_cancelled_after_failed_installments`.
 *
 * A failed installment: its payment FAILED (whatever the failure code: the money did not come), or its order
 * REJECTED for want of a mandate (the only rejection of ours that is the investor's funds or mandate; the
 * others are the exchange's or ours and do not count). Anything else breaks the run, a success included; an
 * installment with no child order (paused, cancelled) is skipped and breaks nothing. The run is the longest
 * in the schedule, so failures reported out of order count the same.
 */

const MIN_FAILURES: Record<string, number> = { MONTHLY: 3, QUARTERLY: 3, WEEKLY: 6, FORTNIGHTLY: 6, DAILY: 6 };
const REGISTRATIONS_AUTO_CANCELLED = new Set(["SIP", "XSIP"]);
const FAILURES_OF_FUNDS_OR_MANDATE: ReadonlySet<OrderFailureCode> = new Set(["mandate_invalid"]);

export function isFailedInstallment(outcome: InstallmentOutcome): boolean {
  if (outcome.paymentStatus === "FAILED") return true;
  return outcome.status === "REJECTED" && outcome.failureCode !== null && FAILURES_OF_FUNDS_OR_MANDATE.has(outcome.failureCode as OrderFailureCode);
}

export function longestFailureRun(outcomes: readonly InstallmentOutcome[]): number {
  let longest = 0;
  let run = 0;
  for (const outcome of outcomes) {
    run = isFailedInstallment(outcome) ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/**
 * Weighs the registration of an installment whose failure was just recorded, in the same transaction; asks
 * its cancellation when the run is long enough. Idempotent: a cancellation already asked or confirmed is not
 * asked again (askCancellation's condition). Answers whether it asked. Any other order is left alone.
 */
export async function cancelAfterFailedInstallments(tx: Tx, orderId: string): Promise<boolean> {
  const installment = await getOrderById(tx, orderId);
  if (!installment.parentOrderId || !REGISTRATIONS_AUTO_CANCELLED.has(installment.orderType)) return false;
  const outcomes = await lockInstallmentOutcomes(tx, installment.parentOrderId);
  const registration = await getOrderById(tx, installment.parentOrderId);
  if (registration.status !== "ACCEPTED" || registration.cancellationStatus === "PENDING" || registration.cancellationStatus === "CONFIRMED") return false;
  const frequency = orderDetails(registration).sip?.frequency;
  const needed = frequency ? MIN_FAILURES[frequency] : undefined;
  if (needed === undefined || longestFailureRun(outcomes) < needed) return false;
  return askCancellationAtExchange(tx, registration.id, "auto_cancelled_after_failed_installments");
}
