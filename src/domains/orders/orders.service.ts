import type { DbOrTx } from "../../platform/db/client.js";
import { bodyHash, idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { enqueueCommitted, jobToAdd } from "../shared/jobs/enqueue.js";
import { addJob, type JobToAdd } from "../../platform/jobs/jobs.repo.js";
import { AppError, notFound, validationError, type DetailReason } from "../../platform/lib/errors.js";
import { issuesToDetails, readCursor, toPage } from "../../platform/lib/zod.js";
import { rupeesToDecimal } from "../../platform/lib/formats.js";
import { newId } from "../../platform/lib/ids.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { folioLockIn } from "../holdings/folio-lock-in.js";
import { folioUnits } from "../holdings/holdings.service.js";
import { lockInViolations } from "./lock-in-rules.js";
import { mandateForDebit } from "../mandates/mandates.service.js";
import { latestPaymentIds } from "../payments/payments.service.js";
import { cancelUnsentOrder, requestCancellation } from "./lifecycle.js";
import { isRegistration, ORDER_TYPE } from "./order-types.js";
import { exchangeViolations, mandateValidityViolations, targetViolations } from "./exchange-rules.js";
import { accountViolations, holdingViolations, nominationViolations, requestedQuantity, sameSchemeViolations, topUpViolations, type RuleViolation } from "./rules.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import { PlaceOrderRequest, type ListOrdersInput, type PlaceOrderInput } from "./orders.schemas.js";
import * as repo from "./orders.repo.js";
import type { OrderRow } from "./orders.repo.js";
import { listInstallments as installmentsOf } from "./installments.repo.js";
import { listOrders as listOrderRows } from "./orders-list.repo.js";
import { readPlacementFacts, readPlacementScheme } from "./placement.repo.js";
import { findOrderWithLatest } from "./order-view.repo.js";
import { latestPauses } from "./pause.repo.js";
import { installmentView, placedOrderView, toOrderView, type OrderView, type PlacedOrder } from "./views.js";

const SCOPE_PLACE = "POST /api/orders/v1/";
/** Dispatch attempts before a transport failure ends the order in FAILED. */
export const DISPATCH_ATTEMPTS = 5;

/** An order's dispatch job: one per order (its key), DISPATCH_ATTEMPTS attempts. */
export const dispatchJobOf = (orderId: string): JobToAdd =>
  jobToAdd("orders__dispatch", { order_id: orderId }, { jobKey: `orders__dispatch:${orderId}`, maxAttempts: DISPATCH_ATTEMPTS });

/**
 * Validates an order against the caller's account, the investor's state, the scheme master and the
 * per-type rules, then persists it (PENDING) and queues its dispatch. A repeated client_ref with the same
 * body answers the existing order; with another body it is a conflict.
 *
 * The dispatch job is added right after the order commits, batched with the other placements of the moment
 * (enqueueCommitted): graphile-worker's add_job notifies, and PostgreSQL serialises the commits of notifying
 * transactions, which held concurrent placements to half the rate (docs/benchmarks.md). The order row is the
 * durable record: one whose job was never added (the process died in between) is queued by the minute's
 * sweep, and at each worker's start (jobs/dispatch-recovery.ts queueLostDispatches).
 */
export async function placeOrder(
  services: Services,
  caller: Caller,
  input: PlaceOrderInput,
  idempotencyKey: string | undefined,
): Promise<Stored<PlacedOrder>> {
  const requestHash = bodyHash(input);
  let dispatch: JobToAdd | null = null;
  const place = async (db: DbOrTx): Promise<Stored<PlacedOrder>> => {
    const { order, created, dispatchJob } = await placeOrderIn(db, caller.distributorId, input, requestHash, { dispatchAfterCommit: true });
    dispatch = dispatchJob;
    return created ? { status: 201, body: placedOrderView(order) } : repeatOf(order, requestHash);
  };
  const placed = await placeOnce(services, caller, input, idempotencyKey, requestHash, place);
  if (dispatch) await queueDispatch(services, dispatch);
  return placed;
}

async function placeOnce(
  services: Services,
  caller: Caller,
  input: PlaceOrderInput,
  idempotencyKey: string | undefined,
  requestHash: string,
  place: (db: DbOrTx) => Promise<Stored<PlacedOrder>>,
): Promise<Stored<PlacedOrder>> {
  // Without an Idempotency-Key nothing needs a transaction: the reads lock nothing (in a READ COMMITTED
  // transaction each sees what was committed when it ran, as here) and the order is one statement.
  if (idempotencyKey === undefined) return place(services.prisma);

  const repeat = input.client_ref ? await repo.findOrderByClientRef(services.prisma, caller.distributorId, input.client_ref) : null;
  if (repeat) return repeatOf(repeat, requestHash);
  return idempotent(services.prisma, { distributorId: caller.distributorId, scope: SCOPE_PLACE, key: idempotencyKey, body: input }, place);
}

/** The committed order's dispatch job; a failure leaves the order to the sweep, and the placement stands. */
async function queueDispatch(services: Services, job: JobToAdd): Promise<void> {
  const added = await enqueueCommitted(services.prisma, job).catch((error: unknown) => {
    services.logger.warn({ err: error, job_key: job.jobKey }, "the dispatch job of a placed order was not added; the status sync's sweep queues it");
    return true;
  });
  // graphile-worker skips a keyed job only while a worker holds a pending job of the same key; a new
  // order's key has none, so this is a safety net that no test can reach.
  if (!added) await addJob(services.prisma, job);
}

/**
 * The core of placement, inside the caller's transaction (an order link's confirm, a keyed placement) or
 * on its own: every rule checked now, then the PENDING order written by one statement (orders.repo.ts
 * insertOrder). With `dispatchAfterCommit` the dispatch job is answered for the caller to add once the order
 * has committed (placeOrder); otherwise the same statement adds it, so order and job commit together (an order
 * link's confirm). `created` is false when the distributor's client_ref already holds an order (committed
 * before, or concurrently by a transaction this one waited for); that order is answered and nothing is written.
 */
export async function placeOrderIn(
  tx: DbOrTx,
  distributorId: string,
  input: PlaceOrderInput,
  requestHash: string,
  options: { dispatchAfterCommit?: boolean } = {},
): Promise<{ order: OrderRow; created: boolean; dispatchJob: JobToAdd | null }> {
  // A duplicate that waited for a connection while the first committed is answered before the
  // validation queries, so a burst of duplicates holds each connection briefly.
  const committed = input.client_ref ? await repo.findOrderByClientRef(tx, distributorId, input.client_ref) : null;
  if (committed) return { order: committed, created: false, dispatchJob: null };
  const { account, schemeCode, mandateId, exchangeSchemeCode, toExchangeSchemeCode } = await checkOrderProposal(tx, distributorId, input);
  const { amount, units } = requestedQuantity(input);
  const id = newId("ord");
  const dispatchJob = dispatchJobOf(id);
  // A concurrent placement of the same client_ref makes this insert wait for it and then skip, leaving
  // the transaction usable: the winner, committed by then, is read through this same transaction.
  const inserted = await repo.insertOrder(tx, {
    id,
    distributorId,
    investorId: account.investorId,
    investmentAccountId: account.id,
    orderType: input.order_type,
    status: "PENDING",
    paymentStatus: ORDER_TYPE[input.order_type].payment,
    purchaseType: input.purchase_type,
    holdingMode: input.holding_mode ?? account.holdingMode,
    schemeCode,
    exchangeSchemeCode,
    toExchangeSchemeCode,
    folioNo: input.folio_no,
    amount: amount?.toFixed(2) ?? null,
    units: units?.toFixed(3) ?? null,
    allUnits: input.all_units === true,
    bankAccountId: input.bank_account_id,
    mandateId,
    clientRef: input.client_ref,
    // Free text, sent to the exchange and shown back: stored with PANs masked.
    remarks: maskFreeText(input.remarks ?? null),
    subBrokerArn: input.sub_broker_arn,
    details: JSON.parse(JSON.stringify({ euin: input.euin, sip: input.sip, stp: input.stp, switch: input.switch, swp: input.swp })),
    requestHash,
  }, options.dispatchAfterCommit ? undefined : dispatchJob);
  if (!inserted) {
    const winner = input.client_ref ? await repo.findOrderByClientRef(tx, distributorId, input.client_ref) : null;
    if (!winner) throw new Error(`Order ${id} was not inserted and no order holds its client_ref`);
    return { order: winner, created: false, dispatchJob: null };
  }
  if (options.dispatchAfterCommit) return { order: inserted.order, created: true, dispatchJob };
  // graphile-worker skips a keyed job only while a worker holds a pending job of the same key; a new
  // order's key has none, so this is a safety net (addJob asks again) that no test can reach.
  if (!inserted.jobAdded) await addJob(tx, dispatchJob);
  return { order: inserted.order, created: true, dispatchJob: null };
}

function repeatOf(existing: OrderRow, requestHash: string): Stored<PlacedOrder> {
  if (existing.requestHash !== requestHash) {
    throw new AppError("CONFLICT", `client_ref ${existing.clientRef} is already used by order ${existing.id} with a different body`);
  }
  return { status: 201, body: placedOrderView(existing) };
}

/**
 * The placement rules that read stored data (the distributor's account and its investor's state,
 * bank accounts, mandate, the SIP a top-up names, the scheme master, the holdings), none of which
 * compares a date with today: 404 for an account that is not the distributor's, 400 with every
 * violated rule. An order link's proposal is checked with these at creation; the schema's
 * time-dependent rules (start dates today or later) wait for its confirmation.
 */
export async function checkOrderProposal(tx: DbOrTx, distributorId: string, input: PlaceOrderInput) {
  const { violations, ...checked } = await checkOrder(tx, distributorId, input);
  if (violations.length > 0) {
    throw new AppError("VALIDATION_ERROR", "The order breaks the rules for its type, scheme or account", { details: violations });
  }
  return checked;
}

/**
 * A stored proposal read as a placement request now: every schema rule, the time-dependent ones
 * included (start dates today or later in India). A proposal that no longer passes is a 400 with
 * the same details as a placement.
 */
export function parsePlacementRequest(proposal: unknown): PlaceOrderInput {
  const parsed = PlaceOrderRequest.safeParse(proposal);
  if (!parsed.success) throw validationError(issuesToDetails(parsed.error.issues), "The order breaks the rules for its type, scheme or account");
  return parsed.data;
}

async function checkOrder(tx: DbOrTx, distributorId: string, input: PlaceOrderInput) {
  const facts = await readPlacementFacts(tx, distributorId, input.investment_account_id, input.scheme_code ?? null);
  const account = facts.account;
  if (!account) throw notFound("Investment account");
  const violations: RuleViolation[] = accountViolations(input, account);
  const add = (path: string, reason: DetailReason, message: string) => violations.push({ path, reason, message });

  if (input.mandate_id) {
    const amount = input.amount === undefined ? null : rupeesToDecimal(input.amount);
    const use = await mandateForDebit(tx, { distributorId, mandateId: input.mandate_id, investorId: account.investorId, amount }, "order");
    if (use.violation) violations.push(use.violation);
    if (use.mandate) violations.push(...mandateValidityViolations(input, use.mandate));
  }
  let mandateId = input.mandate_id ?? null;

  let schemeCode = input.scheme_code ?? "";
  let sipSchemeNamed = true;
  if (ORDER_TYPE[input.order_type].topsUpSip && input.sip?.sip_order_id) {
    const sip = await repo.findSipOfAccount(tx, account.id, input.sip.sip_order_id);
    const refused = topUpViolations(sip);
    if (!sip || refused.length > 0) {
      violations.push(...refused);
      sipSchemeNamed = false;
    } else {
      schemeCode = sip.schemeCode;
      // A top-up of an XSIP is debited from the XSIP's mandate unless another is named.
      mandateId ??= sip.mandateId;
    }
  }
  const holdingMode = input.holding_mode ?? account.holdingMode;
  violations.push(...nominationViolations(input, holdingMode, account.investor.nominationStatus));
  const today = todayInIndia();
  let exchangeSchemeCode: string | null = null;
  if (schemeCode && sipSchemeNamed) {
    const scheme = schemeCode === input.scheme_code ? facts.scheme : await readPlacementScheme(tx, schemeCode);
    const resolved = exchangeViolations({ ...input, scheme_code: schemeCode }, scheme, holdingMode, today);
    violations.push(...resolved.violations);
    exchangeSchemeCode = resolved.code?.code ?? null;
    const beyondHolding = scheme && input.folio_no && ORDER_TYPE[input.order_type].checkedAgainstHolding
      ? holdingViolations(input, scheme, await folioUnits(tx, distributorId, input.folio_no, scheme.schemeCode))
      : [];
    violations.push(...beyondHolding);
    // Locked units are judged only within what the folio holds (one refusal for one cause).
    if (scheme && input.folio_no && ORDER_TYPE[input.order_type].units !== "in" && beyondHolding.length === 0) {
      violations.push(...lockInViolations(input, scheme, await folioLockIn(tx, distributorId, input.folio_no, scheme.schemeCode, today)));
    }
  }
  const target = input.switch?.to_scheme_code ?? input.stp?.to_scheme_code;
  let toExchangeSchemeCode: string | null = null;
  const sameScheme = sameSchemeViolations(input, schemeCode);
  violations.push(...sameScheme);
  if (target && sameScheme.length === 0) {
    const resolved = targetViolations(input, await readPlacementScheme(tx, target), target, holdingMode, today);
    violations.push(...resolved.violations);
    toExchangeSchemeCode = resolved.code?.code ?? null;
  }
  return { account, schemeCode, mandateId, exchangeSchemeCode, toExchangeSchemeCode, violations };
}

export async function getOrder(services: Services, caller: Caller, id: string): Promise<OrderView> {
  const found = await findOrderWithLatest(services.prisma, caller.distributorId, id);
  if (!found) throw notFound("Order");
  return toOrderView(found.order, found.paymentId, found.pause, services.logger);
}

/**
 * Cancels only what the exchange honours (bse-starmf-orders.md section 5). A PENDING order the exchange has
 * nothing of is CANCELLED at once. An ACCEPTED SIP, XSIP, STP or SWP registration gets its cancellation
 * asked at the exchange (cancellation PENDING, the job `orders__cancel_at_exchange` in the same transaction)
 * and stays ACCEPTED until the exchange answers; asking again while it is pending answers the same view.
 * Everything else is 409: a one-time order or an installment the exchange has (it cancels neither), an order
 * being sent (the dispatch has claimed it) or held at the exchange, or an order that has ended.
 */
export async function cancelOrder(services: Services, caller: Caller, id: string): Promise<OrderView> {
  const order = await repo.findOrder(services.prisma, caller.distributorId, id);
  if (!order) throw notFound("Order");
  await services.prisma.$transaction(async (tx) => {
    let row = order;
    if (row.status === "PENDING") {
      if (await cancelUnsentOrder(tx, row)) return;
      // Sent meanwhile, or being sent: decide on what the order is now.
      row = await repo.getOrderById(tx, id);
      if (row.status === "PENDING" && row.exchangeOrderNumber) {
        throw new AppError("INVALID_STATE", `Order ${id} is PENDING at the exchange (held as ${row.exchangeOrderNumber}); wait for order.accepted or order.rejected (a registration can then be cancelled)`);
      }
      if (row.status === "PENDING") {
        throw new AppError("INVALID_STATE", `Order ${id} is being sent to the exchange; wait for order.accepted (a registration can then be cancelled)`);
      }
    }
    if (row.status !== "ACCEPTED" || !isRegistration(row)) throw cancelRefusal(row);
    if (row.cancellationStatus === "PENDING") return;
    if (await requestCancellation(tx, id)) return;
    row = await repo.getOrderById(tx, id);
    if (row.status !== "ACCEPTED" || row.cancellationStatus !== "PENDING") throw cancelRefusal(row);
  });
  return getOrder(services, caller, id);
}

function cancelRefusal(order: OrderRow): AppError {
  if (order.status === "ACCEPTED") {
    const what = order.parentOrderId ? `an installment of ${order.parentOrderId}` : `a ${order.orderType}`;
    return new AppError("INVALID_STATE", `Order ${order.id} is ${what} ACCEPTED by the exchange; the exchange does not cancel an accepted one-time order (only a SIP, XSIP, STP or SWP registration)`);
  }
  return new AppError("INVALID_STATE", `Order ${order.id} is ${order.status}; only a PENDING order not yet sent to the exchange, or an ACCEPTED SIP, XSIP, STP or SWP registration, can be cancelled`);
}

export async function listOrders(
  services: Services,
  caller: Caller,
  query: ListOrdersInput,
): Promise<{ data: OrderView[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const rows = await listOrderRows(services.prisma, {
    distributorId: caller.distributorId,
    status: query.status,
    investorId: query.investor_id,
    orderType: query.order_type,
    parentOrderId: query.parent_order_id,
    afterId,
    limit: query.limit,
  });
  const ids = rows.map((r) => r.id);
  const [payments, pauses] = await Promise.all([latestPaymentIds(services.prisma, ids), latestPauses(services.prisma, ids)]);
  return toPage(rows, query.limit, (row) => [row.id], (row) => toOrderView(row, payments.get(row.id) ?? null, pauses.get(row.id) ?? null, services.logger));
}

export async function listInstallments(services: Services, caller: Caller, id: string) {
  const order = await repo.findOrder(services.prisma, caller.distributorId, id);
  if (!order) throw notFound("Order");
  const rows = await installmentsOf(services.prisma, id);
  return { data: rows.map(installmentView) };
}

/** Orders as other domains read them (order links: the order a link placed, a client_ref already taken). */
export async function findOrderById(db: DbOrTx, id: string): Promise<OrderRow | null> {
  return repo.findOrderById(db, id);
}

export async function getOrderById(db: DbOrTx, id: string): Promise<OrderRow> {
  return repo.getOrderById(db, id);
}

export async function findOrderByClientRef(db: DbOrTx, distributorId: string, clientRef: string): Promise<OrderRow | null> {
  return repo.findOrderByClientRef(db, distributorId, clientRef);
}

/** Every ALLOTTED order with its folio: what the sandbox registrar's books are made of. */
export async function allottedOrdersWithFolio(db: DbOrTx) {
  return repo.allottedOrdersWithFolio(db);
}
