import type { TaskHandler } from "../../shared/jobs/task.js";
import { decryptChangeValues, applyChangeOutcome } from "../change-lifecycle.js";
import { bankAccountsAfter, removalBlocker } from "../bank-accounts.service.js";
import { findChange } from "../changes.repo.js";
import { withChange } from "../changes.service.js";
import { findInvestorById } from "../investors.repo.js";
import { decryptDetails } from "../investors.service.js";
import { toUccRegistration } from "../ucc.js";

/**
 * Sends a REGISTERED investor's pending change to the exchange as a UCC modification (the whole record as
 * it will be, FATCA again when FATCA changed) and applies a final answer. Safe to run twice: the exchange
 * books a change once by its id, and a decided change is not moved again. A bank account removal that
 * something came to name while it waited is rejected here, never sent.
 */
export const sendInvestorChange: TaskHandler<"investors__send_change"> = async ({ change_id }, { services, log }) => {
  const change = await findChange(services.prisma, change_id);
  if (!change || change.status !== "PENDING") return;
  const investor = (await findInvestorById(services.prisma, change.investorId))!;
  const values = decryptChangeValues(services.cipher, change);
  const blocker = await removalBlocker(services.prisma, values.bank_accounts);
  if (blocker) {
    const moved = await applyChangeOutcome(services.prisma, services.cipher, change.id, { status: "REJECTED", remark: blocker });
    log.info({ change_id, investor_id: change.investorId, moved }, "UCC modification not sent: the bank account to remove is named again");
    return;
  }
  const details = withChange(decryptDetails(services.cipher, investor), values);
  const bankAccounts = bankAccountsAfter(services.cipher, investor, values.bank_accounts);
  // A confirmed opt-out (consents.service.ts) is sent as the nomination it will be once applied.
  const nominationStatus = values.nomination ? "OPTED_OUT" : investor.nominationStatus;
  const ucc = toUccRegistration(investor.uccCode, { ...investor, nominationStatus }, details, bankAccounts);
  const outcome = await services.exchange.modifyInvestor({ changeId: change.id, ucc, fatcaChanged: change.fields.includes("fatca") || change.fields.includes("occupation") });
  const moved = await applyChangeOutcome(services.prisma, services.cipher, change.id, outcome);
  log.info({ change_id, investor_id: change.investorId, outcome: outcome.status, moved }, "UCC modification sent");
};
