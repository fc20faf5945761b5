import type { Tx } from "../../platform/db/client.js";
import { bodyHash, idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { AppError, invalidState, validationError } from "../../platform/lib/errors.js";
import { newId, newSecretId } from "../../platform/lib/ids.js";
import { maskAccountNumber, maskEmail, maskFreeText } from "../../platform/lib/mask.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { distributorNameAndArn } from "../auth/distributors.service.js";
import { bankAccountBeingRemoved } from "../investors/bank-accounts.service.js";
import { bankAccountsOf, primaryHolderOf } from "../investors/investors.service.js";
import { mandateForDebit, registeredMandatesOf } from "../mandates/mandates.service.js";
import { schemeNameOf } from "../masters/schemes.service.js";
import {
  checkOrderProposal,
  findOrderByClientRef,
  findOrderById,
  getOrderById,
  parsePlacementRequest,
  placeOrderIn,
} from "../orders/orders.service.js";
import { placedOrderView, type PlacedOrder } from "../orders/views.js";
import { paymentDetails } from "../payments/payment-details.js";
import type { ReturnPageOf } from "../payments/return-page.js";
import { createPayment, latestPaymentIds, latestPaymentOf } from "../payments/payments.service.js";
import type { OrderLinkStatus } from "./link.states.js";
import { cancelActiveLink, confirmActiveLink } from "./lifecycle.js";
import type { CreateLinkInput, PaymentChoiceInput } from "./order-links.schemas.js";
import * as repo from "./order-links.repo.js";
import type { LinkRow } from "./order-links.repo.js";
import { statusAt } from "./rules.js";
import {
  baseUrl,
  linkPagePath,
  storedProposal,
  toLinkPayment,
  toPaymentOptions,
  toPublicView,
  toView,
  type LinkOrder,
  type LinkPayment,
  type LinkPaymentOptions,
  type LinkPaymentRow,
  type LinkView,
  type PublicLinkView,
} from "./views.js";

const SCOPE_CREATE = "POST /api/order-links/v1";
const HOUR_MS = 3_600_000;
/** The consent's user agent is evidence, not a blob: kept up to this length. */
export const USER_AGENT_MAX = 512;

/** Whatever the id (unknown, malformed, another distributor's), the same answer: nothing to tell apart. */
const linkNotFound = () => new AppError("NOT_FOUND", "Order link not found");

/**
 * Creates a link for a proposed order: the proposal passes every placement rule that does not depend
 * on time (the same code and details as placement), then the ACTIVE link and its expiry job commit
 * together. A repeated client_ref with the same body answers the existing link; another body is 409,
 * as is a client_ref an order already holds (the order the link places will carry it).
 */
export async function createLink(
  services: Services,
  caller: Caller,
  input: CreateLinkInput,
  options: { idempotencyKey?: string | undefined; origin?: string | undefined } = {},
): Promise<Stored<LinkView>> {
  const { expires_in_hours: hours, ...order } = input;
  const distributorId = caller.distributorId;
  const base = baseUrl(services, options.origin);
  const requestHash = bodyHash(input);
  const repeatOf = (existing: LinkRow): Stored<LinkView> => {
    if (existing.requestHash !== requestHash) {
      throw new AppError("CONFLICT", `client_ref ${existing.clientRef} is already used by another order link with a different body`);
    }
    return { status: 201, body: toView(existing, base, null, new Date()) };
  };
  const repeat = order.client_ref ? await repo.findLinkByClientRef(services.prisma, distributorId, order.client_ref) : null;
  if (repeat) return repeatOf(repeat);

  return idempotent(services.prisma, { distributorId, scope: SCOPE_CREATE, key: options.idempotencyKey, body: input }, async (tx) => {
    if (order.client_ref) {
      const committed = await repo.findLinkByClientRef(tx, distributorId, order.client_ref);
      if (committed) return repeatOf(committed);
      const taken = await findOrderByClientRef(tx, distributorId, order.client_ref);
      if (taken) throw new AppError("CONFLICT", `client_ref ${order.client_ref} is already used by order ${taken.id}`);
    }
    const { account } = await checkOrderProposal(tx, distributorId, order);
    const id = newSecretId("lnk");
    const now = new Date();
    const expiresAt = new Date(now.getTime() + hours * HOUR_MS);
    // Free text shown on a public page and sent to the exchange: stored with PANs masked.
    const proposal = order.remarks === undefined ? order : { ...order, remarks: maskFreeText(order.remarks) };
    const row = await repo.insertLink(tx, {
      id,
      distributorId,
      investorId: account.investorId,
      investmentAccountId: account.id,
      orderType: order.order_type,
      clientRef: order.client_ref ?? null,
      proposal: JSON.parse(JSON.stringify(proposal)),
      requestHash,
      basketId: newId("bsk"),
      createdAt: now,
      expiresAt,
    });
    if (!row) {
      const winner = await repo.findLinkByClientRef(tx, distributorId, order.client_ref!);
      if (!winner) throw new Error("An order link was not inserted and no link holds its client_ref");
      return repeatOf(winner);
    }
    await enqueue(tx, "order_links__expire", { link_id: id }, { runAt: expiresAt, jobKey: `order_links__expire:${id}` });
    return { status: 201, body: toView(row, base, null, now) };
  });
}

export async function getLink(services: Services, caller: Caller, id: string, origin?: string): Promise<LinkView> {
  const link = await repo.findLink(services.prisma, caller.distributorId, id);
  if (!link) throw linkNotFound();
  const payments = link.orderId ? await latestPaymentIds(services.prisma, [link.orderId]) : new Map<string, string>();
  return toView(link, baseUrl(services, origin), (link.orderId && payments.get(link.orderId)) || null, new Date());
}

export async function listLinks(
  services: Services,
  caller: Caller,
  query: { status?: OrderLinkStatus; limit: number; cursor?: string },
  origin?: string,
): Promise<{ data: LinkView[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const now = new Date();
  const rows = await repo.listLinks(services.prisma, { distributorId: caller.distributorId, status: query.status, afterId, limit: query.limit, now });
  const payments = await latestPaymentIds(services.prisma, rows.flatMap((r) => (r.orderId ? [r.orderId] : [])));
  const base = baseUrl(services, origin);
  return toPage(rows, query.limit, (row) => [row.id], (row) => toView(row, base, (row.orderId && payments.get(row.orderId)) || null, now));
}

/** ACTIVE -> CANCELLED; any other state (an expired link included) is 409. */
export async function cancelLink(services: Services, caller: Caller, id: string, origin?: string): Promise<LinkView> {
  const now = new Date();
  const link = await repo.findLink(services.prisma, caller.distributorId, id);
  if (!link) throw linkNotFound();
  await cancelActiveLink(services.prisma, link, now);
  return getLink(services, caller, id, origin);
}

/**
 * What the investor sees without a token (the link id is the capability): the proposal with the
 * investor masked, the distributor, the link's state and, once confirmed, the order's state and its
 * latest payment. `can_pay`: the order is ACCEPTED and waits for money (no payment PENDING or CAPTURED).
 */
export async function getPublicLink(services: Services, linkId: string): Promise<PublicLinkView> {
  const db = services.prisma;
  const link = await repo.findLinkById(db, linkId);
  if (!link) throw linkNotFound();
  const order = link.orderId ? await findOrderById(db, link.orderId) : null;
  const payment = order ? await latestPaymentOf(db, order.id) : null;
  const schemeCode = order?.schemeCode ?? storedProposal(link).scheme_code ?? null;
  const schemeName = schemeCode ? await schemeNameOf(db, schemeCode) : null;
  const holder = await primaryHolderOf(db, services.cipher, link.investorId);
  const distributor = await distributorNameAndArn(db, link.distributorId);
  return toPublicView(link, { order, payment, schemeCode, schemeName, holder, distributor }, new Date());
}

/** What the investor may pay a link from (the hosted page's choice): bank accounts and REGISTERED mandates, masked. */
export async function linkPaymentOptions(services: Services, linkId: string): Promise<LinkPaymentOptions> {
  const db = services.prisma;
  const link = await repo.findLinkById(db, linkId);
  if (!link) throw linkNotFound();
  const accounts = await bankAccountsOf(db, link.investorId);
  return toPaymentOptions(accounts, await registeredMandatesOf(db, link.distributorId, link.investorId));
}

/** The link that placed an order (its id), if one did: where the payment page sends the investor back. */
export async function linkIdOfOrder(services: Services, orderId: string): Promise<string | null> {
  return (await repo.findLinkByOrderId(services.prisma, orderId))?.id ?? null;
}

/** The payments' return page (registered at start-up, build-services.ts): the page of the link that placed the order. */
export const linkPageOfOrder: ReturnPageOf = async (db, orderId) => {
  const link = await repo.findLinkByOrderId(db, orderId);
  return link ? linkPagePath(link.id) : null;
};

export type ConfirmedOrder = PlacedOrder & { simulation_links: Record<"accept" | "reject" | "fail" | "allot", string> | null };

/** The investor's act on the link: where it came from (client address, user agent). */
export interface Consent {
  ip: string;
  userAgent: string | undefined;
  /** The base of the simulation links when MF_PUBLIC_BASE_URL is unset. */
  origin?: string | undefined;
}

/**
 * The investor confirms: the proposal is placed through placement's own path (every rule now, the
 * time-dependent ones included) and the link moves ACTIVE -> CONFIRMED with the order and the consent,
 * in one transaction under the link's row lock, so concurrent confirmations place one order: the
 * first answers 201, every later one 200 with the same body. A proposal that no longer passes is 400
 * and changes nothing; an EXPIRED or CANCELLED link is 409.
 */
export async function confirmLink(services: Services, linkId: string, consent: Consent): Promise<Stored<ConfirmedOrder>> {
  return services.prisma.$transaction(async (tx) => {
    const link = await repo.lockLink(tx, linkId);
    if (!link) throw linkNotFound();
    if (link.confirmation !== null) return { status: 200, body: link.confirmation as ConfirmedOrder };
    const now = new Date();
    const status = statusAt(link, now);
    if (status !== "ACTIVE") throw invalidState(`The order link is ${status}; only an ACTIVE link can be confirmed`);
    const input = parsePlacementRequest(link.proposal);
    const { order, created } = await placeOrderIn(tx, link.distributorId, input, bodyHash(input));
    if (!created) throw new AppError("CONFLICT", `client_ref ${order.clientRef} is already used by order ${order.id}`);
    const body: ConfirmedOrder = { ...placedOrderView(order), simulation_links: orderSimulationLinks(services, consent.origin, order.id) };
    await confirmActiveLink(tx, link.id, {
      orderId: order.id,
      confirmation: body,
      consentAt: now,
      consentIp: consent.ip,
      consentUserAgent: consent.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    });
    return { status: 201, body };
  });
}

function orderSimulationLinks(services: Services, origin: string | undefined, orderId: string): ConfirmedOrder["simulation_links"] {
  if (services.config.env !== "sandbox") return null;
  const at = `${baseUrl(services, origin)}/api/simulation/orders/v1/${orderId}`;
  return { accept: `${at}/accept`, reject: `${at}/reject`, fail: `${at}/fail`, allot: `${at}/allot` };
}

/**
 * Pays a confirmed link's order once the exchange has ACCEPTED it, through the payment service
 * (`createPayment`). With `caller` (the bearer path) another distributor's link is 404. A payment
 * still PENDING is answered again (200); after a FAILED one a new attempt joins the same basket;
 * after a capture, 409. The link row is locked, so two payments at once start one.
 */
export async function payLink(
  services: Services,
  linkId: string,
  choice: PaymentChoiceInput,
  options: { caller?: Caller | undefined; origin?: string | undefined } = {},
): Promise<Stored<LinkPayment>> {
  return services.prisma.$transaction(async (tx) => {
    const link = await repo.lockLink(tx, linkId);
    if (!link || (options.caller && link.distributorId !== options.caller.distributorId)) throw linkNotFound();
    if (!link.orderId) throw invalidState(`The order link is ${statusAt(link, new Date())}; it is paid once confirmed and accepted by the exchange`);
    const order = await getOrderById(tx, link.orderId);
    const latest = await latestPaymentOf(tx, order.id);
    const answer = (payment: LinkPaymentRow) => toLinkPayment(services, options.origin, link, payment);
    if (latest?.status === "PENDING") return { status: 200, body: answer(latest) };
    if (latest?.status === "CAPTURED" || latest?.status === "REFUNDED") throw invalidState(`The order's payment is ${latest.status} already; there is nothing left to pay`);
    if (order.status !== "ACCEPTED") throw invalidState(`The order is ${order.status}; it can be paid once the exchange has ACCEPTED it`);
    const payment = await createPayment(tx, { order, basketId: link.basketId, ...(await paymentTerms(services, tx, order, choice)) });
    return { status: 201, body: answer(payment) };
  });
}

/** The mode's own checks against the investor's records (400 on the field), and what the payment keeps. */
async function paymentTerms(services: Services, tx: Tx, order: LinkOrder, choice: PaymentChoiceInput) {
  switch (choice.mode) {
    case "UPI":
      // The payment shows the address masked, like every personal detail it stores; the exchange's
      // payment API needs it in clear, so it is also kept encrypted.
      return { mode: choice.mode, details: { vpa: maskEmail(choice.vpa!), vpa_encrypted: services.cipher.encrypt(choice.vpa!) } };
    case "NETBANKING": {
      const accounts = await bankAccountsOf(tx, order.investorId);
      if (!accounts.some((account) => account.id === choice.bank_account_id)) {
        throw validationError([{ path: "bank_account_id", reason: "bank_account_not_found", message: "is not a bank account of the investor: choose one of the investor's bank accounts" }]);
      }
      if (await bankAccountBeingRemoved(tx, order.investorId, choice.bank_account_id!)) {
        throw validationError([{ path: "bank_account_id", reason: "rule_violated", message: "the bank account is being removed: choose another of the investor's bank accounts" }]);
      }
      return { mode: choice.mode, bankAccountId: choice.bank_account_id! };
    }
    case "MANDATE": {
      const debit = { distributorId: order.distributorId, mandateId: choice.mandate_id!, investorId: order.investorId, amount: order.amount };
      const use = await mandateForDebit(tx, debit, "payment");
      if (use.violation !== null) throw validationError([use.violation]);
      return { mode: choice.mode, mandateId: use.mandate.id };
    }
    case "CHEQUE": {
      const cheque = choice.cheque!;
      return { mode: choice.mode, details: { cheque: { number: maskAccountNumber(cheque.number), date: cheque.date, bank_name: maskFreeText(cheque.bank_name) } } };
    }
  }
}

/** Where a link's UPI or net-banking payment stands for the investor's payment page (production). */
export type LinkPaymentPage =
  | { state: "waiting" } // the payment job has not heard from the exchange yet
  | { state: "bank_page"; html: string } // net banking: the bank's page, as the exchange answered it
  | { state: "message"; text: string } // UPI: what the exchange says (approve the collect request)
  | { state: "done" }; // nothing to continue here: the link's page tells the rest

export async function linkPaymentPage(services: Services, linkId: string): Promise<LinkPaymentPage> {
  const link = await repo.findLinkById(services.prisma, linkId);
  if (!link) throw linkNotFound();
  const payment = link.orderId ? await latestPaymentOf(services.prisma, link.orderId) : null;
  if (!payment || payment.status !== "PENDING" || (payment.mode !== "UPI" && payment.mode !== "NETBANKING")) return { state: "done" };
  const details = paymentDetails(payment, services.logger);
  if (details.gateway_page_encrypted !== undefined) return { state: "bank_page", html: services.cipher.decrypt(details.gateway_page_encrypted) };
  if (details.gateway_message !== undefined) return { state: "message", text: details.gateway_message };
  return payment.gatewayReference ? { state: "done" } : { state: "waiting" };
}
