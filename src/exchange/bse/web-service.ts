import { maskFreeText } from "../../lib/mask.js";
import { ExchangeUnavailableError } from "../port.js";
import type { BseContext } from "./bse-context.js";

/**
 * StarMFWebService (bse-starmf-services.md §6-8): the document gives its operations' data contracts
 * with JSON names and samples but no REST path; the adapter posts each contract as JSON to
 * `/StarMFWebService/StarMFWebService.svc/<Operation>` (an open point for UAT, as is whether WCF wants
 * the contract wrapped in `Param`).
 */
export const WEB_SERVICE_PATH = "/StarMFWebService/StarMFWebService.svc";

export async function postWebService(ctx: BseContext, operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await ctx.transport.json(`web service ${operation}`, `${WEB_SERVICE_PATH}/${operation}`, body);
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) throw new ExchangeUnavailableError(`BSE ${operation}: the answer is not a JSON object`);
  return answer as Record<string, unknown>;
}

/** `Status` "100" / "101" of the web service's answers; anything else is malformed. */
export function statusOf(operation: string, answer: Record<string, unknown>): "100" | "101" {
  const status = answer.Status;
  if (status === "100" || status === "101") return status;
  throw new ExchangeUnavailableError(`BSE ${operation}: unexpected Status ${JSON.stringify(status)?.slice(0, 20)}`);
}

export function textOf(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** The answers that mean our member's credentials or configuration are wrong: no retry of the request helps, the job retries later. */
export const CREDENTIAL_FAILURE = /USER (ID|IS|NOT|DOES)|MEMBER CODE|PASSWORD|LOGIN ATTEMPTS|ACCOUNT INFORMATION|SUSPENDED|ACCESS TEMPORARILY/i;

/** A refused login or credentials: "unavailable", with the exchange's (masked) words. */
export function credentialFailure(operation: string, message: string): ExchangeUnavailableError {
  return new ExchangeUnavailableError(`BSE ${operation} refused: ${maskFreeText(message || "(no message)")}`);
}
