import type { SandboxExchange } from "../exchange/sandbox.js";
import { invalidState, notFound } from "../lib/errors.js";
import type { Caller } from "../core/caller.js";
import type { Services } from "../core/services.js";
import { findPayment } from "./payments.repo.js";
import { movePayment, type PaymentMove } from "./payments.service.js";

const REMARKS: Record<PaymentMove, string> = {
  CAPTURED: "SANDBOX: FUNDS RECEIVED",
  FAILED: "SANDBOX: PAYMENT FAILED BY SIMULATION",
  REFUNDED: "SANDBOX: REFUNDED BY SIMULATION",
};

/** Sandbox: the payment gateway settles (captures), fails or refunds a payment. */
export async function simulatePayment(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  paymentId: string,
  to: PaymentMove,
  remark: string | undefined,
) {
  const payment = await findPayment(services.prisma, caller.distributorId, paymentId);
  if (!payment) throw notFound(`Payment ${paymentId}`);
  const from = to === "REFUNDED" ? "CAPTURED" : "PENDING";
  if (payment.status !== from) throw invalidState(`Payment ${paymentId} is ${payment.status}; only a ${from} payment can be ${to.toLowerCase()}`);
  const providerRemark = remark ?? REMARKS[to];
  await services.sandboxExchange.set("PAYMENT", paymentId, to, providerRemark);
  if (!(await movePayment(services.prisma, paymentId, to, providerRemark))) throw invalidState(`Payment ${paymentId} is no longer ${from}`);
  return { success: true as const, message: `Payment ${to.toLowerCase()}`, data: paymentId };
}
