import type { Tx } from "../../platform/db/client.js";
import type { EventSink } from "../events/sinks.js";
import { bodyHash, idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import { AppError, invalidState, validationError } from "../../platform/lib/errors.js";
import { decimalOrNull } from "../../platform/lib/formats.js";
import { newId, newSecretId } from "../../platform/lib/ids.js";
import { maskAccountNumber, maskEmail, maskFreeText, maskName, maskPan } from "../../platform/lib/mask.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { findDistributor } from "../auth/auth.repo.js";
import { findInvestorById } from "../investors/investors.repo.js";
import { decryptDetails } from "../investors/investors.service.js";
import { findMandate, registeredMandatesOf } from "../mandates/mandates.repo.js";
import { INVESTOR_OPTIONS } from "../../integrations/exchange/code-tables.js";
import { findScheme } from "../masters/schemes.repo.js";
import { findOrderByClientRef, findOrderById, getOrderById, type OrderRow } from "../orders/orders.repo.js";
import type { PlaceOrderInput } from "../orders/orders.schemas.js";
import { checkOrderProposal, parsePlacementRequest, placedOrderView, placeOrderIn, type PlacedOrder } from "../orders/orders.service.js";
import { getPaymentById, latestPaymentIds, latestPaymentOf, type PaymentRow } from "../payments/payments.repo.js";
import { paymentDetails } from "../payments/payment-details.js";
import type { ReturnPageOf } from "../payments/return-page.js";
import { createPayment } from "../payments/payments.service.js";
import type { OrderLinkStatus } from "./link.states.js";
import type { CreateLinkInput, PaymentChoiceInput } from "./order-links.schemas.js";
import * as repo from "./order-links.repo.js";
import type { LinkRow } from "./order-links.repo.js";

const SCOPE_CREATE = "POST /api/order-links/v1";
const HOUR_MS = 3_600_000;
/** The consent's user agent is evidence, not a blob: kept up to this length. */
export const USER_AGENT_MAX = 512;

/** Whatever the id (unknown, malformed, another distributor's), the same answer: nothing to tell apart. */
const linkNotFound = () => new AppError("NOT_FOUND", "Order link not found");

/** Where generated links point: MF_PUBLIC_BASE_URL, else the address the request was sent to. */
function baseUrl(services: Services, origin: string | undefined): string {
  return services.config.publicBaseUrl ?? origin ?? `http://localhost:${services.config.port}`;
}

/** A link past `expires_at` is EXPIRED, whether or not the expiry job has moved it yet. */
function statusAt(link: LinkRow, now: Date): OrderLinkStatus {
  return link.status === "ACTIVE" && link.expiresAt <= now ? "EXPIRED" : link.status;
}

export type LinkView = ReturnType<typeof toView>;

function toView(link: LinkRow, base: string, paymentId: string | null, now: Date) {
  return {
    id: link.id,
    url: `${base}/links/${link.id}`,
    status: statusAt(link, now),
    expires_at: link.expiresAt.toISOString(),
    created_at: link.createdAt.toISOString(),
    client_ref: link.clientRef,
    order_type: link.orderType,
    order_id: link.orderId,
    payment_id: paymentId,
  };
}

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
  if (!(await repo.cancelActive(services.prisma, id, now))) {
    const current = (await repo.findLinkById(services.prisma, id)) ?? link;
    throw invalidState(`The order link is ${statusAt(current, now)}; only an ACTIVE link can be cancelled`);
  }
  return getLink(services, caller, id, origin);
}

/** The expiry job: ACTIVE -> EXPIRED once due; a job that runs early comes back at `expires_at`. */
export async function expireLink(services: Services, id: string): Promise<void> {
  const link = await repo.findLinkById(services.prisma, id);
  if (!link || link.status !== "ACTIVE") return;
  if (link.expiresAt > new Date()) {
    await enqueue(services.prisma, "order_links__expire", { link_id: id }, { runAt: link.expiresAt, jobKey: `order_links__expire:${id}` });
    return;
  }
  await repo.expireDue(services.prisma, id, new Date());
}

type StoredProposal = Partial<PlaceOrderInput>;

export type PublicLinkView = Awaited<ReturnType<typeof getPublicLink>>;

/**
 * What the investor sees without a token (the link id is the capability): the proposal with the
 * investor masked, the distributor, the link's state and, once confirmed, the order's state and its
 * latest payment. `can_pay`: the order is ACCEPTED and waits for money (no payment PENDING or CAPTURED).
 */
