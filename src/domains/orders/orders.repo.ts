import { readRows, type DbOrTx, type Prisma } from "../../platform/db/client.js";
import { HOLDING_MODES, type HoldingMode } from "../investors/investor.states.js";
import { addJobCall, addJobParameters, type JobToAdd } from "../../platform/jobs/jobs.repo.js";
import { ORDER_TYPES, orderTypesWhere, type OrderType } from "./order-types.js";
import { narrowOrNull, narrowTo } from "../../platform/lib/closed-set.js";
import { CANCELLATION_REASONS, CANCELLATION_STATUSES, ORDER_PAYMENT_STATUSES, ORDER_STATUSES, PURCHASE_TYPES, type CancellationReason, type CancellationStatus, type OrderPaymentStatus, type OrderStatus, type PurchaseType } from "./order.states.js";
import { ORDER_FAILURE_CODES, type OrderFailureCode } from "../../integrations/exchange/outcomes.js";

/**
 * Orders (the `orders` table): the row, its one insert, the finders and the conditional moves (the status
 * moves' caller is lifecycle.ts; the payment_status moves' is payments.service.ts). Placement's reads are in
 * placement.repo.ts, the schedules' rows in installments.repo.ts, lists and scans in orders-list.repo.ts.
 */

type StoredOrder = Prisma.OrderGetPayload<object>;

/** An order as stored, its closed-set columns narrowed to their sets. */
export type OrderRow = Omit<StoredOrder, "orderType" | "status" | "paymentStatus" | "purchaseType" | "holdingMode" | "failureCode" | "cancellationStatus" | "cancellationReason"> & {
  orderType: OrderType;
  cancellationStatus: CancellationStatus | null;
  cancellationReason: CancellationReason | null;
  status: OrderStatus;
  paymentStatus: OrderPaymentStatus;
  purchaseType: PurchaseType | null;
  holdingMode: HoldingMode | null;
  failureCode: OrderFailureCode | null;
};

export const orderStatus = (status: string): OrderStatus => narrowTo(ORDER_STATUSES, status, "orders.status");
export const orderTypeOf = (type: string): OrderType => narrowTo(ORDER_TYPES, type, "orders.order_type");

export function toOrderRow(row: StoredOrder): OrderRow {
  return {
    ...row,
    orderType: orderTypeOf(row.orderType),
    status: orderStatus(row.status),
    paymentStatus: narrowTo(ORDER_PAYMENT_STATUSES, row.paymentStatus, "orders.payment_status"),
    purchaseType: narrowOrNull(PURCHASE_TYPES, row.purchaseType, "orders.purchase_type"),
    holdingMode: narrowOrNull(HOLDING_MODES, row.holdingMode, "orders.holding_mode"),
    failureCode: narrowOrNull(ORDER_FAILURE_CODES, row.failureCode, "orders.failure_code"),
    cancellationStatus: narrowOrNull(CANCELLATION_STATUSES, row.cancellationStatus, "orders.cancellation_status"),
    cancellationReason: narrowOrNull(CANCELLATION_REASONS, row.cancellationReason, "orders.cancellation_reason"),
  };
}

/** A numeric column's value to write: a Decimal or its exact text. */
export type Money = Prisma.Decimal | string | null;

/** What a new order is made of: a placed order and an installment's child order alike. */
export interface NewOrder {
  id: string;
  distributorId: string;
  investorId: string;
  investmentAccountId: string;
  orderType: OrderType;
  status: Extract<OrderStatus, "PENDING" | "ACCEPTED">;
  paymentStatus: Extract<OrderPaymentStatus, "NOT_REQUIRED" | "UNPAID">;
  schemeCode: string;
  /** The exchange's code for the scheme (and a switch's or STP's target), chosen at placement; an installment takes its registration's. */
  exchangeSchemeCode?: string | null;
  toExchangeSchemeCode?: string | null;
  holdingMode: HoldingMode | null;
  requestHash: string;
  /** The type's detail objects (sip, stp, swp, switch, euin), as JSON. */
  details: Prisma.JsonValue;
  purchaseType?: PurchaseType | null;
  folioNo?: string | null;
  amount?: Money;
  units?: Money;
  allUnits?: boolean;
  bankAccountId?: string | null;
  mandateId?: string | null;
  clientRef?: string | null;
  remarks?: string | null;
  subBrokerArn?: string | null;
  exchangeOrderNumber?: string | null;
  providerRemark?: string | null;
  parentOrderId?: string | null;
  installmentNo?: number | null;
}

