import type { TaskHandler } from "../../shared/jobs/task.js";
import { submitToRegistrar } from "../broker-changes.service.js";

/** Once a request is SUBMITTED: hand it to the registrar port (once; a repeat run changes nothing). */
export const submitToRegistrarJob: TaskHandler<"broker_changes__submit"> = async ({ broker_change_id }, { services }) => {
  await submitToRegistrar(services, broker_change_id);
};