export async function getPublicLink(services: Services, linkId: string) {
  const db = services.prisma;
  const link = await repo.findLinkById(db, linkId);
  if (!link) throw linkNotFound();
  const proposal = link.proposal as StoredProposal;
  const order = link.orderId ? await findOrderById(db, link.orderId) : null;
  const payment = order ? await latestPaymentOf(db, order.id) : null;
  const schemeCode = order?.schemeCode ?? proposal.scheme_code ?? null;
  const scheme = schemeCode ? await findScheme(db, schemeCode) : null;
  const investor = await findInvestorById(db, link.investorId);
  const holder = investor ? decryptDetails(services.cipher, investor).primary_holder : null;
  const distributor = await findDistributor(db, link.distributorId);
  return {
    id: link.id,
    status: statusAt(link, new Date()),
    expires_at: link.expiresAt.toISOString(),
    order_type: link.orderType,
    scheme_code: schemeCode,
    scheme_name: scheme?.name ?? null,
    amount: order ? decimalOrNull(order.amount) : (proposal.amount ?? null),
    units: order ? decimalOrNull(order.units) : (proposal.units ?? null),
    all_units: order ? order.allUnits : proposal.all_units === true,
    sip: proposal.sip ?? null,
    stp: proposal.stp ?? null,
    swp: proposal.swp ?? null,
    switch: proposal.switch ?? null,
    investor_name: holder ? maskName(holder.name) : "",
    investor_pan: holder ? maskPan(holder.pan) : "",
    distributor_name: distributor?.name ?? "",
    distributor_arn: distributor?.arn ?? "",
    order_id: order?.id ?? null,
    order_status: order?.status ?? null,
    payment_status: order?.paymentStatus ?? null,
    can_pay: order !== null && awaitsPayment(order, payment),
    latest_payment: payment && {
      id: payment.id,
      mode: payment.mode,
      amount: decimalOrNull(payment.amount) as number,
      status: payment.status,
      failure_code: payment.failureCode,
    },
  };
}

/** What the investor may pay a link from (the hosted page's choice): bank accounts and REGISTERED mandates, masked. */
export interface LinkPaymentOptions {
  bank_accounts: Array<{ id: string; account_number: string; account_type: string; ifsc: string; is_primary: boolean }>;
  mandates: Array<{ id: string; amount_limit: number; bank_account_number: string }>;
}

const BANK_ACCOUNT_LABELS = new Map(INVESTOR_OPTIONS.bank_account_types.map((o) => [o.value, o.label]));
const maskedAccount = (last4: string) => maskAccountNumber(`XXXXXXXX${last4}`);

export async function linkPaymentOptions(services: Services, linkId: string): Promise<LinkPaymentOptions> {
  const db = services.prisma;
  const link = await repo.findLinkById(db, linkId);
  if (!link) throw linkNotFound();
  const investor = await findInvestorById(db, link.investorId);
  const mandates = await registeredMandatesOf(db, link.distributorId, link.investorId);
  return {
    bank_accounts: (investor?.bankAccounts ?? []).map((account) => ({
      id: account.id,
      account_number: maskedAccount(account.accountNumberLast4),
      account_type: BANK_ACCOUNT_LABELS.get(account.accountType) ?? account.accountType,
      ifsc: account.ifsc,
      is_primary: account.isPrimary,
    })),
    mandates: mandates.map((mandate) => ({
      id: mandate.id,
      amount_limit: mandate.amountLimit.toNumber(),
      bank_account_number: maskedAccount(mandate.bankAccount.accountNumberLast4),
    })),
  };
}

/** The link that placed an order (its id), if one did: where the payment page sends the investor back. */
export async function linkIdOfOrder(services: Services, orderId: string): Promise<string | null> {
  return (await repo.findLinkByOrderId(services.prisma, orderId))?.id ?? null;
}

/** The payments' return page (registered at start-up, build-services.ts): the page of the link that placed the order. */
export const linkPageOfOrder: ReturnPageOf = async (db, orderId) => {
  const link = await repo.findLinkByOrderId(db, orderId);
  return link ? `/links/${encodeURIComponent(link.id)}` : null;
};

function awaitsPayment(order: OrderRow, latest: PaymentRow | null): boolean {
  return order.status === "ACCEPTED" && (order.paymentStatus === "UNPAID" || order.paymentStatus === "FAILED") && latest?.status !== "PENDING";
}

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
    const confirmed = await repo.confirmActive(tx, link.id, {
      orderId: order.id,
      confirmation: body,
      consentAt: now,
      consentIp: consent.ip,
      consentUserAgent: consent.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    });
    if (!confirmed) throw new Error("A locked ACTIVE order link could not be confirmed");
    return { status: 201, body };
  });
}

function orderSimulationLinks(services: Services, origin: string | undefined, orderId: string): ConfirmedOrder["simulation_links"] {
  if (services.config.env !== "sandbox") return null;
  const at = `${baseUrl(services, origin)}/api/simulation/orders/v1/${orderId}`;
  return { accept: `${at}/accept`, reject: `${at}/reject`, fail: `${at}/fail`, allot: `${at}/allot` };
}

