import type { DbOrTx, Prisma } from "../db/client.js";

const WITH_ACCOUNTS = {
  investmentAccounts: { orderBy: { createdAt: "asc" } },
  bankAccounts: { orderBy: { createdAt: "asc" } },
} as const satisfies Prisma.InvestorInclude;

export type InvestorRow = Prisma.InvestorGetPayload<{ include: typeof WITH_ACCOUNTS }>;

export interface NewInvestor {
  investor: Omit<Prisma.InvestorUncheckedCreateInput, "investmentAccounts" | "bankAccounts">;
  investmentAccount: { id: string; holdingMode: string };
  bankAccounts: Array<{ id: string; accountType: string; accountNumberEncrypted: string; accountNumberLast4: string; ifsc: string; isPrimary: boolean }>;
}

export async function insertInvestor(tx: DbOrTx, input: NewInvestor): Promise<InvestorRow> {
  const { distributorId, id } = input.investor;
  return tx.investor.create({
    data: {
      ...input.investor,
      investmentAccounts: { create: [{ ...input.investmentAccount, distributorId }] },
      bankAccounts: { create: input.bankAccounts.map((account) => ({ ...account, distributorId })) },
    },
    include: WITH_ACCOUNTS,
  }).then((row) => row ?? Promise.reject(new Error(`investor ${id} not created`)));
}

/** One investor of one distributor; another distributor's id finds nothing. */
export async function findInvestor(db: DbOrTx, distributorId: string, id: string): Promise<InvestorRow | null> {
  return db.investor.findFirst({ where: { id, distributorId }, include: WITH_ACCOUNTS });
}

/** For jobs, which act on behalf of whichever distributor owns the investor. */
export async function findInvestorById(db: DbOrTx, id: string): Promise<InvestorRow | null> {
  return db.investor.findUnique({ where: { id }, include: WITH_ACCOUNTS });
}

export async function findInvestorIdByPanHash(db: DbOrTx, distributorId: string, panHash: string): Promise<string | null> {
  const row = await db.investor.findUnique({ where: { distributorId_panHash: { distributorId, panHash } }, select: { id: true } });
  return row?.id ?? null;
}

export async function listInvestors(
  db: DbOrTx,
  filter: { distributorId: string; status?: string; afterId?: string; limit: number },
): Promise<InvestorRow[]> {
  return db.investor.findMany({
    where: {
      distributorId: filter.distributorId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
    include: WITH_ACCOUNTS,
  });
}

export async function pendingInvestorIds(db: DbOrTx, filter: { distributorId?: string; investorId?: string }): Promise<string[]> {
  const rows = await db.investor.findMany({
    where: {
      status: "PENDING",
      ...(filter.distributorId ? { distributorId: filter.distributorId } : {}),
      ...(filter.investorId ? { id: filter.investorId } : {}),
    },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => r.id);
}

/** Moves a PENDING investor; answers false when it was no longer PENDING (the move happened already). */
export async function moveFromPending(
  tx: DbOrTx,
  id: string,
  to: { status: "REGISTERED" | "REJECTED"; providerRemark: string | null },
): Promise<boolean> {
  const { count } = await tx.investor.updateMany({ where: { id, status: "PENDING" }, data: to });
  return count === 1;
}

export async function setProviderRemark(db: DbOrTx, id: string, providerRemark: string | null): Promise<void> {
  await db.investor.updateMany({ where: { id, status: "PENDING" }, data: { providerRemark } });
}
