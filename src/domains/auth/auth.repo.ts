import type { DbOrTx, Tx } from "../../platform/db/client.js";

export interface ClientRecord {
  id: string;
  distributorId: string;
  secretHash: string;
}

export async function findActiveClient(db: DbOrTx, clientId: string): Promise<ClientRecord | null> {
  return db.apiClient.findFirst({
    where: { clientId, revokedAt: null },
    select: { id: true, distributorId: true, secretHash: true },
  });
}

export async function insertToken(
  db: DbOrTx,
  token: { tokenHash: string; apiClientId: string; distributorId: string; expiresAt: Date },
): Promise<void> {
  await db.accessToken.create({ data: token });
}

export async function findLiveToken(db: DbOrTx, tokenHash: string, now: Date) {
  return db.accessToken.findFirst({
    where: { tokenHash, expiresAt: { gt: now }, apiClient: { revokedAt: null } },
    select: { distributorId: true, expiresAt: true, apiClient: { select: { clientId: true } } },
  });
}

export async function deleteExpiredTokens(db: DbOrTx, before: Date): Promise<number> {
  const { count } = await db.accessToken.deleteMany({ where: { expiresAt: { lte: before } } });
  return count;
}

export async function insertDistributorWithClient(
  db: DbOrTx,
  input: { distributorId: string; name: string; arn: string; apiClientId: string; clientId: string; secretHash: string },
): Promise<void> {
  await db.distributor.create({
    data: {
      id: input.distributorId,
      name: input.name,
      arn: input.arn,
      apiClients: { create: { id: input.apiClientId, clientId: input.clientId, secretHash: input.secretHash, name: "default" } },
    },
  });
}

export async function findDistributorByArn(db: DbOrTx, arn: string) {
  return db.distributor.findUnique({ where: { arn }, select: { id: true, name: true, arn: true } });
}

export async function upsertClientCredentials(
  db: DbOrTx,
  input: { apiClientId: string; distributorId: string; clientId: string; secretHash: string },
): Promise<void> {
  await db.apiClient.upsert({
    where: { clientId: input.clientId },
    create: { id: input.apiClientId, distributorId: input.distributorId, clientId: input.clientId, secretHash: input.secretHash, name: "sandbox" },
    update: { distributorId: input.distributorId, secretHash: input.secretHash, revokedAt: null },
  });
}

/** Lock classes of the token failure counters: client ids and addresses never share a key. */
const CLIENT_FAILURES_LOCK = 7206101;
const ADDRESS_FAILURES_LOCK = 7206102;

/** Serialises token requests of one client id and one address across processes, until the transaction ends. */
export async function lockTokenFailureKeys(tx: Tx, keys: { clientKey: string; ipKey: string }): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CLIENT_FAILURES_LOCK}::int, hashtext(${keys.clientKey})),
                              pg_advisory_xact_lock(${ADDRESS_FAILURES_LOCK}::int, hashtext(${keys.ipKey}))`;
}

/**
 * The failures that block, for the client id and for the address: the `limit`-th newest since
 * `since`, or null where fewer than `limit` failures fall in the window.
 */
export async function blockingTokenFailures(
  tx: Tx,
  input: { clientKey: string; ipKey: string; since: Date; limit: number },
): Promise<{ client: Date | null; address: Date | null }> {
  const offset = input.limit - 1;
  const [row] = await tx.$queryRaw<Array<{ client: Date | null; address: Date | null }>>`
    SELECT
      (SELECT failed_at FROM token_failures WHERE client_key = ${input.clientKey} AND failed_at > ${input.since}
        ORDER BY failed_at DESC OFFSET ${offset} LIMIT 1) AS client,
      (SELECT failed_at FROM token_failures WHERE ip_key = ${input.ipKey} AND failed_at > ${input.since}
        ORDER BY failed_at DESC OFFSET ${offset} LIMIT 1) AS address`;
  return { client: row?.client ?? null, address: row?.address ?? null };
}

export async function insertTokenFailure(tx: Tx, failure: { clientKey: string; ipKey: string; failedAt: Date }): Promise<void> {
  await tx.tokenFailure.create({ data: failure });
}

export async function deleteTokenFailures(db: DbOrTx, before: Date): Promise<number> {
  const { count } = await db.tokenFailure.deleteMany({ where: { failedAt: { lt: before } } });
  return count;
}

/** Every distributor's ARN by its id. */
export async function distributorArns(db: DbOrTx): Promise<Map<string, string>> {
  return new Map((await db.distributor.findMany({ select: { id: true, arn: true } })).map((d) => [d.id, d.arn]));
}

/** A distributor's name and ARN (an order link's page shows them to the investor). */
export async function findDistributor(db: DbOrTx, id: string): Promise<{ name: string; arn: string } | null> {
  return db.distributor.findUnique({ where: { id }, select: { name: true, arn: true } });
}
