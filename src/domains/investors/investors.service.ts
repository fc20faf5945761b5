import type { Db, DbOrTx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import type { RegistrationOutcome } from "../../integrations/exchange/port.js";
import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { AppError, notFound } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import { maskAccountNumber, maskEmail, maskMobile, maskPan } from "../../platform/lib/mask.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as repo from "./investors.repo.js";
import type { CreateInvestorInput } from "./investors.schemas.js";
import type { InvestorStatus } from "./investor.states.js";

/** The personal details kept encrypted, as validated at creation. */
export type InvestorDetails = Required<Pick<CreateInvestorInput, "primary_holder" | "contact" | "address" | "fatca">> & {
  joint_holders: NonNullable<CreateInvestorInput["joint_holders"]>;
  guardian: CreateInvestorInput["guardian"] | null;
  nominees: NonNullable<CreateInvestorInput["nominees"]>;
  demat: NonNullable<CreateInvestorInput["demat"]>;
};

const SCOPE_CREATE = "POST /api/investors/v1";

export function decryptDetails(cipher: DataCipher, row: { detailsEncrypted: string }): InvestorDetails {
  return JSON.parse(cipher.decrypt(row.detailsEncrypted)) as InvestorDetails;
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
    return { status: 201, body: toView(cipher, row) };
  });
}

function duplicatePan(existingId: string): AppError {
  return new AppError("CONFLICT", `An investor with this PAN already exists: ${existingId}; use that investor`, {
    details: [{ path: "primary_holder.pan", message: `already registered as ${existingId}`, reason: "pan_already_registered" }],
  });
}

/** The exchange client code: MF and 8 characters of the id's random part (10 in all), unique by constraint. */
function uccCodeFor(investorId: string): string {
  return `MF${investorId.slice(-8).toUpperCase()}`;
}

export async function getInvestor(services: Services, caller: Caller, id: string): Promise<InvestorView> {
  const row = await repo.findInvestor(services.prisma, caller.distributorId, id);
  if (!row) throw notFound(`Investor ${id}`);
  return toView(services.cipher, row);
}

export async function listInvestors(
  services: Services,
  caller: Caller,
  query: { status?: InvestorStatus; limit: number; cursor?: string },
): Promise<{ data: InvestorSummary[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const rows = await repo.listInvestors(services.prisma, { distributorId: caller.distributorId, status: query.status, afterId, limit: query.limit });
  return toPage(rows, query.limit, (row) => [row.id], (row) => toSummary(services.cipher, row));
}

/**
 * Queues a status check with the exchange for the caller's PENDING investors (or one of them). The
 * checks run as jobs, as every call to the exchange does; each applies its answer when it arrives.
 */
export async function syncInvestors(services: Services, caller: Caller, investorId: string | undefined) {
  if (investorId && !(await repo.findInvestor(services.prisma, caller.distributorId, investorId))) {
    throw notFound(`Investor ${investorId}`);
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

/**
 * Applies what the exchange says about a registration. A move happens once: a second report of the
 * same outcome (a retried job, a sync after a simulation) finds the investor no longer PENDING and
 * writes nothing, so each event is recorded exactly once.
 */
export async function applyRegistration(db: Db, investorId: string, outcome: RegistrationOutcome): Promise<boolean> {
  if (outcome.status === "PENDING") {
    await repo.setProviderRemark(db, investorId, outcome.remark);
    return false;
  }
  return db.$transaction(async (tx) => {
    const moved = await repo.moveFromPending(tx, investorId, { status: outcome.status, providerRemark: outcome.remark });
    if (!moved) return false;
    const investor = await repo.getInvestorState(tx, investorId);
    const event = outcome.status === "REGISTERED" ? "investor.registered" : "investor.rejected";
    await recordEvent(tx, {
      distributorId: investor.distributorId,
      resourceType: "investor",
      resourceId: investorId,
      event,
      data: { investor_id: investorId, status: outcome.status, provider_remark: outcome.remark } as never,
    });
    return true;
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

export type InvestorView = ReturnType<typeof toView>;
export type InvestorSummary = ReturnType<typeof toSummary>;

function toView(cipher: DataCipher, row: repo.InvestorRow) {
  const details = decryptDetails(cipher, row);
  const holder = details.primary_holder;
  return {
    id: row.id,
    status: row.status,
    client_ref: row.clientRef,
    ucc_code: row.uccCode,
    provider_remark: row.providerRemark,
    pan: maskPan(holder.pan),
    name: holder.name,
    tax_status: row.taxStatus,
    holding_type: row.holdingType,
    primary_holder: {
      pan: maskPan(holder.pan),
      name: holder.name,
      date_of_birth: holder.date_of_birth,
      gender: holder.gender,
      occupation: holder.occupation,
      kyc_type: holder.kyc_type,
      ckyc_number: holder.ckyc_number ? maskAccountNumber(holder.ckyc_number) : null,
    },
    joint_holders: details.joint_holders.map((h) => ({ pan: maskPan(h.pan), name: h.name, date_of_birth: h.date_of_birth, kyc_type: h.kyc_type })),
    guardian: details.guardian ? { name: details.guardian.name, pan: maskPan(details.guardian.pan), relationship: details.guardian.relationship } : null,
    contact: {
      email: maskEmail(details.contact.email),
      mobile: maskMobile(details.contact.mobile),
      email_relation: details.contact.email_relation,
      mobile_relation: details.contact.mobile_relation,
    },
    address: { ...details.address, line2: details.address.line2 ?? null },
    fatca: details.fatca,
    nominees: details.nominees.map((n) => ({
      name: n.name,
      relationship: n.relationship,
      percentage: n.percentage,
      date_of_birth: n.date_of_birth ?? null,
      guardian_name: n.guardian_name ?? null,
    })),
    demat: {
      mode: details.demat.mode,
      dp_id: details.demat.dp_id ?? null,
      client_id: details.demat.client_id ? maskAccountNumber(details.demat.client_id) : null,
    },
    investment_account_id: row.investmentAccounts[0]!.id,
    investment_accounts: row.investmentAccounts.map((a) => ({
      id: a.id,
      holding_mode: a.holdingMode,
      created_at: a.createdAt.toISOString(),
    })),
    bank_accounts: row.bankAccounts.map((a) => ({
      id: a.id,
      account_type: a.accountType,
      account_number: maskAccountNumber(`XXXXXXXX${a.accountNumberLast4}`),
      ifsc: a.ifsc,
      is_primary: a.isPrimary,
    })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toSummary(cipher: DataCipher, row: repo.InvestorRow) {
  const view = toView(cipher, row);
  return {
    id: view.id,
    status: view.status,
    client_ref: view.client_ref,
    pan: view.pan,
    name: view.name,
    tax_status: view.tax_status,
    holding_type: view.holding_type,
    investment_account_id: view.investment_account_id,
    created_at: view.created_at,
  };
}