/** Every column of `orders` by the OrderRow field that holds it: the one list its statements are spelled from. */
const ORDER_COLUMNS = {
  id: "id", distributorId: "distributor_id", investorId: "investor_id", investmentAccountId: "investment_account_id",
  orderType: "order_type", status: "status", paymentStatus: "payment_status", purchaseType: "purchase_type", holdingMode: "holding_mode",
  schemeCode: "scheme_code", folioNo: "folio_no", amount: "amount", units: "units", allUnits: "all_units", bankAccountId: "bank_account_id",
  mandateId: "mandate_id", clientRef: "client_ref", remarks: "remarks", subBrokerArn: "sub_broker_arn", details: "details",
  exchangeOrderNumber: "exchange_order_number", providerRemark: "provider_remark", failureCode: "failure_code", nav: "nav",
  allottedUnits: "allotted_units", allottedAmount: "allotted_amount", allotmentDate: "allotment_date", parentOrderId: "parent_order_id",
  installmentNo: "installment_no", exchangeSchemeCode: "exchange_scheme_code", toExchangeSchemeCode: "to_exchange_scheme_code",
  navDateExpected: "nav_date_expected", cancellationStatus: "cancellation_status", cancellationRequestedAt: "cancellation_requested_at",
  cancellationRemark: "cancellation_remark", cancellationReason: "cancellation_reason", dispatchClaimedAt: "dispatch_claimed_at", requestHash: "request_hash",
  createdAt: "created_at", updatedAt: "updated_at",
} as const satisfies Record<keyof StoredOrder, string>;

type Column = keyof typeof ORDER_COLUMNS;

/** The columns as OrderRow names them (a raw statement's RETURNING, or a raw select's list). */
export const RETURNING = Object.entries(ORDER_COLUMNS).map(([field, column]) => (field === column ? column : `${column} AS "${field}"`)).join(", ");

/** Parameters PostgreSQL cannot type from their column alone. */
const CASTS: Partial<Record<Column, string>> = { amount: "numeric", units: "numeric", details: "jsonb", installmentNo: "int", createdAt: "timestamptz", updatedAt: "timestamptz" };

/** What an insert writes, column by column (the others take their defaults). */
function insertedValues(order: NewOrder, now: Date): Partial<Record<Column, unknown>> {
  return {
    id: order.id,
    distributorId: order.distributorId,
    investorId: order.investorId,
    investmentAccountId: order.investmentAccountId,
    orderType: order.orderType,
    status: order.status,
    paymentStatus: order.paymentStatus,
    purchaseType: order.purchaseType ?? null,
    holdingMode: order.holdingMode,
    schemeCode: order.schemeCode,
    folioNo: order.folioNo ?? null,
    amount: moneyText(order.amount),
    units: moneyText(order.units),
    allUnits: order.allUnits ?? false,
    bankAccountId: order.bankAccountId ?? null,
    mandateId: order.mandateId ?? null,
    clientRef: order.clientRef ?? null,
    remarks: order.remarks ?? null,
    subBrokerArn: order.subBrokerArn ?? null,
    details: JSON.stringify(order.details ?? {}),
    exchangeOrderNumber: order.exchangeOrderNumber ?? null,
    providerRemark: order.providerRemark ?? null,
    parentOrderId: order.parentOrderId ?? null,
    installmentNo: order.installmentNo ?? null,
    requestHash: order.requestHash,
    createdAt: now,
    updatedAt: now,
    exchangeSchemeCode: order.exchangeSchemeCode ?? null,
    toExchangeSchemeCode: order.toExchangeSchemeCode ?? null,
  };
}

