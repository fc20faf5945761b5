import type { TaskHandler } from "../../shared/jobs/task.js";
import { findInvestorById } from "../investors.repo.js";
import { decryptAccountNumber, decryptDetails } from "../investors.service.js";
import { applyRegistration } from "../lifecycle.js";
import { toUccRegistration } from "../ucc.js";

/**
 * Sends the investor's UCC to the exchange and applies its answer. Safe to run twice: the exchange
 * recognises the client code, and a PENDING -> REGISTERED/REJECTED move is applied once.
 * A transport failure throws, and graphile-worker retries with backoff.
 */
export const registerInvestor: TaskHandler<"investors__register"> = async ({ investor_id }, { services, log }) => {
  const investor = await findInvestorById(services.prisma, investor_id);
  if (!investor || investor.status !== "PENDING") return;
  const details = decryptDetails(services.cipher, investor);
  const bankAccounts = investor.bankAccounts.map((account) => ({
    accountType: account.accountType,
    accountNumber: decryptAccountNumber(services.cipher, account),
    ifsc: account.ifsc,
    isPrimary: account.isPrimary,
  }));
  const outcome = await services.exchange.registerInvestor(toUccRegistration(investor.uccCode, investor, details, bankAccounts));
  const moved = await applyRegistration(services.prisma, investor_id, outcome);
  log.info({ investor_id, outcome: outcome.status, moved }, "UCC registration sent");
};
