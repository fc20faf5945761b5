import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { invalidState, notFound, validationError } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import { formatPath } from "../../platform/lib/errors.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as changes from "./changes.repo.js";
import { applyBankAccountChange, primaryMove } from "./bank-accounts.service.js";
import { CHANGEABLE_FIELDS, type ChangeableField, type DetailField, type PatchInvestorInput } from "./changes.schemas.js";
import * as repo from "./investors.repo.js";
import type { InvestorDetails } from "./investors.schemas.js";
import { decryptDetails } from "./investors.service.js";
import { investorIssues } from "./rules.js";
import { toInvestorView, type InvestorView } from "./views.js";

const SCOPE_PATCH = "PATCH /api/investors/v1/{id}";

/** The changeable fields a request names, in their fixed order. */
export function changedFields(input: Partial<Record<ChangeableField, unknown>>): ChangeableField[] {
  return CHANGEABLE_FIELDS.filter((field) => input[field] !== undefined);
}

/** The details with a change's values in place of the old ones. */
export function withChange(
  details: InvestorDetails,
  change: Partial<Pick<InvestorDetails, "contact" | "address" | "fatca" | "nominees">> & { occupation?: InvestorDetails["primary_holder"]["occupation"] | undefined },
): InvestorDetails {
  return {
    ...details,
    primary_holder: change.occupation ? { ...details.primary_holder, occupation: change.occupation } : details.primary_holder,
    contact: change.contact ?? details.contact,
    address: change.address ?? details.address,
    fatca: change.fatca ?? details.fatca,
    nominees: change.nominees ?? details.nominees,
  };
}

/**
 * Changes an investor after creation. A PENDING investor (the exchange has not registered it) is changed in
 * place: its registration job sends what it holds when it runs. A REGISTERED investor gets a pending change,
 * one at a time, which a job sends to the exchange as a UCC modification; its details stay the registered
 * ones until the exchange applies it (change-lifecycle.ts). A REJECTED investor cannot be changed.
 */
export async function patchInvestor(
  services: Services,
  caller: Caller,
  id: string,
  input: PatchInvestorInput,
  idempotencyKey: string | undefined,
): Promise<Stored<InvestorView>> {
  const { cipher } = services;
  const body = { id, ...input };
  return idempotent(services.prisma, { distributorId: caller.distributorId, scope: SCOPE_PATCH, key: idempotencyKey, body }, async (tx) => {
    if (!(await repo.findInvestor(tx, caller.distributorId, id))) throw notFound("Investor");
    await changes.lockInvestor(tx, id);
    const investor = (await repo.findInvestor(tx, caller.distributorId, id))!;
    const fields = changedFields(input);
    const details = decryptDetails(cipher, investor);
    const updated = withChange(details, input);
    const issues = investorIssues({
      tax_status: investor.taxStatus,
      holding_type: investor.holdingType,
      primary_holder: updated.primary_holder,
      joint_holders: updated.joint_holders,
      guardian: updated.guardian ?? undefined,
      contact: updated.contact,
      address: updated.address,
      bank_accounts: [],
      nominees: updated.nominees,
      demat: updated.demat,
    }).filter((issue) => issue.path[0] !== "bank_accounts" && (fields as Array<string | number>).includes(issue.path[0]!));
    if (issues.length > 0) throw validationError(issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message, reason: issue.reason })));
    const bankMove = input.bank_accounts ? primaryMove(investor, input.bank_accounts) : undefined;

    if (investor.status === "REJECTED") throw invalidState(`Investor ${id} is REJECTED; only a PENDING or REGISTERED investor can be changed`);
    if (investor.status === "PENDING") {
      await changes.replaceDetails(tx, id, cipher.encrypt(JSON.stringify(updated)), updated.nominees.length > 0);
      if (bankMove) await applyBankAccountChange(tx, cipher, investor, bankMove);
      const row = (await repo.findInvestor(tx, caller.distributorId, id))!;
      return { status: 200, body: toInvestorView(row, updated, await changes.latestChange(tx, id)) };
    }
    const pending = await changes.latestChange(tx, id);
    if (pending?.status === "PENDING") {
      throw invalidState(`Investor ${id} has a change the exchange has not yet decided (${pending.id}); send the next one after it`);
    }
    const values = Object.fromEntries(fields.map((field) => [field, field === "bank_accounts" ? bankMove : input[field]]));
    const change = await changes.insertChange(tx, {
      id: newId("ich"),
      distributorId: caller.distributorId,
      investorId: id,
      fields,
      valuesEncrypted: cipher.encrypt(JSON.stringify(values)),
    });
    await enqueue(tx, "investors__send_change", { change_id: change.id }, { jobKey: `investors__send_change:${change.id}` });
    return { status: 200, body: toInvestorView(investor, details, change) };
  });
}
