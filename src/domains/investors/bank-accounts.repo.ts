import type { DbOrTx } from "../../platform/db/client.js";

/** A bank account to insert (its number encrypted, its last 4 digits in clear). */
export interface NewBankAccount {
  id: string;
  accountType: string;
  accountNumberEncrypted: string;
  accountNumberLast4: string;
  ifsc: string;
  isPrimary: boolean;
}

/** Adds a bank account to an investor; a primary one takes the place of the investor's other primary. */
export async function insertBankAccount(tx: DbOrTx, distributorId: string, investorId: string, account: NewBankAccount): Promise<void> {
  if (account.isPrimary) await tx.bankAccount.updateMany({ where: { investorId }, data: { isPrimary: false } });
  await tx.bankAccount.create({ data: { ...account, distributorId, investorId } });
}

/**
 * Removes an investor's bank account softly: `removed_at` is set and it stops being primary, the row stays
 * for the orders, payments and mandates that name it. When it was the primary, the oldest account left
 * becomes the primary. False when it is gone already.
 */
export async function markRemoved(tx: DbOrTx, investorId: string, bankAccountId: string): Promise<boolean> {
  const account = await tx.bankAccount.findFirst({ where: { id: bankAccountId, investorId, removedAt: null }, select: { isPrimary: true } });
  if (!account) return false;
  await tx.bankAccount.update({ where: { id: bankAccountId }, data: { removedAt: new Date(), isPrimary: false } });
  if (account.isPrimary) {
    const oldest = await tx.bankAccount.findFirst({ where: { investorId, removedAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    if (oldest) await tx.bankAccount.update({ where: { id: oldest.id }, data: { isPrimary: true } });
  }
  return true;
}

/** Names the investor change that asks for the account's removal: the removal is pending while that change is PENDING. */
export async function markRemovalRequested(tx: DbOrTx, bankAccountId: string, changeId: string): Promise<void> {
  await tx.bankAccount.update({ where: { id: bankAccountId }, data: { removalChangeId: changeId } });
}

/** Whether a removal the exchange has not yet decided names the investor's (live) bank account. */
export async function isBeingRemoved(db: DbOrTx, investorId: string, bankAccountId: string): Promise<boolean> {
  const account = await db.bankAccount.findFirst({ where: { id: bankAccountId, investorId, removedAt: null }, select: { removalChangeId: true } });
  if (!account?.removalChangeId) return false;
  return (await db.investorChange.count({ where: { id: account.removalChangeId, status: "PENDING" } })) > 0;
}

/** Makes the account the investor's only primary one. */
export async function setPrimary(tx: DbOrTx, investorId: string, bankAccountId: string): Promise<void> {
  await tx.bankAccount.updateMany({ where: { investorId, id: { not: bankAccountId } }, data: { isPrimary: false } });
  await tx.bankAccount.updateMany({ where: { investorId, id: bankAccountId, removedAt: null }, data: { isPrimary: true } });
}

/** What still names a bank account: its mandates not yet finished (PENDING or REGISTERED) and its orders the exchange may still act on. */
export async function bankAccountUses(db: DbOrTx, bankAccountId: string): Promise<{ mandates: number; liveOrders: number }> {
  const mandates = await db.mandate.count({ where: { bankAccountId, status: { in: ["PENDING", "REGISTERED"] } } });
  const liveOrders = await db.order.count({ where: { bankAccountId, status: { in: ["PENDING", "ACCEPTED"] } } });
  return { mandates, liveOrders };
}
