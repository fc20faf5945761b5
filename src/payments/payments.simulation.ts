import type { SandboxExchange } from "../exchange/sandbox.js";
import { answer, found, requireMoved, requireState } from "../exchange/simulation.js";
import type { Caller } from "../core/caller.js";
import type { Services } from "../core/services.js";
import { findPayment } from "./payments.repo.js";
import type { PaymentFailureCode } from "./payment.states.js";
import { movePayment, type PaymentMove } from "./payments.service.js";

/** Each move: the state it starts from and the gateway's default remark. */
const MOVES: Record<PaymentMove, { from: string; remark: string }> = {
  CAPTURED: { from: "PENDING", remark: "SANDBOX: FUNDS RECEIVED" },
  FAILED: { from: "PENDING", remark: "SANDBOX: PAYMENT FAILED BY SIMULATION" },
  REFUNDED: { from: "CAPTURED", remark: "SANDBOX: REFUNDED BY SIMULATION" },
};

/** Sandbox: the payment gateway settles (captures), fails or refunds a payment. */
export async function simulatePayment(
  services: Services & { sandboxExchange: SandboxExchange },
  caller: Caller,
  paymentId: string,
  to: PaymentMove,
  remark: string | undefined,
  failureCode?: PaymentFailureCode,
) {
  const label = `Payment ${paymentId}`;
  const payment = found(label, await findPayment(services.prisma, caller.distributorId, paymentId));
  const { from } = MOVES[to];
  requireState(label, payment.status, from, `payment can be ${to.toLowerCase()}`);
  const providerRemark = remark ?? MOVES[to].remark;
  await services.sandboxExchange.set("PAYMENT", paymentId, to, providerRemark);
  requireMoved(await movePayment(services.prisma, paymentId, to, providerRemark, failureCode), label, from);
  return answer(`Payment ${to.toLowerCase()}`, paymentId);
}
