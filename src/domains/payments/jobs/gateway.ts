import type { Services } from "../../shared/services.js";
import type { PaymentPage } from "../../../integrations/exchange/port.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import type { Log } from "../../../platform/lib/logger.js";
import { uccCodeOf } from "../../investors/investors.service.js";
import { findPaymentById, paymentSourceAccount, paymentsToSettle } from "../payments.repo.js";
import { movePayment } from "../lifecycle.js";
import { paymentDetails } from "../payment-details.js";
import { recordGatewayAnswer } from "../payments.service.js";
import type { StoredPaymentDetails } from "../payments.schemas.js";
import { returnPageOfOrder } from "../return-page.js";
import type { PaymentRow } from "../payments.repo.js";

/** How many PENDING payments one settlement pass asks the gateway about. */
const SYNC_BATCH = 500;

/**
 * Presents a PENDING payment to the exchange's payment gateway (for a mandate: the debit request).
 * Idempotent on the payment id: the gateway recognises a repeat and returns the same reference. The
 * page the gateway answers for the investor (the bank's page, encrypted: it may name the account; or a
 * message, masked) is kept with the payment for the link's payment page. A payment the gateway refuses
 * is FAILED with its remark and failure code.
 */
export const initiatePayment: TaskHandler<"payments__initiate"> = async ({ payment_id }, { services, log }) => {
  const payment = await findPaymentById(services.prisma, payment_id);
  if (!payment || payment.status !== "PENDING" || payment.gatewayReference) return;
  const answer = await services.exchange.createPayment({
    paymentId: payment.id,
    clientCode: await uccCodeOf(services.prisma, payment.investorId),
    orderIds: [payment.orderId],
    amount: payment.amount.toFixed(2),
    mode: payment.mode,
    mandateId: payment.mandateId,
    ...(await paymentSource(services, payment, log)),
  });
  if (answer.status === "FAILED") {
    await movePayment(services.prisma, payment.id, "FAILED", answer.remark, answer.failureCode);
    return;
  }
  await recordGatewayAnswer(services.prisma, payment.id, answer.paymentReference, pageDetails(services, answer.page ?? null));
};

/** The investor's address and account in clear, and where net banking returns the investor. */
async function paymentSource(services: Services, payment: PaymentRow, log: Log) {
  const encryptedVpa = paymentDetails(payment, log).vpa_encrypted;
  const account = payment.mode === "UPI" || payment.mode === "NETBANKING" ? await paymentSourceAccount(services.prisma, payment.investorId, payment.bankAccountId) : null;
  const returnPage = await returnPageOfOrder(services.prisma, payment.orderId);
  const base = services.config.publicBaseUrl;
  return {
    vpa: encryptedVpa === undefined ? null : services.cipher.decrypt(encryptedVpa),
    bankAccount: account ? { accountNumber: services.cipher.decrypt(account.accountNumberEncrypted), ifsc: account.ifsc } : null,
    returnUrl: returnPage && base ? `${base}${returnPage}` : null,
  };
}

function pageDetails(services: Services, page: PaymentPage | null): StoredPaymentDetails {
  if (!page) return {};
  return page.kind === "html" ? { gateway_page_encrypted: services.cipher.encrypt(page.html) } : { gateway_message: page.text };
}

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
      await movePayment(services.prisma, report.paymentId, report.status, report.remark, report.failureCode);
    }
  }
};
