import type { DbOrTx, Prisma } from "../db/client.js";
import { maskFreeText } from "../lib/mask.js";

const WITH_BANK = { bankAccount: { select: { accountNumberLast4: true, ifsc: true, accountType: true, accountNumberEncrypted: true } } } as const;

export type MandateRow = Prisma.MandateGetPayload<{ include: typeof WITH_BANK }>;

export async function insertMandate(tx: DbOrTx, data: Prisma.MandateUncheckedCreateInput): Promise<MandateRow> {
  return tx.mandate.create({ data, include: WITH_BANK });
}

export async function findMandate(db: DbOrTx, distributorId: string, id: string): Promise<MandateRow | null> {
  return db.mandate.findFirst({ where: { id, distributorId }, include: WITH_BANK });
}

export async function findMandateById(db: DbOrTx, id: string) {
  return db.mandate.findUnique({ where: { id }, include: { ...WITH_BANK, investor: { select: { uccCode: true } } } });
}

export async function pendingMandateIds(db: DbOrTx): Promise<string[]> {
  const rows = await db.mandate.findMany({ where: { status: "PENDING" }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((r) => r.id);
}

/** A conditional move: false when the mandate was not in `from` any more. */
export async function moveMandate(
  tx: DbOrTx,
  id: string,
  from: string,
  to: { status: string; providerRemark?: string | null; exchangeMandateId?: string | null },
): Promise<boolean> {
  const { count } = await tx.mandate.updateMany({ where: { id, status: from }, data: { ...to, providerRemark: maskFreeText(to.providerRemark) } });
  return count === 1;
}

export async function noteExchangeAnswer(db: DbOrTx, id: string, data: { providerRemark: string | null; exchangeMandateId?: string | null }) {
  await db.mandate.updateMany({ where: { id, status: "PENDING" }, data: { ...data, providerRemark: maskFreeText(data.providerRemark) } });
}

/** Who owns a mandate and where its registration stands. */
export async function getMandateState(db: DbOrTx, id: string): Promise<{ distributorId: string; status: string }> {
  return db.mandate.findUniqueOrThrow({ where: { id }, select: { distributorId: true, status: true } });
}
