import type { TaskHandler } from "../../jobs/task.js";

/** Cancels at the exchange an order cancelled on our side after it had been placed. */
export const cancelOrderAtExchange: TaskHandler<"orders__cancel_at_exchange"> = async ({ order_id }, { services, log }) => {
  const result = await services.exchange.cancelOrder(order_id);
  if (!result.cancelled) log.warn({ order_id, remark: result.remark }, "the exchange did not cancel the order");
};
