import type { DbOrTx } from "../db/client.js";

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
