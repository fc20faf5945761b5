import { enqueue } from "../../shared/jobs/enqueue.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { maskFreeText } from "../../../platform/lib/mask.js";
import type { Services } from "../../shared/services.js";
import { findMandateById, noteAuthUrl, noteCancellationRemark, pendingMandateIds } from "../mandates.repo.js";
import { applyMandateRegistration } from "../mandates.service.js";

/** Sends the mandate to the exchange and applies its answer (safe to run twice). */
export const registerMandate: TaskHandler<"mandates__register"> = async ({ mandate_id }, { services }) => {
  const mandate = await findMandateById(services.prisma, mandate_id);
  if (!mandate || mandate.status !== "PENDING") return;
  const outcome = await services.exchange.registerMandate({
    mandateId: mandate.id,
    clientCode: mandate.investor.uccCode,
    mandateType: mandate.mandateType,
    amountLimit: mandate.amountLimit.toFixed(2),
    startDate: mandate.startDate.toISOString().slice(0, 10),
    endDate: mandate.endDate ? mandate.endDate.toISOString().slice(0, 10) : null,
    bank: {
      accountNumber: services.cipher.decrypt(mandate.bankAccount.accountNumberEncrypted),
      ifsc: mandate.bankAccount.ifsc,
      accountType: mandate.bankAccount.accountType,
    },
  });
  await applyMandateRegistration(services.prisma, mandate.id, outcome);
  await fetchAuthUrl(services, mandate.id);
};

/** Asks the exchange where a PENDING mandate stands (and for its e-NACH URL, while it has none). */
export const checkMandateStatus: TaskHandler<"mandates__check_status"> = async ({ mandate_id }, { services }) => {
  const mandate = await findMandateById(services.prisma, mandate_id);
  if (!mandate || mandate.status !== "PENDING") return;
  await applyMandateRegistration(services.prisma, mandate.id, await services.exchange.mandateStatus(mandate.id));
  await fetchAuthUrl(services, mandate.id);
};

/**
 * Where the investor authorises a PENDING ENACH mandate the exchange has, kept on the mandate for
 * `auth_url`. The URL is a bearer link for the investor: it is stored, shown to its distributor, never logged.
 */
async function fetchAuthUrl(services: Services, mandateId: string): Promise<void> {
  const mandate = await findMandateById(services.prisma, mandateId);
  if (!mandate || mandate.status !== "PENDING" || mandate.mandateType !== "ENACH" || !mandate.exchangeMandateId || mandate.authUrl) return;
  const authUrl = await services.exchange.mandateAuthUrl(mandate.id);
  if (authUrl) await noteAuthUrl(services.prisma, mandate.id, authUrl);
}

/** Periodic: a status check for every PENDING mandate. */
export const syncPendingMandates: TaskHandler<"mandates__sync_pending"> = async (_payload, { services }) => {
  const ids = await pendingMandateIds(services.prisma);
  if (ids.length === 0) return;
  await services.prisma.$transaction(async (tx) => {
    for (const id of ids) await enqueue(tx, "mandates__check_status", { mandate_id: id }, { jobKey: `mandates__check_status:${id}` });
  });
};

/**
 * Tells the exchange about a cancellation made on our side; retried only while the exchange cannot be
 * reached (the port throws). A "not cancelled" answer is final: its remark goes on the mandate's
 * provider_remark and in one warning, for an operator to cancel it with the bank or the exchange's back office.
 */
export const cancelMandateAtExchange: TaskHandler<"mandates__cancel_at_exchange"> = async ({ mandate_id }, { services, log }) => {
  const result = await services.exchange.cancelMandate(mandate_id);
  if (result.cancelled) return;
  await noteCancellationRemark(services.prisma, mandate_id, result.remark);
  log.warn(
    { mandate_id, remark: maskFreeText(result.remark) },
    "the exchange did not cancel the mandate; not retried: an operator cancels it with the bank or the exchange's back office",
  );
};
