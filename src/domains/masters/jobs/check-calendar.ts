import type { TaskHandler } from "../../shared/jobs/task.js";
import { warnIfCalendarEnds } from "../exchange-calendar.js";

/** Daily: warns while the exchange holiday calendar does not cover the next 60 days. */
export const checkCalendarJob: TaskHandler<"masters__check_calendar"> = async (_payload, { services, log }) => {
  await warnIfCalendarEnds(services.prisma, log);
};
