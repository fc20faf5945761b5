import type { DbOrTx, Tx } from "../../platform/db/client.js";
import type { EventSink } from "../events/sinks.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { invalidState } from "../../platform/lib/errors.js";
import type { Services } from "../shared/services.js";
import { orderIdOfPayment } from "../payments/payments.service.js";
import * as repo from "./order-links.repo.js";
import type { LinkRow } from "./order-links.repo.js";
import { statusAt } from "./rules.js";

/**
 * An order link's state table, the only caller of the repo's moves: ACTIVE -> CONFIRMED (the investor
 * confirms) -> PAID (its order's payment is captured); ACTIVE -> CANCELLED (the distributor) or EXPIRED (at
 * `expires_at`). Each move is conditional on the state it starts from. Links record no events.
 */

/** ACTIVE -> CANCELLED; any other state (an expired link included) is 409. */
export async function cancelActiveLink(db: DbOrTx, link: LinkRow, now: Date): Promise<void> {
  if (await repo.cancelActive(db, link.id, now)) return;
  const current = (await repo.findLinkById(db, link.id)) ?? link;
  throw invalidState(`The order link is ${statusAt(current, now)}; only an ACTIVE link can be cancelled`);
}

/** The expiry job: ACTIVE -> EXPIRED once due; a job that runs early comes back at `expires_at`. */
export async function expireLink(services: Services, id: string): Promise<void> {
  const link = await repo.findLinkById(services.prisma, id);
  if (!link || link.status !== "ACTIVE") return;
  if (link.expiresAt > new Date()) {
    await enqueue(services.prisma, "order_links__expire", { link_id: id }, { runAt: link.expiresAt, jobKey: `order_links__expire:${id}` });
    return;
  }
  await repo.expireDue(services.prisma, id, new Date());
}

/** ACTIVE -> CONFIRMED with the order, the consent evidence and the answer given, on a link locked ACTIVE. */
export async function confirmActiveLink(tx: Tx, id: string, data: Parameters<typeof repo.confirmActive>[2]): Promise<void> {
  if (!(await repo.confirmActive(tx, id, data))) throw new Error("A locked ACTIVE order link could not be confirmed");
}

/**
 * CONFIRMED -> PAID: an event sink (registered at start-up, build-services.ts): when a payment is captured,
 * the link whose order it pays becomes PAID, in the transaction that records the capture. Payments know
 * nothing of links.
 */
export const markLinkPaid: EventSink = async (tx, event) => {
  if (event.event !== "payment.captured") return;
  const { payment_id: paymentId } = event.data as { payment_id: string };
  const link = await repo.findLinkByOrderId(tx, await orderIdOfPayment(tx, paymentId));
  if (link) await repo.markPaid(tx, link.id);
};
