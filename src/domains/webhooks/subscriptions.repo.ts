import type { DbOrTx, Prisma } from "../../platform/db/client.js";

export type SubscriptionRow = Prisma.WebhookSubscriptionGetPayload<object>;

export async function insertSubscription(
  tx: DbOrTx,
  data: { id: string; distributorId: string; url: string; events: string[]; secretEncrypted: string },
): Promise<SubscriptionRow> {
  return tx.webhookSubscription.create({ data: { ...data, status: "ACTIVE" } });
}

/** The subscriptions a distributor holds: ACTIVE and DISABLED (not DELETED). */
export async function heldSubscriptions(db: DbOrTx, distributorId: string): Promise<SubscriptionRow[]> {
  return db.webhookSubscription.findMany({ where: { distributorId, status: { in: ["ACTIVE", "DISABLED"] } }, orderBy: { id: "asc" } });
}

/**
 * How many subscriptions the distributor holds, counted under a lock on its subscription list (held until the
 * transaction ends), so two creations at once cannot both pass the cap.
 */
export async function countHeldLocked(tx: DbOrTx, distributorId: string): Promise<number> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtextextended('webhook_subscriptions:' || $1, 0))`, distributorId);
  return tx.webhookSubscription.count({ where: { distributorId, status: { in: ["ACTIVE", "DISABLED"] } } });
}

/** ACTIVE | DISABLED -> DELETED; false when the distributor holds no such subscription. */
export async function markDeleted(db: DbOrTx, distributorId: string, id: string): Promise<boolean> {
  const { count } = await db.webhookSubscription.updateMany({
    where: { id, distributorId, status: { in: ["ACTIVE", "DISABLED"] } },
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

const TARGET = { id: true, status: true, url: true, secretEncrypted: true, previousSecretEncrypted: true, previousSecretExpiresAt: true } as const;
export type TargetRow = Prisma.WebhookSubscriptionGetPayload<{ select: typeof TARGET }>;

/** The ACTIVE and DISABLED ones among `ids`, with what an attempt needs: status, URL and encrypted secrets (signing-secrets.ts). */
export async function heldTargets(db: DbOrTx, ids: string[]): Promise<TargetRow[]> {
  return db.webhookSubscription.findMany({ where: { id: { in: ids }, status: { in: ["ACTIVE", "DISABLED"] } }, select: TARGET });
}

/** DISABLED -> ACTIVE with the health clock reset; false when it was not DISABLED. */
export async function markEnabled(db: DbOrTx, distributorId: string, id: string): Promise<boolean> {
  const { count } = await db.webhookSubscription.updateMany({
    where: { id, distributorId, status: "DISABLED" },
    data: { status: "ACTIVE", failingSince: null, disabledAt: null },
  });
  return count === 1;
}

/** The health clock: a success stops it (ACTIVE subscriptions only), a failure starts it unless it runs already. */
export async function updateHealthClocks(tx: DbOrTx, healthy: string[], failing: Array<{ id: string; at: Date }>): Promise<void> {
  if (healthy.length > 0) {
    await tx.webhookSubscription.updateMany({ where: { id: { in: healthy }, status: "ACTIVE", failingSince: { not: null } }, data: { failingSince: null } });
  }
  if (failing.length > 0) {
    await tx.$executeRawUnsafe(
      `UPDATE webhook_subscriptions s SET failing_since = f.at
         FROM unnest($1::text[], $2::timestamptz[]) AS f(id, at)
        WHERE s.id = f.id AND s.status = 'ACTIVE' AND s.failing_since IS NULL`,
      failing.map((f) => f.id),
      failing.map((f) => f.at),
    );
  }
}

/** ACTIVE subscriptions whose clock started before `before`, oldest first. */
export async function failingSince(db: DbOrTx, before: Date, limit: number): Promise<Array<{ id: string }>> {
  return db.webhookSubscription.findMany({
    where: { status: "ACTIVE", failingSince: { lte: before } },
    orderBy: { failingSince: "asc" },
    take: limit,
    select: { id: true },
  });
}

/** ACTIVE -> DISABLED if its clock still started before `before`; the row as disabled, or null. */
export async function markDisabled(tx: DbOrTx, id: string, before: Date): Promise<SubscriptionRow | null> {
  const { count } = await tx.webhookSubscription.updateMany({
    where: { id, status: "ACTIVE", failingSince: { lte: before } },
    data: { status: "DISABLED", disabledAt: new Date() },
  });
  return count === 1 ? tx.webhookSubscription.findUniqueOrThrow({ where: { id } }) : null;
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