const moneyText = (value: Money | undefined) => (value === undefined || value === null ? null : value.toString());

/**
 * Inserts an order (a placed order, an installment's child) in ONE statement, with its job when one is given:
 * the job is added only when the order was inserted, so both exist exactly when the statement commits, in the
 * caller's transaction or on its own. Answers the stored order and whether graphile-worker added the job (false
 * without one), or null, writing nothing, when the distributor's client_ref is taken (a concurrent insert of it
 * is waited for first, and the transaction stays usable, so the caller can read the winner through it).
 */
export async function insertOrder(db: DbOrTx, order: NewOrder, job?: JobToAdd): Promise<{ order: OrderRow; jobAdded: boolean } | null> {
  const values = Object.entries(insertedValues(order, new Date())) as Array<[Column, unknown]>;
  const insert = `INSERT INTO orders (${values.map(([field]) => ORDER_COLUMNS[field]).join(", ")})
       VALUES (${values.map(([field], i) => `$${i + 1}${CASTS[field] ? `::${CASTS[field]}` : ""}`).join(", ")})
       ON CONFLICT DO NOTHING
       RETURNING ${RETURNING}`;
  const statement = job
    ? `WITH placed AS (
       ${insert}
     ), job AS (
       SELECT added.id FROM placed, LATERAL ${addJobCall(values.length + 1)} AS added
     )
     SELECT placed.*, (SELECT id FROM job) AS "jobId" FROM placed`
    : insert;
  const rows = await readRows<StoredOrder & { jobId?: bigint | null }>(
    db,
    statement,
    ...values.map(([, value]) => value),
    ...(job ? addJobParameters(job) : []),
  );
  const row = rows[0];
  if (!row) return null;
  const { jobId, ...stored } = row;
  return { order: toOrderRow(stored), jobAdded: jobId !== undefined && jobId !== null };
}

export async function findOrderByClientRef(db: DbOrTx, distributorId: string, clientRef: string): Promise<OrderRow | null> {
  const row = await db.order.findUnique({ where: { distributorId_clientRef: { distributorId, clientRef } } });
  return row && toOrderRow(row);
}

/** One order of one distributor; another distributor's id finds nothing. */
export async function findOrder(db: DbOrTx, distributorId: string, id: string): Promise<OrderRow | null> {
  const row = await db.order.findFirst({ where: { id, distributorId } });
  return row && toOrderRow(row);
}

/** For jobs and moves, which act on behalf of whichever distributor owns the order. */
export async function findOrderById(db: DbOrTx, id: string): Promise<OrderRow | null> {
  const row = await db.order.findUnique({ where: { id } });
  return row && toOrderRow(row);
}

export async function getOrderById(db: DbOrTx, id: string): Promise<OrderRow> {
  return toOrderRow(await db.order.findUniqueOrThrow({ where: { id } }));
}

/** The orders of `ids` that exist (in no particular order). */
export async function findOrdersByIds(db: DbOrTx, ids: readonly string[]): Promise<OrderRow[]> {
  const rows = await db.order.findMany({ where: { id: { in: [...ids] } } });
  return rows.map(toOrderRow);
}

const SIP_TYPES = orderTypesWhere((type) => type.sip);

/** A SIP or XSIP registration of one investment account (what a top-up names). */
export async function findSipOfAccount(db: DbOrTx, investmentAccountId: string, id: string): Promise<OrderRow | null> {
  const row = await db.order.findFirst({ where: { id, investmentAccountId, orderType: { in: SIP_TYPES } } });
  return row && toOrderRow(row);
}

