import type { Db, DbOrTx } from "../../platform/db/client.js";
import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { notFound } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { latestChange } from "./changes.repo.js";
import * as repo from "./investors.repo.js";
import { StoredInvestorDetails, type CreateInvestorInput, type InvestorDetails } from "./investors.schemas.js";
import type { InvestorStatus } from "./investor.states.js";
import { duplicatePan } from "./rules.js";
import { toInvestorSummary, toInvestorView, type InvestorSummary, type InvestorView } from "./views.js";

const SCOPE_CREATE = "POST /api/investors/v1";

/** The personal details kept encrypted, parsed by their schema. */
export function decryptDetails(cipher: DataCipher, row: { detailsEncrypted: string }): InvestorDetails {
  return StoredInvestorDetails.parse(JSON.parse(cipher.decrypt(row.detailsEncrypted)));
}

/**
 * Creates the investor (PENDING), its investment account and bank accounts in one transaction, with
 * the job that registers it with the exchange. The same PAN twice under one distributor is a conflict.
 */
export async function createInvestor(
  services: Services,
  caller: Caller,
  input: CreateInvestorInput,
  idempotencyKey: string | undefined,
): Promise<Stored<InvestorView>> {
  const { cipher } = services;
  const panHash = cipher.lookupHash(input.primary_holder.pan);
  return idempotent(services.prisma, { distributorId: caller.distributorId, scope: SCOPE_CREATE, key: idempotencyKey, body: input }, async (tx) => {
    const id = newId("inv");
    const details: InvestorDetails = {
      primary_holder: input.primary_holder,
      joint_holders: input.joint_holders ?? [],
      guardian: input.guardian ?? null,
      contact: input.contact,
      address: input.address,
      fatca: input.fatca,
      nominees: input.nominees ?? [],
      demat: input.demat ?? { mode: "PHYSICAL" },
    };
    const row = await repo.insertInvestor(tx, {
      investor: {
        id,
        distributorId: caller.distributorId,
        status: "PENDING",
        panHash,
        detailsEncrypted: cipher.encrypt(JSON.stringify(details)),
        nominationStatus: details.nominees.length > 0 ? "NOMINATED" : "NONE",
        taxStatus: input.tax_status,
        holdingType: input.holding_type,
        clientRef: input.client_ref ?? null,
        uccCode: uccCodeFor(id),
      },
      investmentAccount: { id: newId("iac"), holdingMode: details.demat.mode },
      bankAccounts: input.bank_accounts.map((account) => ({
        id: newId("bnk"),
        accountType: account.account_type,
        accountNumberEncrypted: cipher.encrypt(account.account_number),
        accountNumberLast4: account.account_number.slice(-4),
        ifsc: account.ifsc,
        isPrimary: account.is_primary,
      })),
    });
    if (!row) {
      // The distributor already holds this PAN; a concurrent creation of it has been waited for.
      const existingId = await repo.findInvestorIdByPanHash(tx, caller.distributorId, panHash);
      if (!existingId) throw new Error(`Investor ${id} was not inserted and no investor holds its PAN`);
      throw duplicatePan(existingId);
    }
    await enqueue(tx, "investors__register", { investor_id: id }, { jobKey: `investors__register:${id}` });
    return { status: 201, body: toInvestorView(row, details) };
  });
}

/** The exchange client code: MF and 8 characters of the id's random part (10 in all), unique by constraint. */
function uccCodeFor(investorId: string): string {
  return `MF${investorId.slice(-8).toUpperCase()}`;
}

export async function getInvestor(services: Services, caller: Caller, id: string): Promise<InvestorView> {
  const row = await repo.findInvestor(services.prisma, caller.distributorId, id);
  if (!row) throw notFound("Investor");
  return toInvestorView(row, decryptDetails(services.cipher, row), await latestChange(services.prisma, id));
}

export async function listInvestors(
  services: Services,
  caller: Caller,
  query: { status?: InvestorStatus; limit: number; cursor?: string },
): Promise<{ data: InvestorSummary[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const rows = await repo.listInvestors(services.prisma, { distributorId: caller.distributorId, status: query.status, afterId, limit: query.limit });
  return toPage(rows, query.limit, (row) => [row.id], (row) => toInvestorSummary(row, decryptDetails(services.cipher, row)));
}

/**
 * Queues a status check with the exchange for the caller's PENDING investors (or one of them). The
 * checks run as jobs, as every call to the exchange does; each applies its answer when it arrives.
 */
export async function syncInvestors(services: Services, caller: Caller, investorId: string | undefined) {
  if (investorId && !(await repo.findInvestor(services.prisma, caller.distributorId, investorId))) {
    throw notFound("Investor");
  }
  const ids = await repo.pendingInvestorIds(services.prisma, { distributorId: caller.distributorId, investorId });
  await queueStatusChecks(services.prisma, ids);
  return { pending: ids.length, queued: ids.length };
}

export async function queueStatusChecks(db: Db, investorIds: string[]): Promise<void> {
  if (investorIds.length === 0) return;
  await db.$transaction(async (tx) => {
    for (const id of investorIds) {
      await enqueue(tx, "investors__check_status", { investor_id: id }, { jobKey: `investors__check_status:${id}` });
    }
  });
}

/** The investor's primary bank account number, decrypted, for calls to the exchange. */
export function decryptAccountNumber(cipher: DataCipher, account: { accountNumberEncrypted: string }): string {
  return cipher.decrypt(account.accountNumberEncrypted);
}

/** One investor of one distributor, with its accounts (null for another distributor's): for mandates. */
export async function findInvestorOf(db: DbOrTx, distributorId: string, id: string) {
  return repo.findInvestor(db, distributorId, id);
}

/** The investor's bank accounts (none for an unknown id): what a payment may come from. */
export async function bankAccountsOf(db: DbOrTx, investorId: string) {
  return (await repo.findInvestorById(db, investorId))?.bankAccounts ?? [];
}

/** The primary holder's name and PAN, in clear (null for an unknown id): for a view that masks them. */
export async function primaryHolderOf(db: DbOrTx, cipher: DataCipher, investorId: string): Promise<{ name: string; pan: string } | null> {
  const investor = await repo.findInvestorById(db, investorId);
  return investor ? decryptDetails(cipher, investor).primary_holder : null;
}

/** The investor's client code at the exchange (UCC). */
export async function uccCodeOf(db: DbOrTx, investorId: string): Promise<string> {
  return repo.getUccCode(db, investorId);
}

// Read by other domains (they never import this domain's repo).

/** An investor by id, any distributor's (null for an unknown id): for the jobs and checks that hold the id. */
export async function investorById(db: DbOrTx, id: string) {
  return repo.findInvestorById(db, id);
}

/** The encrypted details of these investors, with their holding type. */
export async function investorDetails(db: DbOrTx, ids: string[]) {
  return repo.investorDetails(db, ids);
}

/** The bank account a redemption pays out to (the named one, else the primary), encrypted. */
export async function findPayoutAccount(db: DbOrTx, investorId: string, bankAccountId: string | null) {
  return repo.findPayoutAccount(db, investorId, bankAccountId);
}

/** The client codes (UCC) of these investors. */
export async function uccCodesOf(db: DbOrTx, ids: readonly string[]) {
  return repo.uccCodesOf(db, ids);
}
