/**
 * What the OpenAPI document says of each operation beyond what the routers' meta and schemas give
 * trpc-to-openapi: the real success status (it writes 200 for everything), a repeat's 200 where it
 * differs, the 404s and 409s an operation can answer besides a path id's, the Idempotency-Key, and
 * a description where the meta has only a summary. Keyed by operationId; src/openapi.ts applies it.
 */
export interface OperationDoc {
  /** Set when the operation has no meta description. */
  description?: string;
  /** The operation creates: 201 with this description replaces trpc-to-openapi's 200. */
  created?: string;
  /** The operation answers a repeat 200 with the same body: this description. */
  repeat?: string;
  /** Why the operation answers 404 (an id in the body); path ids get a 404 without saying so here. */
  notFound?: string;
  /** Why the operation answers 409. */
  conflict?: string;
  /** The operation honours an Idempotency-Key header (always optional: without one it simply runs). */
  idempotent?: boolean;
}

const IDEMPOTENCY_CONFLICT = "the Idempotency-Key was used in the last 24 hours with a different body (CONFLICT: send a new key, or the same body)";
const SANDBOX_ONLY = "Outside the sandbox the simulation does not exist (NOT_FOUND): use the sandbox.";
const PATH_ID = "The id is unknown or another distributor's (NOT_FOUND): check the id, and the token's distributor.";

