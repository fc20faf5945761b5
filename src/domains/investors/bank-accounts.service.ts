import { z } from "zod";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { formatPath, invalidState, notFound, validationError, type ErrorDetail } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import type { DbOrTx } from "../../platform/db/client.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as accounts from "./bank-accounts.repo.js";
import * as changes from "./changes.repo.js";
import * as repo from "./investors.repo.js";
import type { InvestorRow } from "./investors.repo.js";
import { BankAccountInput } from "./investors.schemas.js";
import { decryptAccountNumber, decryptDetails } from "./investors.service.js";
import { investorIssues } from "./rules.js";
import { toInvestorView, type InvestorView } from "./views.js";

/** The most bank accounts an investor has (as at creation). */
export const MAX_BANK_ACCOUNTS = 5;

const SCOPE_ADD = "POST /api/investors/v1/{id}/bank-accounts";
const SCOPE_DELETE = "DELETE /api/investors/v1/{id}/bank-accounts/{bank_account_id}";

/**
 * A pending change's bank account move (investor_changes.values_encrypted `bank_accounts`): one added (its id
 * chosen now), one removed, or one made the primary (the PATCH's `bank_accounts`).
 */
export const BankAccountChange = z.union([
  z.strictObject({ add: BankAccountInput.extend({ id: z.string() }) }),
  z.strictObject({ remove: z.string() }),
  z.strictObject({ primary: z.string() }),
]);
export type BankAccountChange = z.infer<typeof BankAccountChange>;

/** A bank account in clear, as the exchange is sent it. */
export interface ClearBankAccount {
  accountType: string;
  accountNumber: string;
  ifsc: string;
  isPrimary: boolean;
}

/** The investor's bank accounts in clear, with a pending move made (an added primary demotes the others; a removed primary promotes the oldest left). */
export function bankAccountsAfter(cipher: DataCipher, investor: InvestorRow, move: BankAccountChange | undefined): ClearBankAccount[] {
  let list = investor.bankAccounts.map((account) => ({
    id: account.id,
    accountType: account.accountType as string,
    accountNumber: decryptAccountNumber(cipher, account),
    ifsc: account.ifsc,
    isPrimary: account.isPrimary,
  }));
  if (move && "add" in move) {
    const added = move.add;
    if (added.is_primary) list = list.map((a) => ({ ...a, isPrimary: false }));
    list.push({ id: added.id, accountType: added.account_type, accountNumber: added.account_number, ifsc: added.ifsc, isPrimary: added.is_primary });
  } else if (move && "remove" in move) {
    const removed = list.find((a) => a.id === move.remove);
    list = list.filter((a) => a.id !== move.remove);
    if (removed?.isPrimary && list[0]) list[0] = { ...list[0], isPrimary: true };
  } else if (move) {
    list = list.map((a) => ({ ...a, isPrimary: a.id === move.primary }));
  }
  return list.map(({ id: _id, ...account }) => account);
}

/** Makes a bank account move on the investor's rows (a PENDING investor's at once, a REGISTERED one's when the exchange applied it). */
export async function applyBankAccountChange(tx: DbOrTx, cipher: DataCipher, investor: { id: string; distributorId: string }, move: BankAccountChange): Promise<void> {
  if ("add" in move) {
    const { id, account_type, account_number, ifsc, is_primary } = move.add;
    await accounts.insertBankAccount(tx, investor.distributorId, investor.id, {
      id,
      accountType: account_type,
      accountNumberEncrypted: cipher.encrypt(account_number),
      accountNumberLast4: account_number.slice(-4),
      ifsc,
      isPrimary: is_primary,
    });
  } else if ("remove" in move) {
    await accounts.markRemoved(tx, investor.id, move.remove);
  } else {
    await accounts.setPrimary(tx, investor.id, move.primary);
  }
}

/**
 * Why a removal can no longer be made (null when it can): something named the account while the removal was
 * pending. The job asks before sending it and the exchange's answer is checked again before it is applied.
 */
export async function removalBlocker(db: DbOrTx, move: BankAccountChange | undefined): Promise<string | null> {
  if (!move || !("remove" in move)) return null;
  const uses = await accounts.bankAccountUses(db, move.remove);
  if (uses.mandates > 0) return `bank account ${move.remove} is named by a mandate made while its removal was pending; it was not removed`;
  if (uses.liveOrders > 0) return `bank account ${move.remove} is named by a PENDING or ACCEPTED order placed while its removal was pending; it was not removed`;
  return null;
}

/** Whether the investor's bank account is being removed (a change the exchange has not yet decided asks for it): no new mandate may name it. */
export function bankAccountBeingRemoved(db: DbOrTx, investorId: string, bankAccountId: string): Promise<boolean> {
  return accounts.isBeingRemoved(db, investorId, bankAccountId);
}

/**
 * The PATCH's `bank_accounts` (ids and primary flags) as a move: every id one of the investor's accounts,
 * named once, and exactly one primary after it (400 with field paths otherwise). The one named primary
 * takes the place of the investor's primary; naming none keeps the primary, unless it is named not primary.
 */
