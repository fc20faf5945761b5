import { ExchangeUnavailableError } from "../../../integrations/exchange/port.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { confirmCancellation, refuseCancellation } from "../lifecycle.js";
import { findOrderById } from "../orders.repo.js";

/**
 * Asks the exchange to cancel a registration whose cancellation is PENDING, and applies its answer: CONFIRMED
 * (the order CANCELLED) or REFUSED with its remark (the order stays ACCEPTED). The exchange unreachable: the
 * job retries; on its last attempt the cancellation is REFUSED saying so, so it can be asked again rather than
 * stay pending (and hold back the installments) for ever. A second CXL is safe: the exchange answers that it
 * is already cancelled, which counts as cancelled.
 */
export const cancelOrderAtExchange: TaskHandler<"orders__cancel_at_exchange"> = async ({ order_id }, { services, job, log }) => {
  const order = await findOrderById(services.prisma, order_id);
  if (!order || order.status !== "ACCEPTED" || order.cancellationStatus !== "PENDING") return;
  let result: Awaited<ReturnType<typeof services.exchange.cancelOrder>>;
  try {
    result = await services.exchange.cancelOrder(order_id);
  } catch (error) {
    if (error instanceof ExchangeUnavailableError && job.attempts >= job.max_attempts) {
      await refuseCancellation(services.prisma, order_id, `NOT CANCELLED: THE EXCHANGE COULD NOT BE REACHED (${error.message}); ASK AGAIN`);
      log.warn({ order_id, attempts: job.attempts }, "the cancellation could not reach the exchange");
      return;
    }
    throw error;
  }
  if (result.cancelled) {
    await confirmCancellation(services.prisma, order_id);
    log.info({ order_id }, "the exchange cancelled the registration");
  } else {
    await refuseCancellation(services.prisma, order_id, result.remark);
    log.info({ order_id, remark: result.remark }, "the exchange refused the cancellation");
  }
};
