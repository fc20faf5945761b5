import type { DbOrTx, Prisma } from "../../platform/db/client.js";

export type SubscriptionRow = Prisma.WebhookSubscriptionGetPayload<object>;

export async function insertSubscription(
  tx: DbOrTx,
  data: { id: string; distributorId: string; url: string; events: string[]; secretEncrypted: string },
): Promise<SubscriptionRow> {
  return tx.webhookSubscription.create({ data: { ...data, status: "ACTIVE" } });
}

export async function activeSubscriptions(db: DbOrTx, distributorId: string): Promise<SubscriptionRow[]> {
  return db.webhookSubscription.findMany({ where: { distributorId, status: "ACTIVE" }, orderBy: { id: "asc" } });
}

/** ACTIVE -> DELETED; false when the distributor has no such active subscription. */
export async function markDeleted(db: DbOrTx, distributorId: string, id: string): Promise<boolean> {
  const { count } = await db.webhookSubscription.updateMany({
    where: { id, distributorId, status: "ACTIVE" },
    data: { status: "DELETED", deletedAt: new Date() },
  });
  return count === 1;
}

/** A distributor's subscription that is not deleted; another distributor's id finds nothing. */
export async function findLiveSubscription(db: DbOrTx, distributorId: string, id: string): Promise<SubscriptionRow | null> {
  return db.webhookSubscription.findFirst({ where: { id, distributorId, status: { not: "DELETED" } } });
}

/** The same, its row locked until the transaction ends (what is counted under the lock stays true until commit). */
export async function lockLiveSubscription(tx: DbOrTx, distributorId: string, id: string): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(
    `SELECT id FROM webhook_subscriptions WHERE id = $1 AND distributor_id = $2 AND status <> 'DELETED' FOR UPDATE`,
    id,
    distributorId,
  );
  return rows.length === 1;
}

/**
 * Replaces the secret of a subscription that is not deleted. The current one becomes the previous one until
 * `previousExpiresAt` (null: it stops signing at once); an earlier previous one is dropped either way, so at
 * most two secrets sign. One statement: two rotations at once queue on the row, and the second one's previous
 * secret is the first one's new secret. False when the distributor has no such subscription.
 */
export async function rotateSecret(
  db: DbOrTx,
  input: { distributorId: string; id: string; secretEncrypted: string; previousExpiresAt: Date | null },
): Promise<boolean> {
  const count = await db.$executeRawUnsafe(
    `UPDATE webhook_subscriptions
        SET previous_secret_encrypted = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret_encrypted END,
            previous_secret_expires_at = $4::timestamptz, secret_encrypted = $3
      WHERE id = $1 AND distributor_id = $2 AND status <> 'DELETED'`,
    input.id,
    input.distributorId,
    input.secretEncrypted,
    input.previousExpiresAt,
  );
  return count === 1;
}

/** Removes replaced secrets whose overlap has ended (they already sign nothing: signing-secrets.ts). */
export async function clearExpiredPreviousSecrets(db: DbOrTx): Promise<number> {
  const { count } = await db.webhookSubscription.updateMany({
    where: { previousSecretExpiresAt: { lte: new Date() } },
    data: { previousSecretEncrypted: null, previousSecretExpiresAt: null },
  });
  return count;
}

export async function getSubscriptionById(db: DbOrTx, id: string): Promise<SubscriptionRow> {
  return db.webhookSubscription.findUniqueOrThrow({ where: { id } });
}

const TARGET = { id: true, url: true, secretEncrypted: true, previousSecretEncrypted: true, previousSecretExpiresAt: true } as const;
export type TargetRow = Prisma.WebhookSubscriptionGetPayload<{ select: typeof TARGET }>;

/** The ACTIVE ones among `ids`, with what an attempt needs: URL and encrypted secrets (signing-secrets.ts). */
export async function activeTargets(db: DbOrTx, ids: string[]): Promise<TargetRow[]> {
  return db.webhookSubscription.findMany({ where: { id: { in: ids }, status: "ACTIVE" }, select: TARGET });
}

export interface FanOutSubscription {
  id: string;
  events: string[];
  /** The delivery-job shard of the transaction that reads it: the transaction id modulo `shards`. */
  shard: number;
}

/**
 * A distributor's active subscriptions as the fan-out reads them, each with the shard of the calling
 * transaction (from its transaction id, so a transaction touches one job row and two transactions never
 * wait on each other's).
 */
export async function subscriptionsForFanOut(tx: DbOrTx, distributorId: string, shards: number): Promise<FanOutSubscription[]> {
  return tx.$queryRawUnsafe<FanOutSubscription[]>(
    `SELECT id, events, (txid_current() % $2)::int AS shard FROM webhook_subscriptions WHERE distributor_id = $1 AND status = 'ACTIVE'`,
    distributorId,
    shards,
  );
}
