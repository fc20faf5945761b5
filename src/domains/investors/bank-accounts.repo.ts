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
 * Removes an investor's bank account unless a mandate names it (false then, or when it is gone already);
 * when it was the primary, the oldest account left becomes the primary.
 */
export async function deleteBankAccount(tx: DbOrTx, investorId: string, bankAccountId: string): Promise<boolean> {
  const account = await tx.bankAccount.findFirst({ where: { id: bankAccountId, investorId }, select: { isPrimary: true } });
  if (!account) return false;
  const { count } = await tx.bankAccount.deleteMany({ where: { id: bankAccountId, investorId, mandates: { none: {} } } });
  if (count === 0) return false;
  if (account.isPrimary) {
    const oldest = await tx.bankAccount.findFirst({ where: { investorId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    if (oldest) await tx.bankAccount.update({ where: { id: oldest.id }, data: { isPrimary: true } });
  }
  return true;
}

/** What still names a bank account: its mandates (any status) and its orders the exchange may still act on. */
export async function bankAccountUses(db: DbOrTx, bankAccountId: string): Promise<{ mandates: number; liveOrders: number }> {
  const mandates = await db.mandate.count({ where: { bankAccountId } });
  const liveOrders = await db.order.count({ where: { bankAccountId, status: { in: ["PENDING", "ACCEPTED"] } } });
  return { mandates, liveOrders };
}
