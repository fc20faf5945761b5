import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { HOLDING_MODES, INVESTOR_STATUSES, type HoldingMode, type InvestorStatus } from "../investors/investor.states.js";
import { addJobCall, addJobParameters, type JobToAdd } from "../../platform/jobs/jobs.repo.js";
import { Decimal } from "../../platform/lib/money.js";
import { EXCHANGE_TRANSACTION_MODES } from "../../integrations/exchange/masters/scheme-master.js";
import type { ExchangeSchemeRow } from "../masters/exchange-schemes.repo.js";
import { ORDER_TYPES, orderTypesWhere, type OrderType } from "./order-types.js";
import { narrowOrNull, narrowTo } from "../../platform/lib/closed-set.js";
import { CANCELLATION_STATUSES, INSTALLMENT_STATUSES, ORDER_PAYMENT_STATUSES, ORDER_STATUSES, PURCHASE_TYPES, type CancellationStatus, type InstallmentStatus, type OrderPaymentStatus, type OrderStatus, type PurchaseType } from "./order.states.js";
import { ORDER_FAILURE_CODES, type OrderFailureCode } from "../../integrations/exchange/outcomes.js";

type StoredOrder = Prisma.OrderGetPayload<object>;
type StoredInstallment = Prisma.OrderInstallmentGetPayload<object>;

/** An order as stored, its closed-set columns narrowed to their sets. */
export type OrderRow = Omit<StoredOrder, "orderType" | "status" | "paymentStatus" | "purchaseType" | "holdingMode" | "failureCode" | "cancellationStatus"> & {
  orderType: OrderType;
  cancellationStatus: CancellationStatus | null;
  status: OrderStatus;
  paymentStatus: OrderPaymentStatus;
  purchaseType: PurchaseType | null;
  holdingMode: HoldingMode | null;
  failureCode: OrderFailureCode | null;
};
export type InstallmentRow = Omit<StoredInstallment, "status"> & { status: InstallmentStatus };

const orderStatus = (status: string): OrderStatus => narrowTo(ORDER_STATUSES, status, "orders.status");
const orderTypeOf = (type: string): OrderType => narrowTo(ORDER_TYPES, type, "orders.order_type");

function toOrderRow(row: StoredOrder): OrderRow {
  return {
    ...row,
    orderType: orderTypeOf(row.orderType),
    status: orderStatus(row.status),
    paymentStatus: narrowTo(ORDER_PAYMENT_STATUSES, row.paymentStatus, "orders.payment_status"),
    purchaseType: narrowOrNull(PURCHASE_TYPES, row.purchaseType, "orders.purchase_type"),
    holdingMode: narrowOrNull(HOLDING_MODES, row.holdingMode, "orders.holding_mode"),
    failureCode: narrowOrNull(ORDER_FAILURE_CODES, row.failureCode, "orders.failure_code"),
    cancellationStatus: narrowOrNull(CANCELLATION_STATUSES, row.cancellationStatus, "orders.cancellation_status"),
  };
}

function toInstallmentRow(row: StoredInstallment): InstallmentRow {
  return { ...row, status: narrowTo(INSTALLMENT_STATUSES, row.status, "order_installments.status") };
}
type Money = Prisma.Decimal | string | null;

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

/**
 * Inserts an order and returns it as stored. Answers null, inserting nothing, when the distributor's
 * client_ref is taken: a concurrent insert of the same client_ref is waited for, and the transaction
 * stays usable, so the caller can read the winner through it.
 */
