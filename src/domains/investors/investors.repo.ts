import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import {
  BANK_ACCOUNT_TYPES,
  HOLDING_MODES,
  HOLDING_TYPES,
  INVESTOR_STATUSES,
  TAX_STATUSES,
  type BankAccountType,
  type HoldingMode,
  type HoldingType,
  type InvestorStatus,
  type TaxStatus,
} from "./investor.states.js";

const WITH_ACCOUNTS = {
  investmentAccounts: { orderBy: { createdAt: "asc" } },
  bankAccounts: { where: { removedAt: null }, orderBy: { createdAt: "asc" } },
} as const satisfies Prisma.InvestorInclude;
// The opt-out's consent link is read after, not included: Prisma's interpreter sends a third relation's query
// while another runs on the same connection inside a transaction (prisma/orm#29979), which pg 9 refuses
// (test/db/concurrent-queries.test.ts).

type ConsentLink = Prisma.ConsentLinkGetPayload<object>;
type StoredInvestor = Prisma.InvestorGetPayload<{ include: typeof WITH_ACCOUNTS }>;
type InvestmentAccountRow = Omit<StoredInvestor["investmentAccounts"][number], "holdingMode"> & { holdingMode: HoldingMode };
type BankAccountRow = Omit<StoredInvestor["bankAccounts"][number], "accountType"> & { accountType: BankAccountType };

/** An investor as stored with its accounts, its closed-set columns narrowed to their sets. */
export type InvestorRow = Omit<StoredInvestor, "status" | "taxStatus" | "holdingType" | "investmentAccounts" | "bankAccounts"> & {
  /** The confirmed opt-out's link (its evidence), when the investor has one. */
  nominationConsent: ConsentLink | null;
  status: InvestorStatus;
  taxStatus: TaxStatus;
  holdingType: HoldingType;
  investmentAccounts: InvestmentAccountRow[];
  bankAccounts: BankAccountRow[];
};

const investorStatus = (status: string): InvestorStatus => narrowTo(INVESTOR_STATUSES, status, "investors.status");
const holdingType = (type: string): HoldingType => narrowTo(HOLDING_TYPES, type, "investors.holding_type");
const holdingMode = (mode: string): HoldingMode => narrowTo(HOLDING_MODES, mode, "investment_accounts.holding_mode");

function toRow(row: StoredInvestor, consents: ConsentLink[] = []): InvestorRow {
  return {
    ...row,
    nominationConsent: consents.find((c) => c.id === row.nominationConsentId) ?? null,
    status: investorStatus(row.status),
    taxStatus: narrowTo(TAX_STATUSES, row.taxStatus, "investors.tax_status"),
    holdingType: holdingType(row.holdingType),
    investmentAccounts: row.investmentAccounts.map((a) => ({ ...a, holdingMode: holdingMode(a.holdingMode) })),
    bankAccounts: row.bankAccounts.map((b) => ({ ...b, accountType: narrowTo(BANK_ACCOUNT_TYPES, b.accountType, "bank_accounts.account_type") })),
  };
}

/** The consent links the investors' opt-outs name (no query when none does). */
async function consentsOf(db: DbOrTx, rows: Array<{ nominationConsentId: string | null }>): Promise<ConsentLink[]> {
  const ids = rows.map((r) => r.nominationConsentId).filter((id): id is string => id !== null);
  return ids.length === 0 ? [] : db.consentLink.findMany({ where: { id: { in: ids } } });
}

function withStatus<T extends { status: string }>(row: T): Omit<T, "status"> & { status: InvestorStatus } {
  return { ...row, status: investorStatus(row.status) };
}

