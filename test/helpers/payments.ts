import { getOrderById } from "../../src/domains/orders/orders.repo.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { createPayment } from "../../src/domains/payments/payments.service.js";
import type { TestApp } from "./app.js";
import { runTask } from "./jobs.js";
import type { orderingInvestor } from "./orders.js";

type Ordering = Awaited<ReturnType<typeof orderingInvestor>>;

/**
 * A lump sum of `amount` for `schemeCode` (an open scheme), dispatched and ACCEPTED (no mandate, so its
 * payment is due), and a PENDING UPI payment for it made through the payment service, as pay does.
 */
export async function pendingUpiPayment(app: TestApp, who: Ordering, schemeCode: string, amount = 2500.5) {
  const placed = await app.http("POST", "/api/orders/v1/", {
    token: who.token,
    json: { investment_account_id: who.account, order_type: "LUMPSUM_PURCHASE", scheme_code: schemeCode, amount, purchase_type: "FRESH" },
  });
  if (placed.status !== 201) throw new Error(`order placement failed: ${placed.status} ${placed.text}`);
  await runTask(app, dispatchOrder, { order_id: placed.body.id });
  const payment = await app.prisma.$transaction(async (tx) =>
    createPayment(tx, { order: await getOrderById(tx, placed.body.id), mode: "UPI", details: { vpa: "as***@okhdfc" } }),
  );
  return { orderId: placed.body.id as string, paymentId: payment.id };
}
