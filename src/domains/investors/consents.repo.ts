import type { DbOrTx, Prisma, Tx } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { CONSENT_LINK_STATUSES, type ConsentLinkStatus } from "./consent.states.js";

type StoredConsent = Prisma.ConsentLinkGetPayload<object>;
export type ConsentRow = Omit<StoredConsent, "status"> & { status: ConsentLinkStatus };

const toRow = (row: StoredConsent): ConsentRow => ({ ...row, status: narrowTo(CONSENT_LINK_STATUSES, row.status, "consent_links.status") });

export async function insertConsent(
  tx: DbOrTx,
  consent: { id: string; distributorId: string; investorId: string; createdAt: Date; expiresAt: Date },
): Promise<ConsentRow> {
  return toRow(await tx.consentLink.create({ data: { ...consent, status: "PENDING" } }));
}

/** One consent link of one investor of one distributor; anything else finds nothing. */
export async function findConsent(db: DbOrTx, distributorId: string, investorId: string, id: string): Promise<ConsentRow | null> {
  const row = await db.consentLink.findFirst({ where: { id, distributorId, investorId } });
  return row && toRow(row);
}

/** A consent link by its id alone: the hosted page, where the id is the capability. */
export async function findConsentById(db: DbOrTx, id: string): Promise<ConsentRow | null> {
  const row = await db.consentLink.findUnique({ where: { id } });
  return row && toRow(row);
}

/** Reads a consent link and locks its row until the transaction ends: two confirmations run one after the other. */
export async function lockConsent(tx: Tx, id: string): Promise<ConsentRow | null> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM consent_links WHERE id = ${id} FOR UPDATE`;
  if (locked.length === 0) return null;
  return toRow(await tx.consentLink.findUniqueOrThrow({ where: { id } }));
}

/** PENDING -> CONFIRMED with the evidence; false when the link was not PENDING. */
export async function confirmPending(
  tx: DbOrTx,
  id: string,
  evidence: { confirmedAt: Date; confirmIp: string; confirmUserAgent: string | null; declarationVersion: string },
): Promise<boolean> {
  const { count } = await tx.consentLink.updateMany({ where: { id, status: "PENDING" }, data: { status: "CONFIRMED", ...evidence } });
  return count === 1;
}

/** PENDING -> EXPIRED once past `expires_at` (a page read moves it). */
export async function expireDue(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db.consentLink.updateMany({ where: { id, status: "PENDING", expiresAt: { lte: now } }, data: { status: "EXPIRED" } });
}

/** The investor's nomination is the opt-out this consent confirmed (the exchange has it, or the investor is not registered yet). */
export async function setOptedOut(tx: DbOrTx, investorId: string, consent: { id: string; confirmedAt: Date }): Promise<void> {
  await tx.investor.update({
    where: { id: investorId },
    data: { nominationStatus: "OPTED_OUT", nominationOptedOutAt: consent.confirmedAt, nominationConsentId: consent.id },
  });
}

/** A page of investors whose nomination_status is not yet derived (NULL; by id, over a partial index), for nomination-backfill.ts. */
export async function investorsWithoutNomination(db: DbOrTx, limit: number): Promise<Array<{ id: string; detailsEncrypted: string }>> {
  return db.investor.findMany({
    where: { nominationStatus: null },
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true, detailsEncrypted: true },
  });
}

/** Sets the derived status of investors still at NULL (a row that moved meanwhile keeps its own). */
export async function markNomination(db: DbOrTx, ids: string[], status: "NOMINATED" | "NONE"): Promise<number> {
  if (ids.length === 0) return 0;
  const { count } = await db.investor.updateMany({ where: { id: { in: ids }, nominationStatus: null }, data: { nominationStatus: status } });
  return count;
}