export const OPERATIONS: Record<string, OperationDoc> = {
  "auth-token": {},
  "brokerChanges-create": {
    created: "The request was created: PENDING_DOCUMENT for WET_SIGNATURE (upload the signed form next), SUBMITTED for TWO_FA. A repeat with the same Idempotency-Key answers the same 201.",
    conflict: `Conflict: ${IDEMPOTENCY_CONFLICT}.`,
    idempotent: true,
  },
  "brokerChanges-list": { description: "Your broker change requests, newest first, filtered by `status` and `investor_id`; page with `limit` and `cursor`." },
  "brokerChanges-get": { description: "One of your broker change requests, with its document's metadata once uploaded. " + PATH_ID },
  "brokerChanges-getImage": { notFound: "No signed form was uploaded yet (NOT_FOUND): upload it with POST .../{id}/image first." },
  "brokerChanges-uploadImage": {
    conflict:
      "The request does not await a signed form (INVALID_STATE): only a WET_SIGNATURE request in PENDING_DOCUMENT " +
      "takes one (a TWO_FA request needs none; an uploaded one is SUBMITTED).",
  },
  "holdings-lookup": {},
  "investors-create": {
    created: "The investor was created (status PENDING), with its investment account and bank accounts. A repeat with the same Idempotency-Key answers the same 201.",
    conflict: `Conflict: an investor with this PAN is already yours (CONFLICT: use that investor, its id is in the message), or ${IDEMPOTENCY_CONFLICT}.`,
    idempotent: true,
  },
  "investors-list": { description: "Your investors, newest first, filtered by `status`; page with `limit` and `cursor`. PAN, mobile, email and account numbers are masked." },
  "investors-get": { description: "One of your investors, masked, with its investment accounts and bank accounts (their ids are what orders and mandates name). " + PATH_ID },
  "holdings-investor": { description: "The holdings reported under your ARN for the investor's primary PAN, by registrar, with a summary. " + PATH_ID },
  "investors-sync": {
    description: "Queues a status check with the exchange for your PENDING investors (or only `investor_id`): the answers move them to REGISTERED or REJECTED and send the investor.* webhooks. Answers how many were queued.",
    notFound: "`investor_id` is unknown or another distributor's (NOT_FOUND): check the id.",
  },
  "mandates-create": {
    created: "The mandate was created (status PENDING) and is being registered with the exchange. A repeat with the same Idempotency-Key answers the same 201.",
    notFound: "`investor_id` is unknown or another distributor's (NOT_FOUND): check the id.",
    conflict: `The investor is not REGISTERED yet (INVALID_STATE: wait for investor.registered, or sync it), or ${IDEMPOTENCY_CONFLICT}.`,
    idempotent: true,
  },
  "mandates-get": { description: "One of your mandates, with its status and the exchange's remark. " + PATH_ID },
  "mandates-cancel": {
    description: "Cancels a REGISTERED mandate: it takes no new orders; orders already placed keep it. " + PATH_ID,
    conflict: "The mandate is not REGISTERED (INVALID_STATE): only a REGISTERED mandate can be cancelled.",
  },
  "masters-countries": { description: "Every ISO 3166-1 country with its alpha-2 code, the `country_code` values investor addresses and FATCA fields take." },
  "masters-states": { description: "The states of a country by ISO 3166-1 alpha-2 `code`: India's 36 states and union territories (the `state_code` of an Indian address); empty for other countries." },
  "masters-investorOptions": { description: "Every closed vocabulary of the investor form (tax statuses, occupations, income slabs...) with the values the API takes and their labels." },
  "masters-scheme": {
    description:
      "One scheme of the scheme master by AMFI `scheme_code`, with its `exchange_codes` (the exchange's codes for its ISINs and each one's trading rules: " +
      "what it takes, minimums, maximums, multiples, cut-offs, dates) and `sip_rules` (the SIP master's frequencies, days, amounts and installments). " +
      "An order takes the code for its holding mode and must meet its rules. An unknown scheme code is NOT_FOUND.",
  },
  "masters-schemes": { description: "Searches the scheme master (`q`: name or scheme code; `amc_code`), with each scheme's latest NAV, its trading rules' summary and its exchange codes and SIP rules; page with `limit` and `cursor`." },
  "orderLinks-create": {
    created: "The link was created (ACTIVE): send its `url` to the investor. A repeated client_ref or Idempotency-Key with the same body answers the same 201.",
    notFound: "The investment account is unknown or another distributor's (NOT_FOUND): check `investment_account_id`.",
    conflict: `Conflict: \`client_ref\` already names another link or order with a different body (CONFLICT: use a new client_ref), or ${IDEMPOTENCY_CONFLICT}.`,
    idempotent: true,
  },
  "orderLinks-list": { description: "Your order links, newest first, filtered by `status`; page with `limit` and `cursor`." },
  "orderLinks-get": { description: "One of your order links: the proposal, its status, and once confirmed the order's status and latest payment. " + PATH_ID },
  "orderLinks-cancel": {
    description: "Cancels an ACTIVE link: the investor can no longer confirm it. " + PATH_ID,
    conflict: "The link is not ACTIVE (INVALID_STATE): a confirmed, expired or cancelled link cannot be cancelled.",
  },
  "orders-list": { description: "Your orders, newest first, filtered by `status` and `investor_id`; page with `limit` and `cursor`." },
  "orders-place": {
    created: "The order was placed (status PENDING) and will be dispatched to the exchange. A repeated client_ref or Idempotency-Key with the same body answers the same 201 with the existing order.",
    notFound: "The investment account is unknown or another distributor's (NOT_FOUND): check `investment_account_id`.",
    conflict: `Conflict: \`client_ref\` already names an order placed with a different body (CONFLICT: use a new client_ref), or ${IDEMPOTENCY_CONFLICT}.`,
    idempotent: true,
  },
  "orders-get": { description: "One of your orders, masked, with its status, payment status and allotment. " + PATH_ID },
  "orders-cancel": {
    description:
      "Only the cancels the exchange honours. A PENDING order not yet sent to the exchange is CANCELLED at once (event order.cancelled). " +
      "An ACCEPTED SIP, XSIP, STP or SWP registration: its cancellation is sent to the exchange and the order stays ACCEPTED with " +
      "`cancellation.status` PENDING; it becomes CANCELLED (event order.cancelled, remaining installments cancelled) when the exchange " +
      "confirms, and stays ACCEPTED with `cancellation.status` REFUSED and the exchange's remark when it refuses (it may be asked again). " +
      "Asking again while the cancellation is PENDING answers the same order. No installment is created while it is pending. A cancel " +
      "records no refund. " + PATH_ID,
    conflict:
      "INVALID_STATE: an ACCEPTED lump sum, redemption, switch, SIP top-up or installment (the exchange does not cancel an accepted " +
      "one-time order); an order being sent to the exchange or held there (wait for order.accepted); an allotted, rejected, failed or " +
      "cancelled order.",
  },
  "orders-installments": {},
  "payments-get": { description: "One of your payments, masked (a UPI address as `a***@psp`, a cheque by its last 4 digits), with its failure code when it failed. " + PATH_ID },
  "publicLinks-get": {},
  "publicLinks-confirm": {
    created: "The order was placed (the link is CONFIRMED).",
    repeat: "The link was confirmed before: the same body as the first confirmation.",
    conflict: "The link is EXPIRED or CANCELLED (INVALID_STATE): ask the distributor for a new link; or its client_ref was taken by another order meanwhile (CONFLICT).",
  },
  "publicLinks-pay": {
    created: "A payment attempt was started: follow `payment_url` (UPI, net banking) or wait for the mandate debit or the cheque.",
    repeat: "A payment attempt is still PENDING: the same attempt again.",
    conflict: "The link's order is not ACCEPTED yet, or is paid already (INVALID_STATE): wait for the exchange's acceptance; nothing to pay after a capture.",
  },
  "simulation-rejectBrokerChange": { notFound: SANDBOX_ONLY,
    description: "Sandbox only: the registrar rejects a SUBMITTED broker change request, with an optional remark (event broker_change.rejected). " + PATH_ID,
    conflict: "The request is not SUBMITTED (INVALID_STATE)." },
  "simulation-refreshHoldings": { notFound: SANDBOX_ONLY, description: "Sandbox only: runs the daily holdings refresh now (the sandbox registrar's feed, then the import) and answers what it imported." },
  "simulation-registerInvestor": { notFound: SANDBOX_ONLY, description: "Sandbox only: the exchange registers a PENDING investor (event investor.registered). " + PATH_ID, conflict: "The investor is not PENDING (INVALID_STATE)." },
  "simulation-rejectInvestor": { notFound: SANDBOX_ONLY, description: "Sandbox only: the exchange rejects a PENDING investor, with an optional remark (event investor.rejected). " + PATH_ID, conflict: "The investor is not PENDING (INVALID_STATE)." },
  "simulation-registerMandate": { notFound: SANDBOX_ONLY, description: "Sandbox only: the bank approves a PENDING mandate (event mandate.registered). " + PATH_ID, conflict: "The mandate is not PENDING (INVALID_STATE)." },
  "simulation-rejectMandate": { notFound: SANDBOX_ONLY, description: "Sandbox only: the bank declines a PENDING mandate, with an optional remark (event mandate.rejected). " + PATH_ID, conflict: "The mandate is not PENDING (INVALID_STATE)." },
  "simulation-acceptOrder": { notFound: SANDBOX_ONLY, description: "Sandbox only: the exchange accepts a PENDING order held for simulation (event order.accepted). " + PATH_ID, conflict: "The order is not PENDING (INVALID_STATE)." },
  "simulation-allotOrder": { notFound: SANDBOX_ONLY, description: "Sandbox only: allots an ACCEPTED order; units, nav, folio_no and allotment_date are optional (derived from the amount and the scheme's NAV). Event order.allotted. " + PATH_ID, conflict: "The order is not ACCEPTED, or is a registration whose installments are allotted instead (INVALID_STATE)." },
  "simulation-failOrder": { notFound: SANDBOX_ONLY, description: "Sandbox only: the order's dispatch fails in transport and the order ends FAILED (event order.failed). " + PATH_ID, conflict: "The order is not PENDING (INVALID_STATE)." },
  "simulation-nextInstallment": { notFound: SANDBOX_ONLY, conflict: "The order is not an ACCEPTED registration with an installment left, or its cancellation is pending (INVALID_STATE)." },
  "simulation-refuseCancelOrder": {
    notFound: SANDBOX_ONLY,
    conflict: "The order is not a SIP, XSIP, STP or SWP registration, or not ACCEPTED (a confirmed cancellation has made it CANCELLED) (INVALID_STATE).",
  },
  "simulation-rejectOrder": { notFound: SANDBOX_ONLY, description: "Sandbox only: the exchange rejects a PENDING order held for simulation, with an optional remark (event order.rejected). " + PATH_ID, conflict: "The order is not PENDING (INVALID_STATE)." },
  "simulation-capturePayment": { notFound: SANDBOX_ONLY, description: "Sandbox only: the gateway captures a PENDING payment; the order's payment_status becomes PAID (event payment.captured). " + PATH_ID, conflict: "The payment is not PENDING (INVALID_STATE)." },
  "simulation-failPayment": { notFound: SANDBOX_ONLY, description: "Sandbox only: a PENDING payment fails with `failure_code` (default bank_declined); a new attempt may follow (event payment.failed). " + PATH_ID, conflict: "The payment is not PENDING (INVALID_STATE)." },
  "simulation-refundPayment": { notFound: SANDBOX_ONLY, description: "Sandbox only: a CAPTURED payment is refunded (event payment.refunded). " + PATH_ID, conflict: "The payment is not CAPTURED (INVALID_STATE)." },
  "webhooks-deliveries": { description: "Your webhook deliveries, newest first, filtered by `status` and `event`; page with `limit` and `cursor`." },
  "webhooks-delivery": { description: "One of your deliveries with every attempt (time, status code, latency, error). " + PATH_ID },
  "webhooks-retry": {
    description: "Queues a PARKED or FAILED delivery for an attempt now. " + PATH_ID,
    conflict: "The delivery is neither PARKED nor FAILED (INVALID_STATE): it is delivered, or already queued.",
  },
  "webhooks-subscribe": {
    created: "The subscription was created; `secret` signs its deliveries and is shown only in this answer (and its Idempotency-Key repeats).",
    conflict: `Conflict: ${IDEMPOTENCY_CONFLICT}.`,
    idempotent: true,
  },
  "webhooks-subscriptions": { description: "Your active subscriptions, without their secrets." },
  "webhooks-unsubscribe": {},
};

