import type { Tx } from "../../platform/db/client.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { CancellationReason } from "./order.states.js";
import { orderTypesWhere } from "./order-types.js";
import { askCancellation } from "./orders.repo.js";

/** The types whose registrations have installments: never allotted themselves, cancelled at the exchange. */
export const REGISTRATION_TYPES = orderTypesWhere((type) => type.installments !== null);

/**
 * An ACCEPTED registration's cancellation asked of the exchange (never asked, or refused before): cancellation
 * PENDING with its reason and the job `orders__cancel_at_exchange`, in the caller's transaction. False when it
 * is not such a registration any more, or its cancellation is already asked. Kept apart from lifecycle.ts so
 * that the payments' lifecycle can reach it (auto-cancel.ts) without an import cycle.
 */
export async function askCancellationAtExchange(tx: Tx, orderId: string, reason: CancellationReason): Promise<boolean> {
  if (!(await askCancellation(tx, orderId, REGISTRATION_TYPES, new Date(), reason))) return false;
  await enqueue(tx, "orders__cancel_at_exchange", { order_id: orderId }, { jobKey: `orders__cancel_at_exchange:${orderId}` });
  return true;
}