export function primaryMove(investor: InvestorRow, items: ReadonlyArray<{ id: string; is_primary: boolean }>): BankAccountChange {
  const details: ErrorDetail[] = [];
  items.forEach((item, i) => {
    if (!investor.bankAccounts.some((a) => a.id === item.id)) {
      details.push({ path: `bank_accounts[${i}].id`, reason: "bank_account_not_found", message: "is not a bank account of the investor: use an id from its bank_accounts" });
    } else if (items.findIndex((other) => other.id === item.id) !== i) {
      details.push({ path: `bank_accounts[${i}].id`, reason: "duplicate", message: "is listed twice" });
    }
  });
  if (details.length > 0) throw validationError(details);
  const named = items.filter((item) => item.is_primary);
  const current = investor.bankAccounts.find((a) => a.isPrimary && !items.some((item) => item.id === a.id && !item.is_primary));
  const primary = named.length === 1 ? named[0]!.id : named.length === 0 ? current?.id : undefined;
  if (!primary) {
    throw validationError([{ path: "bank_accounts", reason: "rule_violated", message: `exactly one bank account must be primary after the change (${named.length} would be)` }]);
  }
  return { primary };
}

type BankAccountBody = z.infer<typeof BankAccountInput>;

/**
 * Adds a bank account to an investor, or removes one: a PENDING investor's at once, a REGISTERED investor's
 * as a pending change (fields ["bank_accounts"]) that the exchange applies (changes.service.ts); one change
 * at a time. A REJECTED investor cannot be changed.
 */
async function moveBankAccount(
  services: Services,
  caller: Caller,
  id: string,
  scope: string,
  body: unknown,
  idempotencyKey: string | undefined,
  decide: (tx: DbOrTx, investor: InvestorRow) => Promise<BankAccountChange>,
): Promise<Stored<InvestorView>> {
  const { cipher } = services;
  return idempotent(services.prisma, { distributorId: caller.distributorId, scope, key: idempotencyKey, body }, async (tx) => {
    if (!(await repo.findInvestor(tx, caller.distributorId, id))) throw notFound("Investor");
    await changes.lockInvestor(tx, id);
    const investor = (await repo.findInvestor(tx, caller.distributorId, id))!;
    const move = await decide(tx, investor);
    if (investor.status === "REJECTED") throw invalidState(`Investor ${id} is REJECTED; only a PENDING or REGISTERED investor can be changed`);
    const details = decryptDetails(cipher, investor);
    if (investor.status === "PENDING") {
      await applyBankAccountChange(tx, cipher, investor, move);
      const row = (await repo.findInvestor(tx, caller.distributorId, id))!;
      return { status: 200, body: toInvestorView(row, details, await changes.latestChange(tx, id)) };
    }
    const pending = await changes.latestChange(tx, id);
    if (pending?.status === "PENDING") {
      throw invalidState(`Investor ${id} has a change the exchange has not yet decided (${pending.id}); send the next one after it`);
    }
    const change = await changes.insertChange(tx, {
      id: newId("ich"),
      distributorId: caller.distributorId,
      investorId: id,
      fields: ["bank_accounts"],
      valuesEncrypted: cipher.encrypt(JSON.stringify({ bank_accounts: move })),
    });
    if ("remove" in move) await accounts.markRemovalRequested(tx, move.remove, change.id);
    await enqueue(tx, "investors__send_change", { change_id: change.id }, { jobKey: `investors__send_change:${change.id}` });
    return { status: 200, body: toInvestorView(investor, details, change) };
  });
}

/** Adds a bank account, validated as at creation (its type for the tax status, not one the investor has), at most 5 in all. */
export function addBankAccount(services: Services, caller: Caller, id: string, input: BankAccountBody, idempotencyKey: string | undefined) {
  return moveBankAccount(services, caller, id, SCOPE_ADD, { id, ...input }, idempotencyKey, async (_tx, investor) => {
    const current = bankAccountsAfter(services.cipher, investor, undefined);
    const index = current.length;
    const issues = investorIssues({
      ...decryptDetails(services.cipher, investor),
      tax_status: investor.taxStatus,
      holding_type: investor.holdingType,
      guardian: undefined,
      bank_accounts: [
        ...current.map((a) => ({ account_type: a.accountType, account_number: a.accountNumber, ifsc: a.ifsc, is_primary: input.is_primary ? false : a.isPrimary })),
        input,
      ],
    }).filter((issue) => issue.path[0] === "bank_accounts" && issue.path[1] === index);
    if (issues.length > 0) {
      throw validationError(issues.map((issue) => ({ path: formatPath(issue.path.slice(2)), message: issue.message, reason: issue.reason })));
    }
    if (index >= MAX_BANK_ACCOUNTS) throw invalidState(`Investor ${id} has ${MAX_BANK_ACCOUNTS} bank accounts, the most it can have; remove one first`);
    return { add: { ...input, id: newId("bnk") } };
  });
}

/** Removes a bank account (softly, the row stays for what names it): never the only one, nor one a PENDING or REGISTERED mandate or a PENDING/ACCEPTED order names. */
export function deleteBankAccount(services: Services, caller: Caller, id: string, bankAccountId: string, idempotencyKey: string | undefined) {
  return moveBankAccount(services, caller, id, SCOPE_DELETE, { id, bank_account_id: bankAccountId }, idempotencyKey, async (tx, investor) => {
    if (!investor.bankAccounts.some((a) => a.id === bankAccountId)) throw notFound("Bank account");
    if (investor.bankAccounts.length === 1) throw invalidState(`Bank account ${bankAccountId} is the investor's only one; add another first`);
    const uses = await accounts.bankAccountUses(tx, bankAccountId);
    if (uses.mandates > 0) throw invalidState(`Bank account ${bankAccountId} is named by a PENDING or REGISTERED mandate; cancel the mandate first`);
    if (uses.liveOrders > 0) throw invalidState(`Bank account ${bankAccountId} is named by a PENDING or ACCEPTED order; remove it once the order is done`);
    return { remove: bankAccountId };
  });
}