/** The tags, one per domain, in the order the reference shows them. */
export const TAGS: Array<{ name: string; description: string }> = [
  { name: "auth", description: "Access tokens for API clients (OAuth 2.0 client credentials). Every other operation but the public link pages needs one." },
  { name: "masters", description: "Reference data: countries and states, the investor form's vocabularies, the scheme master with NAVs and trading rules." },
  { name: "investors", description: "Investors (UCC) with their investment accounts and bank accounts; registration with the exchange." },
  { name: "mandates", description: "Bank mandates (e-NACH or physical) that SIPs and mandate payments debit." },
  { name: "orders", description: "Orders of the eight types (lump sum, redemption, switch, SIP, XSIP, STP, SWP, SIP top-up), their status and installments." },
  { name: "payments", description: "Payments of orders: UPI, net banking, mandate debit, cheque." },
  { name: "holdings", description: "Holdings reported under your ARN by the registrars (CAMS, KFintech)." },
  { name: "order links", description: "Proposals sent to investors as a link: they confirm (and pay) on a hosted page without an account." },
  { name: "order links (public)", description: "The investor's side of an order link: no token, the link id is the capability; pay takes your token." },
  { name: "broker changes (beta)", description: "Requests to move an investor's existing folio under your ARN, with a signed form or the registrar's 2FA." },
  { name: "webhooks", description: "Subscriptions to events, signed deliveries and their retries." },
  { name: "simulation (sandbox only)", description: "The exchange, bank, gateway and registrar's moves, on demand. 404 outside the sandbox." },
];
