import type { TaskHandler } from "../../shared/jobs/task.js";
import { todayInIndia } from "../../../platform/lib/india-date.js";
import { createDueInstallments } from "../schedule.js";

/** Hourly: installments due today (India) become child orders. */
export const createInstallments: TaskHandler<"orders__create_installments"> = async (_payload, { services, log }) => {
  const created = await createDueInstallments(services.prisma, todayInIndia(), log);
  if (created > 0) log.info({ created }, "installment orders created");
};
