import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import { MANDATE_STATUSES, MANDATE_TYPES, type MandateStatus, type MandateType } from "./mandate.states.js";

const WITH_BANK = { bankAccount: { select: { accountNumberLast4: true, ifsc: true, accountType: true, accountNumberEncrypted: true } } } as const;

type Narrowed<T> = Omit<T, "status" | "mandateType"> & { status: MandateStatus; mandateType: MandateType };

export type MandateRow = Narrowed<Prisma.MandateGetPayload<{ include: typeof WITH_BANK }>>;

function toRow<T extends { status: string; mandateType: string }>(row: T): Narrowed<T> {
  return {
    ...row,
    status: narrowTo(MANDATE_STATUSES, row.status, "mandates.status"),
    mandateType: narrowTo(MANDATE_TYPES, row.mandateType, "mandates.mandate_type"),
  };
}

export async function insertMandate(
  tx: DbOrTx,
  data: Prisma.MandateUncheckedCreateInput & { status: MandateStatus; mandateType: MandateType },
): Promise<MandateRow> {
  return toRow(await tx.mandate.create({ data, include: WITH_BANK }));
}

export async function findMandate(db: DbOrTx, distributorId: string, id: string): Promise<MandateRow | null> {
  const row = await db.mandate.findFirst({ where: { id, distributorId }, include: WITH_BANK });
  return row && toRow(row);
}

export async function findMandateById(db: DbOrTx, id: string) {
  const row = await db.mandate.findUnique({ where: { id }, include: { ...WITH_BANK, investor: { select: { uccCode: true } } } });
  return row && toRow(row);
}

export async function pendingMandateIds(db: DbOrTx): Promise<string[]> {
  const rows = await db.mandate.findMany({ where: { status: "PENDING" }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((r) => r.id);
}

/** A conditional move: false when the mandate was not in `from` any more. */
export async function moveMandate(
  tx: DbOrTx,
  id: string,
  from: MandateStatus,
  to: { status: MandateStatus; providerRemark?: string | null; exchangeMandateId?: string | null },
): Promise<boolean> {
  // A mandate leaving PENDING has nothing left to authorise: its e-NACH URL goes.
  const { count } = await tx.mandate.updateMany({ where: { id, status: from }, data: { ...to, providerRemark: maskFreeText(to.providerRemark), authUrl: null } });
  return count === 1;
}

/** The e-NACH authentication URL of a PENDING mandate (a mandate decided meanwhile keeps none). */
export async function noteAuthUrl(db: DbOrTx, id: string, authUrl: string): Promise<void> {
  await db.mandate.updateMany({ where: { id, status: "PENDING" }, data: { authUrl } });
}

export async function noteExchangeAnswer(db: DbOrTx, id: string, data: { providerRemark: string | null; exchangeMandateId?: string | null }) {
  await db.mandate.updateMany({ where: { id, status: "PENDING" }, data: { ...data, providerRemark: maskFreeText(data.providerRemark) } });
}

/** The exchange's answer to a cancellation, on a CANCELLED mandate (PANs masked). */
export async function noteCancellationRemark(db: DbOrTx, id: string, remark: string) {
  await db.mandate.updateMany({ where: { id, status: "CANCELLED" }, data: { providerRemark: maskFreeText(remark) } });
}

/** Who owns a mandate and where its registration stands. */
export async function getMandateState(db: DbOrTx, id: string): Promise<{ distributorId: string; status: MandateStatus }> {
  const row = await db.mandate.findUniqueOrThrow({ where: { id }, select: { distributorId: true, status: true } });
  return { distributorId: row.distributorId, status: narrowTo(MANDATE_STATUSES, row.status, "mandates.status") };
}

/** The investor's REGISTERED mandates (oldest first), with their bank account. */
export async function registeredMandatesOf(db: DbOrTx, distributorId: string, investorId: string): Promise<MandateRow[]> {
  const rows = await db.mandate.findMany({ where: { distributorId, investorId, status: "REGISTERED" }, include: WITH_BANK, orderBy: { createdAt: "asc" } });
  return rows.map(toRow);
}

/** One page of the distributor's mandates, newest first (`limit + 1` rows: the extra one says a next page exists). */
export async function listMandates(
  db: DbOrTx,
  filter: { distributorId: string; status?: MandateStatus; investorId?: string; afterId?: string; limit: number },
): Promise<MandateRow[]> {
  const rows = await db.mandate.findMany({
    where: {
      distributorId: filter.distributorId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.investorId ? { investorId: filter.investorId } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    include: WITH_BANK,
    orderBy: { id: "desc" },
    take: filter.limit + 1,
  });
  return rows.map(toRow);
}
