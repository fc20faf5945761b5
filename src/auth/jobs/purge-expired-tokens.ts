import type { TaskHandler } from "../../jobs/task.js";
import { deleteExpiredTokens } from "../auth.repo.js";

/** Expired tokens are useless; a daily sweep keeps the table small. */
export const purgeExpiredTokens: TaskHandler<"auth__purge_expired_tokens"> = async (_payload, { services, log }) => {
  const deleted = await deleteExpiredTokens(services.prisma, new Date());
  log.info({ deleted }, "expired access tokens purged");
};