export async function insertOrder(tx: DbOrTx, order: NewOrder): Promise<OrderRow | null> {
  const [row] = await tx.order.createManyAndReturn({
    skipDuplicates: true,
    data: [
      {
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
        exchangeSchemeCode: order.exchangeSchemeCode ?? null,
        toExchangeSchemeCode: order.toExchangeSchemeCode ?? null,
        folioNo: order.folioNo ?? null,
        amount: order.amount ?? null,
        units: order.units ?? null,
        allUnits: order.allUnits ?? false,
        bankAccountId: order.bankAccountId ?? null,
        mandateId: order.mandateId ?? null,
        clientRef: order.clientRef ?? null,
        remarks: order.remarks ?? null,
        subBrokerArn: order.subBrokerArn ?? null,
        details: (order.details ?? {}) as Prisma.InputJsonValue,
        exchangeOrderNumber: order.exchangeOrderNumber ?? null,
        providerRemark: order.providerRemark ?? null,
        parentOrderId: order.parentOrderId ?? null,
        installmentNo: order.installmentNo ?? null,
        requestHash: order.requestHash,
      },
    ],
  });
  return row ? toOrderRow(row) : null;
}

/** The columns of `orders` as OrderRow names them (RETURNING of the raw placement statement). */
const ORDER_COLUMNS = `id, distributor_id AS "distributorId", investor_id AS "investorId", investment_account_id AS "investmentAccountId",
  order_type AS "orderType", status, payment_status AS "paymentStatus", purchase_type AS "purchaseType", holding_mode AS "holdingMode",
  scheme_code AS "schemeCode", folio_no AS "folioNo", amount, units, all_units AS "allUnits", bank_account_id AS "bankAccountId",
  mandate_id AS "mandateId", client_ref AS "clientRef", remarks, sub_broker_arn AS "subBrokerArn", details,
  exchange_order_number AS "exchangeOrderNumber", provider_remark AS "providerRemark", failure_code AS "failureCode", nav,
  allotted_units AS "allottedUnits", allotted_amount AS "allottedAmount", allotment_date AS "allotmentDate",
  nav_date_expected AS "navDateExpected",
  parent_order_id AS "parentOrderId", installment_no AS "installmentNo", request_hash AS "requestHash",
  exchange_scheme_code AS "exchangeSchemeCode", to_exchange_scheme_code AS "toExchangeSchemeCode", nav_date_expected AS "navDateExpected",
  cancellation_status AS "cancellationStatus", cancellation_requested_at AS "cancellationRequestedAt", cancellation_remark AS "cancellationRemark",
  dispatch_claimed_at AS "dispatchClaimedAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * Placement's write in ONE statement: the order (as insertOrder writes it) and, only when it was inserted,
 * its job, so both exist exactly when the statement commits: in the caller's transaction, or on its own
 * without one. Answers the stored order and whether graphile-worker added the job, or null, writing
 * nothing, when the distributor's client_ref is taken (a concurrent insert of it is waited for first).
 */
export async function insertOrderWithJob(db: DbOrTx, order: NewOrder, job: JobToAdd): Promise<{ order: OrderRow; jobAdded: boolean } | null> {
  const now = new Date();
  const values = [
    order.id, order.distributorId, order.investorId, order.investmentAccountId, order.orderType, order.status, order.paymentStatus,
    order.purchaseType ?? null, order.holdingMode, order.schemeCode, order.folioNo ?? null, moneyText(order.amount), moneyText(order.units),
    order.allUnits ?? false, order.bankAccountId ?? null, order.mandateId ?? null, order.clientRef ?? null, order.remarks ?? null,
    order.subBrokerArn ?? null, JSON.stringify(order.details ?? {}), order.exchangeOrderNumber ?? null, order.providerRemark ?? null,
    order.parentOrderId ?? null, order.installmentNo ?? null, order.requestHash, now, order.exchangeSchemeCode ?? null, order.toExchangeSchemeCode ?? null,
  ];
  const rows = await db.$queryRawUnsafe<Array<StoredOrder & { jobId: bigint | null }>>(
    `WITH placed AS (
       INSERT INTO orders (id, distributor_id, investor_id, investment_account_id, order_type, status, payment_status, purchase_type,
         holding_mode, scheme_code, folio_no, amount, units, all_units, bank_account_id, mandate_id, client_ref, remarks, sub_broker_arn,
         details, exchange_order_number, provider_remark, parent_order_id, installment_no, request_hash, created_at, updated_at,
         exchange_scheme_code, to_exchange_scheme_code)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric, $13::numeric, $14, $15, $16, $17, $18, $19, $20::jsonb, $21,
         $22, $23, $24::int, $25, $26::timestamptz, $26::timestamptz, $27, $28)
       ON CONFLICT DO NOTHING
       RETURNING ${ORDER_COLUMNS}
     ), job AS (
       SELECT added.id FROM placed, LATERAL ${addJobCall(values.length + 1)} AS added
     )
     SELECT placed.*, (SELECT id FROM job) AS "jobId" FROM placed`,
    ...values,
    ...addJobParameters(job),
  );
  const row = rows[0];
  if (!row) return null;
  const { jobId, ...stored } = row;
  return { order: toOrderRow(stored), jobAdded: jobId !== null };
}

const moneyText = (value: Money | undefined) => (value === undefined || value === null ? null : value.toString());

/** What placement reads of the distributor's investment account: its investor's state and bank accounts. */
export interface PlacementAccount {
  id: string;
  investorId: string;
  holdingMode: HoldingMode | null;
  investor: { status: InvestorStatus; bankAccounts: Array<{ id: string }> };
}

/** A SIP master row of an exchange code, as placement checks it. */
export interface PlacementSipRule {
  frequency: string;
  dates: number[];
  active: boolean;
  minAmount: Decimal | null;
  maxAmount: Decimal | null;
  multiple: Decimal | null;
  minInstallments: number | null;
  maxInstallments: number | null;
  /** Days from registration to the first installment, at least and at most. */
  minGapDays: number | null;
  maxGapDays: number | null;
}

/** What choosing a code reads of an exchange row (orders/exchange-code.ts). */
export type CodeCandidate = Pick<
  ExchangeSchemeRow,
  "code" | "uniqueNo" | "isin" | "transactionMode" | "active" | "amcActive" | "startDate" | "endDate" | "reopeningDate" |
  "purchaseAllowed" | "redemptionAllowed" | "sipAllowed" | "stpAllowed" | "swpAllowed" | "switchAllowed"
>;

/** An exchange code of the scheme, with the rules placement checks (exchange_schemes and its SIP rules). */
export interface PlacementCode extends CodeCandidate {
  schemeType: string | null;
  minPurchaseAmount: Decimal | null;
  minAdditionalAmount: Decimal | null;
  maxPurchaseAmount: Decimal | null;
  purchaseMultiple: Decimal | null;
  minRedemptionAmount: Decimal | null;
  maxRedemptionAmount: Decimal | null;
  redemptionAmountMultiple: Decimal | null;
  minRedemptionUnits: Decimal | null;
  maxRedemptionUnits: Decimal | null;
  redemptionUnitsMultiple: Decimal | null;
  sipRules: PlacementSipRule[];
}

/** The scheme placement names: our master's row (its ISINs, the NAV its holding check values units at) and its exchange codes. */
export interface PlacementScheme {
  schemeCode: string;
  isinGrowth: string | null;
  isinReinvestment: string | null;
  nav: Decimal | null;
  codes: PlacementCode[];
}

/**
 * The exchange codes of the scheme aliased `s`, as one JSON array (numbers as text, so they stay exact), each
 * with its SIP rules: a subquery of the placement statements.
 */
const EXCHANGE_CODES_JSON = `COALESCE((
  SELECT json_agg(json_build_object(
    'code', e.code, 'unique_no', e.unique_no, 'isin', e.isin, 'transaction_mode', e.transaction_mode, 'active', e.active,
    'amc_active', e.amc_active, 'start_date', e.start_date::text, 'end_date', e.end_date::text, 'reopening_date', e.reopening_date::text,
    'purchase_allowed', e.purchase_allowed, 'redemption_allowed', e.redemption_allowed, 'sip_allowed', e.sip_allowed,
    'stp_allowed', e.stp_allowed, 'swp_allowed', e.swp_allowed, 'switch_allowed', e.switch_allowed, 'scheme_type', e.scheme_type,
    'min_purchase_amount', e.min_purchase_amount::text, 'min_additional_amount', e.min_additional_amount::text,
    'max_purchase_amount', e.max_purchase_amount::text, 'purchase_multiple', e.purchase_multiple::text,
    'min_redemption_amount', e.min_redemption_amount::text, 'max_redemption_amount', e.max_redemption_amount::text,
    'redemption_amount_multiple', e.redemption_amount_multiple::text, 'min_redemption_units', e.min_redemption_units::text,
    'max_redemption_units', e.max_redemption_units::text, 'redemption_units_multiple', e.redemption_units_multiple::text,
    'sip_rules', COALESCE((SELECT json_agg(json_build_object(
        'frequency', r.frequency, 'dates', r.dates, 'active', r.active, 'min_amount', r.min_amount::text, 'max_amount', r.max_amount::text,
        'multiple', r.multiple::text, 'min_installments', r.min_installments, 'max_installments', r.max_installments,
        'min_gap_days', r.min_gap_days, 'max_gap_days', r.max_gap_days) ORDER BY r.frequency)
      FROM exchange_sip_rules r WHERE r.code = e.code), '[]'::json)
  ) ORDER BY e.unique_no NULLS LAST, e.code)
  FROM exchange_schemes e WHERE e.isin = s.isin_growth OR e.isin = s.isin_reinvestment), '[]'::json)`;

interface StoredCode {
  code: string; unique_no: number | null; isin: string; transaction_mode: string; active: boolean; amc_active: boolean;
  start_date: string | null; end_date: string | null; reopening_date: string | null;
  purchase_allowed: boolean; redemption_allowed: boolean; sip_allowed: boolean; stp_allowed: boolean; swp_allowed: boolean; switch_allowed: boolean;
  scheme_type: string | null;
  min_purchase_amount: string | null; min_additional_amount: string | null; max_purchase_amount: string | null; purchase_multiple: string | null;
  min_redemption_amount: string | null; max_redemption_amount: string | null; redemption_amount_multiple: string | null;
  min_redemption_units: string | null; max_redemption_units: string | null; redemption_units_multiple: string | null;
  sip_rules: Array<{
    frequency: string; dates: number[] | null; active: boolean; min_amount: string | null; max_amount: string | null; multiple: string | null;
    min_installments: number | null; max_installments: number | null; min_gap_days: number | null; max_gap_days: number | null;
  }>;
}

const dateOrNull = (text: string | null) => (text === null ? null : new Date(`${text}T00:00:00Z`));

function toPlacementCode(c: StoredCode): PlacementCode {
  return {
    code: c.code, uniqueNo: c.unique_no, isin: c.isin, active: c.active, amcActive: c.amc_active,
    transactionMode: narrowTo(EXCHANGE_TRANSACTION_MODES, c.transaction_mode, "exchange_schemes.transaction_mode"),
    startDate: dateOrNull(c.start_date), endDate: dateOrNull(c.end_date), reopeningDate: dateOrNull(c.reopening_date),
    purchaseAllowed: c.purchase_allowed, redemptionAllowed: c.redemption_allowed, sipAllowed: c.sip_allowed,
    stpAllowed: c.stp_allowed, swpAllowed: c.swp_allowed, switchAllowed: c.switch_allowed, schemeType: c.scheme_type,
    minPurchaseAmount: decimal(c.min_purchase_amount), minAdditionalAmount: decimal(c.min_additional_amount),
    maxPurchaseAmount: decimal(c.max_purchase_amount), purchaseMultiple: decimal(c.purchase_multiple),
    minRedemptionAmount: decimal(c.min_redemption_amount), maxRedemptionAmount: decimal(c.max_redemption_amount),
    redemptionAmountMultiple: decimal(c.redemption_amount_multiple), minRedemptionUnits: decimal(c.min_redemption_units),
    maxRedemptionUnits: decimal(c.max_redemption_units), redemptionUnitsMultiple: decimal(c.redemption_units_multiple),
    sipRules: c.sip_rules.map((r) => ({
      frequency: r.frequency, dates: r.dates ?? [], active: r.active, minAmount: decimal(r.min_amount), maxAmount: decimal(r.max_amount),
      multiple: decimal(r.multiple), minInstallments: r.min_installments, maxInstallments: r.max_installments,
      minGapDays: r.min_gap_days, maxGapDays: r.max_gap_days,
    })),
  };
}

/**
 * What every placement reads before it decides, in one statement: the distributor's investment account
 * (null when it is not theirs) with its investor's status and bank account ids, and the scheme named with its
 * exchange codes (null when the master has none, or none was named).
 */
export async function readPlacementFacts(
  db: DbOrTx,
  distributorId: string,
  accountId: string,
  schemeCode: string | null,
): Promise<{ account: PlacementAccount | null; scheme: PlacementScheme | null }> {
  const [row] = await db.$queryRawUnsafe<PlacementFactsRow[]>(
    `SELECT a.id AS account_id, a.investor_id, a.holding_mode, i.status AS investor_status,
            ARRAY(SELECT b.id FROM bank_accounts b WHERE b.investor_id = a.investor_id) AS bank_account_ids,
            s.scheme_code, s.isin_growth, s.isin_reinvestment, s.nav::text AS nav,
            CASE WHEN s.scheme_code IS NULL THEN NULL ELSE ${EXCHANGE_CODES_JSON} END AS codes
       FROM (SELECT 1) AS one
       LEFT JOIN (investment_accounts a JOIN investors i ON i.id = a.investor_id) ON a.id = $1 AND a.distributor_id = $2
       LEFT JOIN schemes s ON s.scheme_code = $3`,
    accountId,
    distributorId,
    schemeCode,
  );
  if (!row) throw new Error("The placement facts query answered no row");
  const account: PlacementAccount | null = row.account_id === null ? null : {
    id: row.account_id,
    investorId: row.investor_id!,
    holdingMode: narrowOrNull(HOLDING_MODES, row.holding_mode, "investment_accounts.holding_mode"),
    investor: { status: narrowTo(INVESTOR_STATUSES, row.investor_status!, "investors.status"), bankAccounts: row.bank_account_ids!.map((id) => ({ id })) },
  };
  return { account, scheme: toPlacementScheme(row) };
}

/** Another scheme an order names (a switch's or STP's target, a top-up's SIP's scheme), as readPlacementFacts reads the first. */
export async function readPlacementScheme(db: DbOrTx, schemeCode: string): Promise<PlacementScheme | null> {
  const [row] = await db.$queryRawUnsafe<SchemeFactsRow[]>(
    `SELECT s.scheme_code, s.isin_growth, s.isin_reinvestment, s.nav::text AS nav, ${EXCHANGE_CODES_JSON} AS codes
       FROM schemes s WHERE s.scheme_code = $1`,
    schemeCode,
  );
  return row ? toPlacementScheme(row) : null;
}

function toPlacementScheme(row: SchemeFactsRow): PlacementScheme | null {
  if (row.scheme_code === null) return null;
  return {
    schemeCode: row.scheme_code,
    isinGrowth: row.isin_growth,
    isinReinvestment: row.isin_reinvestment,
    nav: decimal(row.nav),
    codes: (row.codes ?? []).map(toPlacementCode),
  };
}

interface SchemeFactsRow {
  scheme_code: string | null;
  isin_growth: string | null;
  isin_reinvestment: string | null;
  nav: string | null;
  codes: StoredCode[] | null;
}

interface PlacementFactsRow extends SchemeFactsRow {
  account_id: string | null;
  investor_id: string | null;
  holding_mode: string | null;
  investor_status: string | null;
  bank_account_ids: string[] | null;
}

const decimal = (text: string | null) => (text === null ? null : new Decimal(text));

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

export async function listOrders(
  db: DbOrTx,
  filter: { distributorId: string; status?: OrderStatus; investorId?: string; afterId?: string; limit: number },
): Promise<OrderRow[]> {
  const rows = await db.order.findMany({
    where: {
      distributorId: filter.distributorId,
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.investorId ? { investorId: filter.investorId } : {}),
      ...(filter.afterId ? { id: { lt: filter.afterId } } : {}),
    },
    orderBy: { id: "desc" },
    take: filter.limit + 1,
  });
  return rows.map(toOrderRow);
}

/** Orders the exchange has (a number) and may still move: PENDING (held) or ACCEPTED, in id order. */
export async function ordersAtExchange(db: DbOrTx, afterId: string, limit: number) {
  const rows = await db.order.findMany({
    where: { status: { in: ["PENDING", "ACCEPTED"] }, exchangeOrderNumber: { not: null }, id: { gt: afterId } },
    select: { id: true, status: true, exchangeOrderNumber: true, orderType: true, parentOrderId: true },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((row) => ({ ...row, orderType: orderTypeOf(row.orderType), status: orderStatus(row.status) }));
}

export interface UndispatchedOrder {
  id: string;
  /** The dispatch job's attempts so far and its limit; null when no job exists. */
  attempts: number | null;
  max_attempts: number | null;
  locked: boolean | null;
  /** Locked for longer than the given minutes. */
  stuck: boolean | null;
}

/** PENDING orders without an exchange number, in id order, each with the state of its dispatch job. */
export async function undispatchedOrders(db: DbOrTx, afterId: string, stuckAfterMinutes: number, limit: number): Promise<UndispatchedOrder[]> {
  return db.$queryRawUnsafe<UndispatchedOrder[]>(
    `SELECT o.id, j.attempts, j.max_attempts, j.locked_at IS NOT NULL AS locked,
            j.locked_at < now() - make_interval(mins => $2) AS stuck
       FROM orders o
       LEFT JOIN graphile_worker.jobs j ON j.key = 'orders__dispatch:' || o.id
      WHERE o.status = 'PENDING' AND o.exchange_order_number IS NULL AND o.id > $1
      ORDER BY o.id
      LIMIT $3`,
    afterId,
    stuckAfterMinutes,
    limit,
  );
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
export async function askCancellation(tx: DbOrTx, id: string, registrationTypes: readonly OrderType[], now: Date): Promise<boolean> {
  const { count } = await tx.order.updateMany({
    where: { id, status: "ACCEPTED", parentOrderId: null, orderType: { in: [...registrationTypes] }, OR: [{ cancellationStatus: null }, { cancellationStatus: "REFUSED" }] },
    data: { cancellationStatus: "PENDING", cancellationRequestedAt: now, cancellationRemark: null },
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

export async function insertInstallments(
  tx: DbOrTx,
  rows: Array<{ orderId: string; installmentNo: number; dueDate: Date; amount: Money; units: Money }>,
): Promise<void> {
  await tx.orderInstallment.createMany({ data: rows.map((r) => ({ ...r, status: "SCHEDULED" })), skipDuplicates: true });
}

export async function listInstallments(db: DbOrTx, orderId: string): Promise<InstallmentRow[]> {
  const rows = await db.orderInstallment.findMany({ where: { orderId }, orderBy: { installmentNo: "asc" } });
  return rows.map(toInstallmentRow);
}

/**
 * SCHEDULED installments due on or before `day`, oldest first; none of a registration whose cancellation is
 * asked or confirmed (they wait for the exchange's answer: a refusal lets them come).
 */
export async function dueInstallments(db: DbOrTx, day: Date, limit: number): Promise<InstallmentRow[]> {
  const rows = await db.$queryRaw<StoredInstallment[]>`
    SELECT i.order_id AS "orderId", i.installment_no AS "installmentNo", i.due_date AS "dueDate", i.amount, i.units, i.status,
           i.child_order_id AS "childOrderId", i.created_at AS "createdAt", i.updated_at AS "updatedAt"
      FROM order_installments i
      JOIN orders o ON o.id = i.order_id
     WHERE i.status = 'SCHEDULED' AND i.due_date <= ${day}::date
       AND (o.cancellation_status IS NULL OR o.cancellation_status = 'REFUSED')
     ORDER BY i.due_date, i.order_id, i.installment_no
     LIMIT ${limit}`;
  return rows.map(toInstallmentRow);
}

/**
 * Reads a registration for creating its installment, holding a share lock until the transaction ends: a
 * cancellation asked meanwhile (an UPDATE of the row) waits for the installment, and one asked before is seen.
 */
export async function lockRegistration(tx: DbOrTx, id: string): Promise<OrderRow> {
  await tx.$queryRaw`SELECT id FROM orders WHERE id = ${id} FOR SHARE`;
  return getOrderById(tx, id);
}

export async function nextScheduledInstallment(db: DbOrTx, orderId: string): Promise<InstallmentRow | null> {
  const row = await db.orderInstallment.findFirst({ where: { orderId, status: "SCHEDULED" }, orderBy: { installmentNo: "asc" } });
  return row && toInstallmentRow(row);
}

/** Cancels a registration's SCHEDULED installments: all of them, or the one numbered. */
export async function cancelScheduledInstallments(tx: DbOrTx, orderId: string, installmentNo?: number): Promise<void> {
  await tx.orderInstallment.updateMany({ where: { orderId, status: "SCHEDULED", ...(installmentNo === undefined ? {} : { installmentNo }) }, data: { status: "CANCELLED" } });
}

/** SCHEDULED -> CREATED naming its child order; false when another caller took the installment first. */
export async function claimInstallment(tx: DbOrTx, orderId: string, installmentNo: number, childOrderId: string): Promise<boolean> {
  const { count } = await tx.orderInstallment.updateMany({ where: { orderId, installmentNo, status: "SCHEDULED" }, data: { status: "CREATED", childOrderId } });
  return count === 1;
}

/** Allotted orders with a folio and units, oldest allotment first: what the sandbox registrar reports as holdings. */
export async function allottedOrdersWithFolio(db: DbOrTx) {
  const rows = await db.order.findMany({
    where: { status: "ALLOTTED", folioNo: { not: null }, allottedUnits: { not: null } },
    orderBy: [{ allotmentDate: "asc" }, { id: "asc" }],
    select: {
      id: true, orderType: true, schemeCode: true, folioNo: true, allottedUnits: true, allottedAmount: true, nav: true, details: true,
      distributorId: true, investorId: true,
    },
  });
  return rows.map((row) => ({ ...row, orderType: orderTypeOf(row.orderType) }));
}

/**
 * ACCEPTED installment orders still carrying the number the schedule gave them (the registration's number,
 * a dash and the installment number), with their due date: the ones whose exchange order is not matched yet.
 */
export async function installmentsAwaitingExchangeNumber(db: DbOrTx, limit: number) {
  const rows = await db.$queryRawUnsafe<Array<{ id: string; parent_order_id: string; investor_id: string; order_type: string; installment_no: number; due_date: Date; exchange_order_number: string }>>(
    `SELECT c.id, c.parent_order_id, c.investor_id, c.order_type, c.installment_no, i.due_date, c.exchange_order_number
       FROM orders c
       JOIN orders p ON p.id = c.parent_order_id
       JOIN order_installments i ON i.child_order_id = c.id
      WHERE c.status = 'ACCEPTED' AND c.exchange_order_number = p.exchange_order_number || '-' || c.installment_no
      ORDER BY c.id
      LIMIT $1`,
    limit,
  );
  return rows.map((r) => ({
    id: r.id, parentOrderId: r.parent_order_id, investorId: r.investor_id, orderType: orderTypeOf(r.order_type), installmentNo: r.installment_no, dueDate: r.due_date.toISOString().slice(0, 10),
    scheduledNumber: r.exchange_order_number,
  }));
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
