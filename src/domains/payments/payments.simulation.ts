import type { SandboxExchange } from "../../integrations/exchange/sandbox/sandbox-exchange.js";
import { answer, found, requireMoved, requireState } from "../shared/simulation.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { findPayment, findPaymentById, type PaymentRow } from "./payments.repo.js";
import type { PaymentFailureCode } from "../../integrations/exchange/outcomes.js";
import { movePayment, PAYMENT_MOVES, type PaymentMove } from "./lifecycle.js";

type SandboxServices = Services & { sandboxExchange: SandboxExchange };

/** Each move's default remark from the gateway. */
const REMARKS: Record<PaymentMove, string> = {
  CAPTURED: "SANDBOX: FUNDS RECEIVED",
  FAILED: "SANDBOX: PAYMENT FAILED BY SIMULATION",
  REFUNDED: "SANDBOX: REFUNDED BY SIMULATION",
};

/** Sandbox: the payment gateway settles (captures), fails or refunds one of the caller's payments. */
export async function simulatePayment(
  services: SandboxServices,
  caller: Caller,
  paymentId: string,
  to: PaymentMove,
  remark: string | undefined,
  failureCode?: PaymentFailureCode,
) {
  const payment = found("Payment", await findPayment(services.prisma, caller.distributorId, paymentId));
  await settle(services, payment, to, remark, failureCode);
  return answer(`Payment ${to.toLowerCase()}`, paymentId);
}

/**
 * Sandbox: the payment simulator page finds a payment by its id alone (the page has no caller; the id,
 * with 80 random bits, is the page's address, as a gateway's payment URL is).
 */
export async function sandboxPayment(services: SandboxServices, paymentId: string): Promise<PaymentRow | null> {
  return findPaymentById(services.prisma, paymentId);
}

/** Sandbox: the payment simulator page's Pay and Fail. Returns the payment as the move left it. */
export async function simulatePaymentById(
  services: SandboxServices,
  paymentId: string,
  to: PaymentMove,
  failureCode?: PaymentFailureCode,
): Promise<PaymentRow> {
  await settle(services, found("Payment", await findPaymentById(services.prisma, paymentId)), to, undefined, failureCode);
  return found("Payment", await findPaymentById(services.prisma, paymentId));
}

/** The one way a simulation moves a payment: from the move's starting state, the gateway's books first. */
async function settle(
  services: SandboxServices,
  payment: PaymentRow,
  to: PaymentMove,
  remark: string | undefined,
  failureCode: PaymentFailureCode | undefined,
): Promise<void> {
  const label = `Payment ${payment.id}`;
  const { from } = PAYMENT_MOVES[to];
  requireState(label, payment.status, from, `payment can be ${to.toLowerCase()}`);
  const providerRemark = remark ?? REMARKS[to];
  await services.sandboxExchange.set("PAYMENT", payment.id, to, providerRemark);
  requireMoved(await movePayment(services.prisma, payment.id, to, providerRemark, failureCode), label, from);
}
