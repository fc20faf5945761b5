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

export async function getSubscriptionById(db: DbOrTx, id: string): Promise<SubscriptionRow> {
  return db.webhookSubscription.findUniqueOrThrow({ where: { id } });
}

/** The ACTIVE ones among `ids`, with what an attempt needs: URL and encrypted secret. */
export async function activeTargets(db: DbOrTx, ids: string[]): Promise<Array<{ id: string; url: string; secretEncrypted: string }>> {
  return db.webhookSubscription.findMany({ where: { id: { in: ids }, status: "ACTIVE" }, select: { id: true, url: true, secretEncrypted: true } });
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