export interface NewInvestor {
  investor: {
    id: string;
    distributorId: string;
    status: InvestorStatus;
    panHash: string;
    detailsEncrypted: string;
    /** NOMINATED when the details name nominees, else NONE. */
    nominationStatus: "NOMINATED" | "NONE";
    taxStatus: TaxStatus;
    holdingType: HoldingType;
    clientRef: string | null;
    uccCode: string;
  };
  investmentAccount: { id: string; holdingMode: HoldingMode };
  bankAccounts: Array<{ id: string; accountType: BankAccountType; accountNumberEncrypted: string; accountNumberLast4: string; ifsc: string; isPrimary: boolean }>;
}

/**
 * Inserts the investor, its investment account and its bank accounts in one statement (this is the
 * hot path of onboarding: one round trip instead of six), and returns the row as inserted.
 * Answers null, inserting nothing, when the distributor already holds the PAN: the (distributor_id,
 * pan_hash) key decides, and a concurrent insert of the same PAN is waited for. The transaction stays
 * usable, so the caller can read the existing investor through it.
 */
export async function insertInvestor(tx: DbOrTx, input: NewInvestor): Promise<InvestorRow | null> {
  const investor = input.investor;
  const now = new Date();
  const banks = input.bankAccounts;
  const inserted = await tx.$queryRawUnsafe<Array<{ id: string }>>(
    `WITH investor AS (
       INSERT INTO investors (id, distributor_id, status, pan_hash, details_encrypted, tax_status, holding_type,
                              client_ref, ucc_code, created_at, updated_at, nomination_status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $19)
       ON CONFLICT (distributor_id, pan_hash) DO NOTHING
       RETURNING id
     ), account AS (
       INSERT INTO investment_accounts (id, distributor_id, investor_id, holding_mode, created_at)
       SELECT $11, $2, investor.id, $12, $10 FROM investor
     ), banks AS (
       INSERT INTO bank_accounts (id, distributor_id, investor_id, account_type, account_number_encrypted,
                                  account_number_last4, ifsc, is_primary, created_at)
       SELECT b.id, $2, investor.id, b.account_type, b.encrypted, b.last4, b.ifsc, b.is_primary, $10
         FROM investor, unnest($13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::boolean[])
           AS b(id, account_type, encrypted, last4, ifsc, is_primary)
     )
     SELECT id FROM investor`,
    investor.id, investor.distributorId, investor.status, investor.panHash, investor.detailsEncrypted,
    investor.taxStatus, investor.holdingType, investor.clientRef ?? null, investor.uccCode, now,
    input.investmentAccount.id, input.investmentAccount.holdingMode,
    banks.map((b) => b.id), banks.map((b) => b.accountType), banks.map((b) => b.accountNumberEncrypted),
    banks.map((b) => b.accountNumberLast4), banks.map((b) => b.ifsc), banks.map((b) => b.isPrimary),
    investor.nominationStatus,
  );
  if (inserted.length === 0) return null;
  const owned = { distributorId: investor.distributorId, investorId: investor.id, createdAt: now };
  return {
    id: investor.id,
    distributorId: investor.distributorId,
    status: investor.status,
    panHash: investor.panHash,
    detailsEncrypted: investor.detailsEncrypted,
    taxStatus: investor.taxStatus,
    holdingType: investor.holdingType,
    clientRef: investor.clientRef ?? null,
    uccCode: investor.uccCode,
    providerRemark: null,
    nominationStatus: investor.nominationStatus,
    nominationOptedOutAt: null,
    nominationConsentId: null,
    nominationConsent: null,
    createdAt: now,
    updatedAt: now,
    investmentAccounts: [{ ...owned, id: input.investmentAccount.id, holdingMode: input.investmentAccount.holdingMode }],
    bankAccounts: banks.map((b) => ({ ...owned, ...b, removedAt: null, removalChangeId: null })),
  };
}

/** One investor of one distributor; another distributor's id finds nothing. */
export async function findInvestor(db: DbOrTx, distributorId: string, id: string): Promise<InvestorRow | null> {
  const row = await db.investor.findFirst({ where: { id, distributorId }, include: WITH_ACCOUNTS });
  return row && toRow(row, await consentsOf(db, [row]));
}

