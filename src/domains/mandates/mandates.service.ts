import type { Db, DbOrTx } from "../../platform/db/client.js";
import { recordEvent } from "../events/events.repo.js";
import type { RegistrationOutcome } from "../../integrations/exchange/port.js";
import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { bankAccountBeingRemoved } from "../investors/bank-accounts.service.js";
import { findInvestorOf } from "../investors/investors.service.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { invalidState, notFound } from "../../platform/lib/errors.js";
import { rupeesToDecimal } from "../../platform/lib/formats.js";
import { newId } from "../../platform/lib/ids.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Decimal } from "../../platform/lib/money.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as repo from "./mandates.repo.js";
import type { CreateMandateInput, ListMandatesInput } from "./mandates.schemas.js";
import { bankAccountBeingRemovedError, checkMandateHolder, mandateUse, type MandateUser } from "./rules.js";
import { toView, type MandateView } from "./views.js";

const SCOPE_CREATE = "POST /api/mandates/v1";

/** A mandate for a REGISTERED investor's own bank account, not one being removed; registered with the exchange by a job. */
export async function createMandate(
  services: Services,
  caller: Caller,
  input: CreateMandateInput,
  idempotencyKey: string | undefined,
): Promise<Stored<MandateView>> {
  return idempotent(services.prisma, { distributorId: caller.distributorId, scope: SCOPE_CREATE, key: idempotencyKey, body: input }, async (tx) => {
    const investor = await findInvestorOf(tx, caller.distributorId, input.investor_id);
    if (!investor) throw notFound("Investor");
    checkMandateHolder(investor, input.bank_account_id);
    if (await bankAccountBeingRemoved(tx, investor.id, input.bank_account_id)) throw bankAccountBeingRemovedError();
    const id = newId("mdt");
    const row = await repo.insertMandate(tx, {
      id,
      distributorId: caller.distributorId,
      investorId: investor.id,
      bankAccountId: input.bank_account_id,
      mandateType: input.mandate_type,
      amountLimit: rupeesToDecimal(input.amount_limit),
      startDate: new Date(`${input.start_date}T00:00:00Z`),
      endDate: input.end_date ? new Date(`${input.end_date}T00:00:00Z`) : null,
      status: "PENDING",
      clientRef: input.client_ref ?? null,
    });
    await enqueue(tx, "mandates__register", { mandate_id: id }, { jobKey: `mandates__register:${id}` });
    return { status: 201, body: toView(row, null) };
  });
}

/** `origin`: the request's, for the sandbox's simulation URL when MF_PUBLIC_BASE_URL is not set. */
export async function getMandate(services: Services, caller: Caller, id: string, origin?: string): Promise<MandateView> {
  const row = await repo.findMandate(services.prisma, caller.distributorId, id);
  if (!row) throw notFound("Mandate");
  return toView(row, authUrlOf(services, row, origin));
}

/** The distributor's mandates, newest first, each as GET /api/mandates/v1/{id} shows it; another distributor's investor_id finds none. */
export async function listMandates(
  services: Services,
  caller: Caller,
  query: ListMandatesInput,
  origin?: string,
): Promise<{ data: MandateView[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const rows = await repo.listMandates(services.prisma, { distributorId: caller.distributorId, status: query.status, investorId: query.investor_id, afterId, limit: query.limit });
  return toPage(rows, query.limit, (row) => [row.id], (row) => toView(row, authUrlOf(services, row, origin)));
}

/**
 * A PENDING ENACH mandate the exchange has: where the investor authorises it. The exchange's e-NACH URL as
 * the job fetched it; with the sandbox exchange, which has no bank page, the simulation call that approves
 * it (`/api/simulation/mandates/v1/{id}/register`, the distributor's token), so integrations see the field.
 */
function authUrlOf(services: Services, row: repo.MandateRow, origin: string | undefined): string | null {
  if (row.status !== "PENDING" || row.mandateType !== "ENACH" || !row.exchangeMandateId) return null;
  if (!services.sandboxExchange) return row.authUrl;
  const base = services.config.publicBaseUrl ?? origin ?? `http://localhost:${services.config.port}`;
  return `${base}/api/simulation/mandates/v1/${encodeURIComponent(row.id)}/register`;
}

/**
 * Cancels a REGISTERED mandate: it stops being usable at once (status CANCELLED, one
 * mandate.cancelled event) and a job tells the exchange, retrying until it has.
 */
export async function cancelMandate(services: Services, caller: Caller, id: string, origin?: string): Promise<MandateView> {
  const mandate = await repo.findMandate(services.prisma, caller.distributorId, id);
  if (!mandate) throw notFound("Mandate");
  await services.prisma.$transaction(async (tx) => {
    if (!(await repo.moveMandate(tx, id, "REGISTERED", { status: "CANCELLED" }))) {
      throw invalidState(`Mandate ${id} is ${mandate.status}; only a REGISTERED mandate can be cancelled`);
    }
    await recordEvent(tx, {
      distributorId: caller.distributorId,
      resourceType: "mandate",
      resourceId: id,
      event: "mandate.cancelled",
      data: { mandate_id: id, status: "CANCELLED" },
    });
    await enqueue(tx, "mandates__cancel_at_exchange", { mandate_id: id }, { jobKey: `mandates__cancel_at_exchange:${id}` });
  });
  return getMandate(services, caller, id, origin);
}

/** Applies the exchange's answer about a PENDING mandate; each move and its event happen once. */
export async function applyMandateRegistration(
  db: Db,
  mandateId: string,
  outcome: RegistrationOutcome & { exchangeMandateId?: string | null },
): Promise<boolean> {
  const exchangeId = outcome.exchangeMandateId === undefined ? {} : { exchangeMandateId: outcome.exchangeMandateId };
  if (outcome.status === "PENDING") {
    await repo.noteExchangeAnswer(db, mandateId, { providerRemark: outcome.remark, ...exchangeId });
    return false;
  }
  return db.$transaction(async (tx) => {
    const moved = await repo.moveMandate(tx, mandateId, "PENDING", { status: outcome.status, providerRemark: outcome.remark, ...exchangeId });
    if (!moved) return false;
    const { distributorId } = await repo.getMandateState(tx, mandateId);
    await recordEvent(tx, {
      distributorId,
      resourceType: "mandate",
      resourceId: mandateId,
      ...(outcome.status === "REGISTERED"
        ? { event: "mandate.registered" as const, data: { mandate_id: mandateId, status: "REGISTERED" as const } }
        : { event: "mandate.rejected" as const, data: { mandate_id: mandateId, status: "REJECTED" as const } }),
    });
    return true;
  });
}

/**
 * The mandate a debit names, judged by the mandate-usability rule (rules.ts mandateUse) for the investor
 * and the amount, in the words of its user (placing an order, paying a link).
 */
export async function mandateForDebit(
  db: DbOrTx,
  debit: { distributorId: string; mandateId: string; investorId: string; amount: Decimal.Value | null },
  user: MandateUser,
) {
  return mandateUse(await repo.findMandate(db, debit.distributorId, debit.mandateId), debit.investorId, debit.amount, user);
}

/** The investor's REGISTERED mandates (oldest first), with their bank account: what a payment may use. */
export async function registeredMandatesOf(db: DbOrTx, distributorId: string, investorId: string) {
  return repo.registeredMandatesOf(db, distributorId, investorId);
}

/** A mandate by id, any distributor's (null for an unknown id): for the jobs that hold the id. */
export async function findMandateById(db: DbOrTx, id: string) {
  return repo.findMandateById(db, id);
}
