import type { TaskHandler } from "../../jobs/task.js";
import { getUccCode } from "../../investors/investors.repo.js";
import { findPaymentById, paymentsToSettle, setGatewayReference } from "../payments.repo.js";
import { movePayment } from "../payments.service.js";

/** How many PENDING payments one settlement pass asks the gateway about. */
const SYNC_BATCH = 500;

/**
 * Presents a PENDING payment to the exchange's payment gateway (for a mandate: the debit request).
 * Idempotent on the payment id: the gateway recognises a repeat and returns the same reference.
 */
export const initiatePayment: TaskHandler<"payments__initiate"> = async ({ payment_id }, { services }) => {
  const payment = await findPaymentById(services.prisma, payment_id);
  if (!payment || payment.status !== "PENDING" || payment.gatewayReference) return;
  const { paymentReference } = await services.exchange.createPayment({
    paymentId: payment.id,
    clientCode: await getUccCode(services.prisma, payment.investorId),
    orderIds: [payment.orderId],
    amount: payment.amount.toFixed(2),
    mode: payment.mode,
    mandateId: payment.mandateId,
  });
  await setGatewayReference(services.prisma, payment.id, paymentReference);
};

/** Periodic settlement: asks the gateway about PENDING payments and applies what it reports. */
export const syncPendingPayments: TaskHandler<"payments__sync_pending"> = async (_payload, { services }) => {
  let afterId = "";
  for (;;) {
    const pending = await paymentsToSettle(services.prisma, afterId, SYNC_BATCH);
    if (pending.length === 0) return;
    afterId = pending[pending.length - 1]!.id;
    const known = new Map(pending.map((p) => [p.id, p.status]));
    for (const report of await services.exchange.paymentStatus([...known.keys()])) {
      const current = known.get(report.paymentId);
      if (!current || report.status === current || report.status === "PENDING") continue;
      if (report.status === "REFUNDED" && current === "PENDING") await movePayment(services.prisma, report.paymentId, "CAPTURED", report.remark);
      await movePayment(services.prisma, report.paymentId, report.status, report.remark);
    }
  }
};
