import type { TaskHandler } from "../../shared/jobs/task.js";
import { deleteExpiredTokens, deleteTokenFailures } from "../auth.repo.js";

/** Expired tokens and failures older than the failure window are useless; a daily sweep keeps both tables small. */
export const purgeExpiredTokens: TaskHandler<"auth__purge_expired_tokens"> = async (_payload, { services, log }) => {
  const now = Date.now();
  const deleted = await deleteExpiredTokens(services.prisma, new Date(now));
  const failures = await deleteTokenFailures(services.prisma, new Date(now - services.config.tokenFailures.windowMs));
  log.info({ deleted, failures }, "expired access tokens and old token failures purged");
};
