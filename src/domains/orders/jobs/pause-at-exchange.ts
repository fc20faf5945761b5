import { ExchangeUnavailableError } from "../../../integrations/exchange/port.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { confirmPause, refusePause } from "../pause.js";
import { findPause } from "../pause.repo.js";

/**
 * Asks the exchange to pause a registration whose pause is PENDING (BSE: PauseSIP) and applies its answer:
 * CONFIRMED (`order.paused`) or REFUSED with its remark (the schedule put back). The exchange unreachable: the
 * job retries; on its last attempt the pause is REFUSED saying so, so it can be asked again.
 */
export const pauseOrderAtExchange: TaskHandler<"orders__pause_at_exchange"> = async ({ pause_id }, { services, job, log }) => {
  const pause = await findPause(services.prisma, pause_id);
  if (!pause || pause.status !== "PENDING") return;
  let result: Awaited<ReturnType<typeof services.exchange.pauseSip>>;
  try {
    result = await services.exchange.pauseSip(pause.orderId, pause.installments);
  } catch (error) {
    if (error instanceof ExchangeUnavailableError && job.attempts >= job.max_attempts) {
      await refusePause(services.prisma, pause, `NOT PAUSED: THE EXCHANGE COULD NOT BE REACHED (${error.message}); ASK AGAIN`);
      log.warn({ order_id: pause.orderId, attempts: job.attempts }, "the pause could not reach the exchange");
      return;
    }
    throw error;
  }
  if (result.paused) {
    await confirmPause(services.prisma, pause);
    log.info({ order_id: pause.orderId }, "the exchange paused the registration");
  } else {
    await refusePause(services.prisma, pause, result.remark);
    log.info({ order_id: pause.orderId, remark: result.remark }, "the exchange refused the pause");
  }
};
