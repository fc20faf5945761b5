import { z } from "zod";
import type { Db } from "../../platform/db/client.js";
import type { DataCipher } from "../../platform/lib/crypto.js";
import { recordEvent } from "../events/events.repo.js";
import type { RegistrationOutcome } from "../../integrations/exchange/port.js";
import { applyBankAccountChange, BankAccountChange, removalBlocker } from "./bank-accounts.service.js";
import * as changes from "./changes.repo.js";
import { findConsentById, setOptedOut } from "./consents.repo.js";
import { withChange } from "./changes.service.js";
import * as repo from "./investors.repo.js";
import { StoredInvestorDetails } from "./investors.schemas.js";
import { decryptDetails } from "./investors.service.js";

/** investor_changes.values_encrypted, decrypted: the values as the PATCH validated them, read back by their shape only. */
const StoredChangeValues = StoredInvestorDetails.pick({ contact: true, address: true, fatca: true, nominees: true })
  .extend({
    occupation: StoredInvestorDetails.shape.primary_holder.shape.occupation,
    bank_accounts: BankAccountChange,
    // A confirmed nomination opt-out (consents.service.ts): the consent link that holds its evidence.
    nomination: z.object({ opted_out: z.literal(true), consent_id: z.string() }),
  })
  .partial();

export function decryptChangeValues(cipher: DataCipher, change: { valuesEncrypted: string }): z.infer<typeof StoredChangeValues> {
  return StoredChangeValues.parse(JSON.parse(cipher.decrypt(change.valuesEncrypted)));
}

/**
 * A change's one move, the exchange's answer to the UCC modification: PENDING -> APPLIED (the investor's
 * details become the new ones, investor.updated) or REJECTED (investor.update_rejected with the remark), in
 * one transaction. A second report of the answer finds the change decided and writes nothing. A removal of a
 * bank account that something came to name while it was pending is REJECTED here with a remark saying so,
 * whatever the exchange answered: the account stays, as do the orders and mandates naming it.
 */
export async function applyChangeOutcome(db: Db, cipher: DataCipher, changeId: string, outcome: RegistrationOutcome): Promise<boolean> {
  if (outcome.status === "PENDING") {
    await changes.setChangeRemark(db, changeId, outcome.remark);
    return false;
  }
  return db.$transaction(async (tx) => {
    const before = await changes.findChange(tx, changeId);
    if (!before) return false;
    await changes.lockInvestor(tx, before.investorId);
    const blocker = outcome.status === "REGISTERED" ? await removalBlocker(tx, decryptChangeValues(cipher, before).bank_accounts) : null;
    const applied = outcome.status === "REGISTERED" && blocker === null;
    const moved = await changes.decideChange(tx, changeId, { status: applied ? "APPLIED" : "REJECTED", providerRemark: blocker ?? outcome.remark });
    if (!moved) return false;
    const change = (await changes.findChange(tx, changeId))!;
    const about = { distributorId: change.distributorId, resourceType: "investor", resourceId: change.investorId } as const;
    if (applied) {
      const investor = (await repo.findInvestorById(tx, change.investorId))!;
      const values = decryptChangeValues(cipher, change);
      const updated = withChange(decryptDetails(cipher, investor), values);
      await changes.replaceDetails(tx, change.investorId, cipher.encrypt(JSON.stringify(updated)), updated.nominees.length > 0);
      if (values.bank_accounts) await applyBankAccountChange(tx, cipher, investor, values.bank_accounts);
      const consent = values.nomination && (await findConsentById(tx, values.nomination.consent_id));
      if (consent?.confirmedAt && updated.nominees.length === 0) await setOptedOut(tx, change.investorId, { id: consent.id, confirmedAt: consent.confirmedAt });
      await recordEvent(tx, { ...about, event: "investor.updated", data: { investor_id: change.investorId, change_id: changeId, fields: change.fields } });
    } else {
      await recordEvent(tx, {
        ...about,
        event: "investor.update_rejected",
        data: { investor_id: change.investorId, change_id: changeId, provider_remark: change.providerRemark ?? "REJECTED" },
      });
    }
    return true;
  });
}