/** The exchange's number and remark for an order it holds, while it stays PENDING. */
export async function noteHeldPlacement(db: DbOrTx, id: string, data: { exchangeOrderNumber: string | null; providerRemark: string | null }): Promise<void> {
  await db.order.updateMany({ where: { id, status: "PENDING" }, data });
}

/**
 * A conditional move of an order's status (and the columns that go with it): false when the order
 * was not in one of `from` any more.
 */
export async function moveOrder(
  tx: DbOrTx,
  id: string,
  from: readonly OrderStatus[],
  data: { status: OrderStatus; exchangeOrderNumber?: string | null; providerRemark?: string | null; failureCode?: OrderFailureCode | null },
): Promise<boolean> {
  const { count } = await tx.order.updateMany({ where: { id, status: { in: [...from] } }, data });
  return count === 1;
}

/**
 * Cancels a PENDING order the exchange has nothing of: no exchange number and no dispatch claim (see
 * claimForDispatch). False when the order is not such an order any more.
 */
export async function cancelUnsent(tx: DbOrTx, id: string): Promise<boolean> {
  const { count } = await tx.order.updateMany({ where: { id, status: "PENDING", exchangeOrderNumber: null, dispatchClaimedAt: null }, data: { status: "CANCELLED" } });
  return count === 1;
}

/**
 * The dispatch's claim of PENDING orders it is about to send: once claimed, a cancel refuses (the order may
 * reach the exchange); a cancel that committed first leaves the order CANCELLED and unclaimed, so it is not
 * sent. The row lock of the two UPDATEs orders them. Answers the ids claimed.
 */
export async function claimForDispatch(db: DbOrTx, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    UPDATE orders SET dispatch_claimed_at = now()
     WHERE id = ANY(${[...ids]}::text[]) AND status = 'PENDING' AND exchange_order_number IS NULL
    RETURNING id`;
  return rows.map((r) => r.id);
}

/** Releases a dispatch claim when the exchange certainly holds nothing of the order (its send was never received). */
export async function releaseDispatchClaim(db: DbOrTx, id: string): Promise<void> {
  await db.order.updateMany({ where: { id, status: "PENDING", exchangeOrderNumber: null }, data: { dispatchClaimedAt: null } });
}

/**
 * Asks for an ACCEPTED registration's cancellation (never asked, or refused before): PENDING from `now`, no
 * remark. False when the order is not such a registration any more (or a cancellation is already asked).
 */
export async function askCancellation(tx: DbOrTx, id: string, registrationTypes: readonly OrderType[], now: Date, reason: CancellationReason): Promise<boolean> {
  const { count } = await tx.order.updateMany({
    where: { id, status: "ACCEPTED", parentOrderId: null, orderType: { in: [...registrationTypes] }, OR: [{ cancellationStatus: null }, { cancellationStatus: "REFUSED" }] },
    data: { cancellationStatus: "PENDING", cancellationRequestedAt: now, cancellationRemark: null, cancellationReason: reason },
  });
  return count === 1;
}

/** The exchange confirmed a pending cancellation: ACCEPTED -> CANCELLED, cancellation CONFIRMED. */
export async function confirmCancellation(tx: DbOrTx, id: string): Promise<boolean> {
  const { count } = await tx.order.updateMany({ where: { id, status: "ACCEPTED", cancellationStatus: "PENDING" }, data: { status: "CANCELLED", cancellationStatus: "CONFIRMED" } });
  return count === 1;
}

/** The exchange refused a pending cancellation: REFUSED with its remark (masked by the caller); the order stays ACCEPTED. */
export async function refuseCancellation(tx: DbOrTx, id: string, remark: string | null): Promise<boolean> {
  const { count } = await tx.order.updateMany({ where: { id, status: "ACCEPTED", cancellationStatus: "PENDING" }, data: { cancellationStatus: "REFUSED", cancellationRemark: remark } });
  return count === 1;
}

export interface MoveFromPending {
  id: string;
  status: Extract<OrderStatus, "ACCEPTED" | "REJECTED" | "FAILED">;
  exchangeOrderNumber: string | null;
  providerRemark: string | null;
  failureCode: OrderFailureCode | null;
}

/**
 * Many conditional moves out of PENDING in one statement (each order with its own columns): answers the
 * ids that were still PENDING and moved.
 */
export async function moveManyFromPending(tx: DbOrTx, moves: readonly MoveFromPending[]): Promise<string[]> {
  if (moves.length === 0) return [];
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE orders AS o
       SET status = m.status, exchange_order_number = m.exchange_order_number, provider_remark = m.provider_remark,
           failure_code = m.failure_code, updated_at = now()
      FROM unnest(${moves.map((m) => m.id)}::text[], ${moves.map((m) => m.status)}::text[], ${moves.map((m) => m.exchangeOrderNumber)}::text[],
                  ${moves.map((m) => m.providerRemark)}::text[], ${moves.map((m) => m.failureCode)}::text[])
           AS m(id, status, exchange_order_number, provider_remark, failure_code)
     WHERE o.id = m.id AND o.status = 'PENDING'
    RETURNING o.id`;
  return rows.map((r) => r.id);
}

