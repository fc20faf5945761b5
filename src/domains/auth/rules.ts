import { AppError, type ErrorDetail } from "../../platform/lib/errors.js";

/** The rules a distributor is created under (distributors.service.ts: the CLI, the sandbox seed). */

/** An AMFI registration number: `ARN-` and digits (a distributor's, or a sub-broker's on a broker change). */
export const ARN_PATTERN = /^ARN-[0-9]{1,10}$/;

/** A name of 1-200 characters and a well-formed ARN (both as trimmed, the ARN upper-cased); the 400 otherwise. */
export function requireValidDistributor(name: string, arn: string): void {
  const details: ErrorDetail[] = [];
  if (name.length === 0 || name.length > 200) details.push({ path: "name", message: "Name must be 1-200 characters", reason: name.length === 0 ? "too_small" : "too_big" });
  if (!ARN_PATTERN.test(arn)) details.push({ path: "arn", message: "ARN must be 'ARN-' followed by digits", reason: "invalid_format" });
  if (details.length > 0) throw new AppError("VALIDATION_ERROR", "The distributor is not valid", { details });
}

/** One distributor per ARN: the 409 when it is taken. */
export function arnTaken(arn: string): AppError {
  return new AppError("CONFLICT", `A distributor with ${arn} already exists`);
}