/** For jobs, which act on behalf of whichever distributor owns the investor. */
export async function findInvestorById(db: DbOrTx, id: string): Promise<InvestorRow | null> {
  const row = await db.investor.findUnique({ where: { id }, include: WITH_ACCOUNTS });
  return row && toRow(row, await consentsOf(db, [row]));
}

export async function findInvestorIdByPanHash(db: DbOrTx, distributorId: string, panHash: string): Promise<string | null> {
  const row = await db.investor.findUnique({ where: { distributorId_panHash: { distributorId, panHash } }, select: { id: true } });
  return row?.id ?? null;
}

export async function listInvestors(
  db: DbOrTx,
  filter: { distributorId: string; status?: InvestorStatus; afterId?: string; limit: number },
): Promise<InvestorRow[]> {
  const rows = await db.investor.findMany({
    where: {
      // Without status, the distributor as a closed range and the order by (distributor_id, id), as the order list
      // does (listOrders in src/domains/orders/orders-list.repo.ts): investors_distributor_id_id_idx, never
      // investors_pkey walked back past other distributors' newer investors.
      distributorId: filter.status ? filter.distributorId : { gte: filter.distributorId, lte: filter.distributorId },
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    orderBy: filter.status ? { id: "desc" } : [{ distributorId: "desc" }, { id: "desc" }],
    take: filter.limit + 1,
    include: WITH_ACCOUNTS,
  });
  const consents = await consentsOf(db, rows);
  return rows.map((row) => toRow(row, consents));
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
  const { count } = await tx.investor.updateMany({ where: { id, status: "PENDING" }, data: { status: to.status, providerRemark: maskFreeText(to.providerRemark) } });
  return count === 1;
}

/** The exchange's remark on a registration still PENDING; like every stored remark, with PANs masked. */
export async function setProviderRemark(db: DbOrTx, id: string, providerRemark: string | null): Promise<void> {
  await db.investor.updateMany({ where: { id, status: "PENDING" }, data: { providerRemark: maskFreeText(providerRemark) } });
}

/** The investor's client code at the exchange (UCC), for jobs that talk to the exchange about its orders and payments. */
export async function getUccCode(db: DbOrTx, id: string): Promise<string> {
  const { uccCode } = await db.investor.findUniqueOrThrow({ where: { id }, select: { uccCode: true } });
  return uccCode;
}

/** The UCC codes of several investors, by id (a batch of dispatched orders). */
export async function uccCodesOf(db: DbOrTx, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.investor.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, uccCode: true } });
  return new Map(rows.map((r) => [r.id, r.uccCode]));
}

/**
 * The account a payout goes to: the one named (when it is the investor's and not removed), otherwise the investor's
 * primary account; its number encrypted. Null when there is none.
 */
export async function findPayoutAccount(db: DbOrTx, investorId: string, bankAccountId: string | null): Promise<{ accountNumberEncrypted: string } | null> {
  return db.bankAccount.findFirst({
    where: { investorId, removedAt: null, ...(bankAccountId ? { id: bankAccountId } : { isPrimary: true }) },
    select: { accountNumberEncrypted: true },
  });
}

/** The encrypted details and holding type of the investors named. */
export async function investorDetails(db: DbOrTx, ids: string[]) {
  const rows = await db.investor.findMany({ where: { id: { in: ids } }, select: { id: true, detailsEncrypted: true, holdingType: true } });
  return rows.map((row) => ({ ...row, holdingType: holdingType(row.holdingType) }));
}

/** Who owns an investor and where its registration stands. */
export async function getInvestorState(db: DbOrTx, id: string): Promise<{ distributorId: string; status: InvestorStatus }> {
  return withStatus(await db.investor.findUniqueOrThrow({ where: { id }, select: { distributorId: true, status: true } }));
}
