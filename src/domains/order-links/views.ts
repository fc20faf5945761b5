import { decimalOrNull } from "../../platform/lib/formats.js";
import { maskAccountNumber, maskName, maskPan } from "../../platform/lib/mask.js";
import { INVESTOR_OPTIONS } from "../../integrations/exchange/code-tables.js";
import type { Services } from "../shared/services.js";
import type { PlaceOrderInput } from "../orders/orders.schemas.js";
import type { getOrderById } from "../orders/orders.service.js";
import type { createPayment } from "../payments/payments.service.js";
import type { bankAccountsOf } from "../investors/investors.service.js";
import type { registeredMandatesOf } from "../mandates/mandates.service.js";
import type { LinkRow } from "./order-links.repo.js";
import { awaitsPayment, statusAt } from "./rules.js";

/** An order and a payment as their services answer them. */
export type LinkOrder = Awaited<ReturnType<typeof getOrderById>>;
export type LinkPaymentRow = Awaited<ReturnType<typeof createPayment>>;

/** Where generated links point: MF_PUBLIC_BASE_URL, else the address the request was sent to. */
export function baseUrl(services: Services, origin: string | undefined): string {
  return services.config.publicBaseUrl ?? origin ?? `http://localhost:${services.config.port}`;
}

/** The link's page for the investor (`src/pages/link-page.tsx`), and where it continues a UPI or net-banking payment in production. */
export const linkPagePath = (linkId: string) => `/links/${encodeURIComponent(linkId)}`;
export const linkPaymentPagePath = (linkId: string) => `${linkPagePath(linkId)}/payment`;

export type LinkView = ReturnType<typeof toView>;

export function toView(link: LinkRow, base: string, paymentId: string | null, now: Date) {
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

/** The proposal as the link stored it (a placement request, checked when the link was made). */
export const storedProposal = (link: LinkRow) => link.proposal as Partial<PlaceOrderInput>;

/** What the public view is made of besides the link: the order and its latest payment once confirmed, the names shown. */
export interface PublicLinkFacts {
  order: LinkOrder | null;
  payment: LinkPaymentRow | null;
  schemeCode: string | null;
  schemeName: string | null;
  holder: { name: string; pan: string } | null;
  distributor: { name: string; arn: string } | null;
}

export type PublicLinkView = ReturnType<typeof toPublicView>;

/** The proposal with the investor masked, the distributor, and the link's, order's and payment's states. */
export function toPublicView(link: LinkRow, { order, payment, schemeCode, schemeName, holder, distributor }: PublicLinkFacts, now: Date) {
  const proposal = storedProposal(link);
  return {
    id: link.id,
    status: statusAt(link, now),
    expires_at: link.expiresAt.toISOString(),
    order_type: link.orderType,
    scheme_code: schemeCode,
    scheme_name: schemeName,
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

export function toPaymentOptions(
  accounts: Awaited<ReturnType<typeof bankAccountsOf>>,
  mandates: Awaited<ReturnType<typeof registeredMandatesOf>>,
): LinkPaymentOptions {
  return {
    bank_accounts: accounts.map((account) => ({
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

export interface LinkPayment {
  id: string;
  amount: number;
  basket_id: string;
  payment_url: string | null;
  simulation_links: { capture: string; fail: string } | null;
  status: LinkPaymentRow["status"];
}

export function toLinkPayment(services: Services, origin: string | undefined, link: LinkRow, payment: LinkPaymentRow): LinkPayment {
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
