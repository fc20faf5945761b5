import { createHash } from "node:crypto";
import type { Db, Tx } from "../db/client.js";
import { AppError } from "../lib/errors.js";
import * as repo from "./idempotency.repo.js";

export const IDEMPOTENCY_WINDOW_HOURS = 24;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotentRequest {
  distributorId: string;
  /** The operation, e.g. `POST /api/investors/v1`. */
  scope: string;
  key: string | undefined;
  body: unknown;
}

export interface Stored<T> {
  status: number;
  body: T;
}

/** Stable hash of a JSON body: key order does not matter. */
export function bodyHash(body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
    }
    return value;
  };
  return createHash("sha256").update(JSON.stringify(canonical(body))).digest("hex");
}

/**
 * Runs a creating operation once per Idempotency-Key. The key is claimed in the operation's own
 * transaction, so a concurrent repeat waits for the first to commit (or roll back) and then answers
 * with its response; a repeat with a different body is 409 CONFLICT. Without a key the operation
 * simply runs in a transaction. Failed operations leave no key behind.
 */
export async function idempotent<T>(db: Db, request: IdempotentRequest, run: (tx: Tx) => Promise<Stored<T>>): Promise<Stored<T>> {
  if (request.key === undefined) return db.$transaction(run);
  if (!KEY_PATTERN.test(request.key)) {
    throw new AppError("VALIDATION_ERROR", "The Idempotency-Key header is not valid", {
      details: [{ path: "Idempotency-Key", message: "1-255 printable ASCII characters", reason: "invalid_format" }],
    });
  }
  const ref = { distributorId: request.distributorId, scope: request.scope, key: request.key };
  const hash = bodyHash(request.body);
  return db.$transaction(async (tx) => {
    await repo.dropExpiredKey(tx, ref, IDEMPOTENCY_WINDOW_HOURS);
    if (!(await repo.claimKey(tx, ref, hash))) {
      const previous = await repo.getKey(tx, ref);
      if (previous.requestHash !== hash) {
        throw new AppError("CONFLICT", "This Idempotency-Key was already used with a different request body: send a new key for a new request, or the first body to repeat it");
      }
      return { status: previous.responseStatus ?? 200, body: previous.responseBody as T };
    }
    const result = await run(tx);
    await repo.storeResponse(tx, ref, { status: result.status, body: JSON.parse(JSON.stringify(result.body)) });
    return result;
  });
}