/** The page where the investor continues a UPI or net-banking payment of a link in production (its page: `src/pages/link-page.tsx`). */
export const linkPaymentPagePath = (linkId: string) => `/links/${encodeURIComponent(linkId)}/payment`;

export interface LinkPayment {
  id: string;
  amount: number;
  basket_id: string;
  payment_url: string | null;
  simulation_links: { capture: string; fail: string } | null;
  status: PaymentRow["status"];
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
    const answer = (payment: PaymentRow) => linkPaymentView(services, options.origin, link, payment);
    if (latest?.status === "PENDING") return { status: 200, body: answer(latest) };
    if (latest?.status === "CAPTURED" || latest?.status === "REFUNDED") throw invalidState(`The order's payment is ${latest.status} already; there is nothing left to pay`);
    if (order.status !== "ACCEPTED") throw invalidState(`The order is ${order.status}; it can be paid once the exchange has ACCEPTED it`);
    const payment = await createPayment(tx, { order, basketId: link.basketId, ...(await paymentTerms(services, tx, order, choice)) });
    return { status: 201, body: answer(payment) };
  });
}

/** The mode's own checks against the investor's records (400 on the field), and what the payment keeps. */
async function paymentTerms(services: Services, tx: Tx, order: OrderRow, choice: PaymentChoiceInput) {
  switch (choice.mode) {
    case "UPI":
      // The payment shows the address masked, like every personal detail it stores; the exchange's
      // payment API needs it in clear, so it is also kept encrypted.
      return { mode: choice.mode, details: { vpa: maskEmail(choice.vpa!), vpa_encrypted: services.cipher.encrypt(choice.vpa!) } };
    case "NETBANKING": {
      const investor = await findInvestorById(tx, order.investorId);
      if (!investor?.bankAccounts.some((account) => account.id === choice.bank_account_id)) {
        throw validationError([{ path: "bank_account_id", reason: "bank_account_not_found", message: "is not a bank account of the investor: choose one of the investor's bank accounts" }]);
      }
      return { mode: choice.mode, bankAccountId: choice.bank_account_id! };
    }
    case "MANDATE": {
      const named = await findMandate(tx, order.distributorId, choice.mandate_id!);
      const mandate = named?.investorId === order.investorId ? named : null;
      if (!mandate || mandate.status !== "REGISTERED") {
        throw validationError([
          { path: "mandate_id", reason: "mandate_not_registered", message: mandate ? `the mandate is ${mandate.status}: choose a REGISTERED mandate of the investor` : "is not a mandate of the investor: choose one of the investor's REGISTERED mandates" },
        ]);
      }
      if (order.amount && mandate.amountLimit.lessThan(order.amount)) {
        throw validationError([
          { path: "mandate_id", reason: "amount_exceeds_mandate_limit", message: `the amount ${order.amount.toFixed(2)} exceeds the mandate's limit of ${mandate.amountLimit.toFixed(2)}: choose another mandate or payment mode` },
        ]);
      }
      return { mode: choice.mode, mandateId: mandate.id };
    }
    case "CHEQUE": {
      const cheque = choice.cheque!;
      return { mode: choice.mode, details: { cheque: { number: maskAccountNumber(cheque.number), date: cheque.date, bank_name: maskFreeText(cheque.bank_name) } } };
    }
  }
}

function linkPaymentView(services: Services, origin: string | undefined, link: LinkRow, payment: PaymentRow): LinkPayment {
  const base = baseUrl(services, origin);
  const sandbox = services.config.env === "sandbox";
  const redirects = payment.mode === "UPI" || payment.mode === "NETBANKING";
  // The simulator's page only where the simulated exchange takes the payment (not with MF_EXCHANGE=bse).
  const simulated = services.sandboxExchange !== undefined;
  const at = `${base}/api/simulation/payments/v1/${payment.id}`;
  return {
    id: payment.id,
    amount: decimalOrNull(payment.amount) as number,
    basket_id: (payment.basketId ?? link.basketId)!,
    // Production: the link's payment page, which shows what the exchange's payment API answered.
    payment_url: redirects ? (simulated ? `${base}/sandbox/payments/${payment.id}` : `${base}${linkPaymentPagePath(link.id)}`) : null,
    simulation_links: sandbox ? { capture: `${at}/capture`, fail: `${at}/fail` } : null,
    status: payment.status,
  };
}

/**
 * An event sink (registered at start-up): when a payment is captured, the link whose order it pays
 * becomes PAID, in the transaction that records the capture. Payments know nothing of links.
 */
export const markLinkPaid: EventSink = async (tx, event) => {
  if (event.event !== "payment.captured") return;
  const { payment_id: paymentId } = event.data as { payment_id: string };
  const payment = await getPaymentById(tx, paymentId);
  const link = await repo.findLinkByOrderId(tx, payment.orderId);
  if (link) await repo.markPaid(tx, link.id);
};

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
