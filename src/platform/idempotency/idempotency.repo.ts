import type { DbOrTx, Prisma } from "../db/client.js";

export interface KeyRef {
  distributorId: string;
  scope: string;
  key: string;
}

/** Removes the key if it is older than the window, so it can be claimed afresh. */
export async function dropExpiredKey(tx: DbOrTx, ref: KeyRef, windowHours: number): Promise<void> {
  await tx.$executeRawUnsafe(
    `DELETE FROM idempotency_keys WHERE distributor_id = $1 AND scope = $2 AND key = $3
       AND created_at < now() - make_interval(hours => $4)`,
    ref.distributorId, ref.scope, ref.key, windowHours,
  );
}

/**
 * Claims the key for this request: true when this transaction inserted it; false when it exists (a
 * concurrent claim is waited for first, so the caller then reads a committed key).
 */
export async function claimKey(tx: DbOrTx, ref: KeyRef, requestHash: string): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO idempotency_keys (distributor_id, scope, key, request_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    ref.distributorId, ref.scope, ref.key, requestHash,
  );
  return inserted > 0;
}

export async function getKey(tx: DbOrTx, ref: KeyRef) {
  return tx.idempotencyKey.findUniqueOrThrow({ where: { distributorId_scope_key: ref } });
}

/** Keeps the response the key answers with from now on. */
export async function storeResponse(tx: DbOrTx, ref: KeyRef, response: { status: number; body: Prisma.InputJsonValue }): Promise<void> {
  await tx.idempotencyKey.update({ where: { distributorId_scope_key: ref }, data: { responseStatus: response.status, responseBody: response.body } });
}

/** Removes every key older than the window; answers how many. */
export async function purgeExpiredKeys(db: DbOrTx, windowHours: number): Promise<number> {
  return db.$executeRawUnsafe(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`, windowHours);
}
