import { invalidState, notFound } from "../../platform/lib/errors.js";

/**
 * The steps every sandbox simulation takes, whichever party it plays (the exchange, the bank, the payment
 * gateway): find the caller's resource, check the state the move starts from, apply the move, answer.
 * A domain's `*.simulation.ts` holds only what is its own: which resource, which states, which move.
 */

/** The answer of every simulation call: what happened, and the id of the resource that moved (or was made). */
export interface SimulationAnswer {
  success: true;
  message: string;
  data: string;
}

export const answer = (message: string, data: string): SimulationAnswer => ({ success: true, message, data });

/** The caller's resource as its repo found it, or 404 NOT_FOUND naming the kind only (another distributor's id is not found either; the id sent is never echoed). */
export function found<R>(noun: string, resource: R | null | undefined): R {
  if (!resource) throw notFound(noun);
  return resource;
}

const article = (state: string) => (/^[AEIOU]/.test(state) ? "an" : "a");

/**
 * 409 INVALID_STATE unless the resource is in the state the move starts from, worded from the state table:
 * requireState("Payment pay_…", "FAILED", "CAPTURED", "payment can be refunded") refuses with
 * "Payment pay_… is FAILED; only a CAPTURED payment can be refunded".
 */
export function requireState(label: string, status: string, from: string, only: string): void {
  if (status !== from) throw invalidState(`${label} is ${status}; only ${article(from)} ${from} ${only}`);
}

/** 409 INVALID_STATE when the move found the resource no longer in its starting state (a job moved it first). */
export function requireMoved(moved: boolean, label: string, from: string): void {
  if (!moved) throw invalidState(`${label} is no longer ${from}`);
}