/** ACCEPTED -> ALLOTTED with the allotment's figures; never a registration itself (`registrationTypes`). */
export async function allotAccepted(
  tx: DbOrTx,
  id: string,
  registrationTypes: readonly OrderType[],
  allotment: { nav: string; allottedUnits: string; allottedAmount: string; folioNo: string; allotmentDate: Date },
): Promise<boolean> {
  const { count } = await tx.order.updateMany({
    where: { id, status: "ACCEPTED", NOT: { orderType: { in: [...registrationTypes] }, parentOrderId: null } },
    data: { status: "ALLOTTED", ...allotment },
  });
  return count === 1;
}

/** A conditional move of an order's payment_status: false when it was not ACCEPTED with one of `from`. */
export async function movePaymentStatusOfAccepted(tx: DbOrTx, id: string, from: readonly OrderPaymentStatus[], to: OrderPaymentStatus): Promise<boolean> {
  const { count } = await tx.order.updateMany({ where: { id, status: "ACCEPTED", paymentStatus: { in: [...from] } }, data: { paymentStatus: to } });
  return count === 1;
}

export async function setPaymentStatus(tx: DbOrTx, id: string, paymentStatus: OrderPaymentStatus): Promise<void> {
  await tx.order.update({ where: { id }, data: { paymentStatus } });
}

/** Allotted orders with a folio and units, oldest allotment first: what the sandbox registrar reports as holdings. */
export async function allottedOrdersWithFolio(db: DbOrTx) {
  const rows = await db.order.findMany({
    where: { status: "ALLOTTED", folioNo: { not: null }, allottedUnits: { not: null } },
    orderBy: [{ allotmentDate: "asc" }, { id: "asc" }],
    select: {
      id: true, orderType: true, schemeCode: true, folioNo: true, allottedUnits: true, allottedAmount: true, nav: true, details: true,
      distributorId: true, investorId: true, allotmentDate: true, parentOrderId: true, createdAt: true,
    },
  });
  return rows.map((row) => ({ ...row, orderType: orderTypeOf(row.orderType) }));
}

/** The exchange's own number for an installment order, in place of the schedule's (once: only over that one). */
export async function setInstallmentExchangeNumber(db: DbOrTx, id: string, from: string, exchangeOrderNumber: string): Promise<boolean> {
  const { count } = await db.order.updateMany({ where: { id, exchangeOrderNumber: from }, data: { exchangeOrderNumber } });
  return count === 1;
}

/** The NAV date an order is expected to get (YYYY-MM-DD), once known. */
export async function setNavDateExpected(tx: DbOrTx, id: string, navDate: string): Promise<void> {
  await tx.order.update({ where: { id }, data: { navDateExpected: new Date(`${navDate}T00:00:00Z`) } });
}
