import type { Db, DbOrTx, Prisma } from "../db/client.js";
import { bodyHash, idempotent, type Stored } from "../idempotency/idempotency.js";
import { enqueue } from "../jobs/enqueue.js";
import { AppError, notFound } from "../lib/errors.js";
import type { Log } from "../lib/logger.js";
import { readCursor, toPage } from "../lib/zod.js";
import { decimalOrNull, rupeesToDecimal } from "../lib/formats.js";
import { newId } from "../lib/ids.js";
import { maskFreeText } from "../lib/mask.js";
import type { Caller } from "../core/caller.js";
import type { Services } from "../core/services.js";
import { folioUnits } from "../holdings/holdings.service.js";
import { orderedView } from "./order-details.js";
import { endWithoutUnits } from "./order-moves.js";
import { mandateValidityViolations, schemeViolations, type RuleViolation } from "./order-rules.js";
import type { PlaceOrderInput } from "./orders.schemas.js";

const SCOPE_PLACE = "POST /api/orders/v1/";
/**
 * Orders that bring no money themselves: redemptions, switches and transfers move units, and a SIP or
 * XSIP registration collects money through its installments (each a child order with its own payment).
 */
const NO_PAYMENT = new Set(["REDEMPTION", "SWITCH", "STP", "SWP", "SIP", "XSIP"]);
/** Dispatch attempts before a transport failure ends the order in FAILED. */
export const DISPATCH_ATTEMPTS = 5;

type OrderRow = Prisma.OrderGetPayload<object>;

/**
 * Validates an order against the caller's account, the investor's state, the scheme master and the
 * per-type rules, then persists it (PENDING) with its dispatch job in one transaction. A repeated
 * client_ref with the same body answers the existing order; with another body it is a conflict.
 */
export async function placeOrder(
  services: Services,
  caller: Caller,
  input: PlaceOrderInput,
  idempotencyKey: string | undefined,
): Promise<Stored<PlacedOrder>> {
  const requestHash = bodyHash(input);
  const repeat = input.client_ref ? await findByClientRef(services.prisma, caller.distributorId, input.client_ref) : null;
  if (repeat) return repeatOf(repeat, requestHash);

  return idempotent(services.prisma, { distributorId: caller.distributorId, scope: SCOPE_PLACE, key: idempotencyKey, body: input }, async (tx) => {
    // Again inside: a duplicate that waited for a connection while the first committed is answered
    // before the validation queries, so a burst of duplicates holds each connection briefly.
    const committed = input.client_ref ? await findByClientRef(tx, caller.distributorId, input.client_ref) : null;
    if (committed) return repeatOf(committed, requestHash);
    const { account, schemeCode, mandateId, violations } = await checkOrder(tx, caller, input);
    if (violations.length > 0) {
      throw new AppError("VALIDATION_ERROR", "The order breaks the rules for its type, scheme or account", { details: violations });
    }
    const id = newId("ord");
    // A concurrent placement of the same client_ref makes this insert wait for it and then skip, leaving
    // the transaction usable: the winner, committed by then, is read through this same transaction.
    const [row] = await tx.order.createManyAndReturn({
      skipDuplicates: true,
      data: [
        {
          id,
          distributorId: caller.distributorId,
          investorId: account.investorId,
          investmentAccountId: account.id,
          orderType: input.order_type,
          status: "PENDING",
          paymentStatus: NO_PAYMENT.has(input.order_type) ? "NOT_REQUIRED" : "UNPAID",
          purchaseType: input.purchase_type ?? null,
          holdingMode: input.holding_mode ?? account.holdingMode,
          schemeCode,
          folioNo: input.folio_no ?? null,
          amount: input.amount === undefined ? null : rupeesToDecimal(input.amount),
          units: input.units === undefined ? null : input.units.toFixed(3),
          allUnits: input.all_units === true,
          bankAccountId: input.bank_account_id ?? null,
          mandateId,
          clientRef: input.client_ref ?? null,
          // Free text, sent to the exchange and shown back: stored with PANs masked.
          remarks: maskFreeText(input.remarks ?? null),
          subBrokerArn: input.sub_broker_arn ?? null,
          details: JSON.parse(JSON.stringify({ euin: input.euin, sip: input.sip, stp: input.stp, switch: input.switch, swp: input.swp })),
          requestHash,
        },
      ],
    });
    if (!row) {
      const winner = input.client_ref ? await findByClientRef(tx, caller.distributorId, input.client_ref) : null;
      if (!winner) throw new Error(`Order ${id} was not inserted and no order holds its client_ref`);
      return repeatOf(winner, requestHash);
    }
    await enqueue(tx, "orders__dispatch", { order_id: id }, { jobKey: `orders__dispatch:${id}`, maxAttempts: DISPATCH_ATTEMPTS });
    return { status: 201, body: placed(row) };
  });
}

function repeatOf(existing: OrderRow, requestHash: string): Stored<PlacedOrder> {
  if (existing.requestHash !== requestHash) {
    throw new AppError("CONFLICT", `client_ref ${existing.clientRef} is already used by order ${existing.id} with a different body`);
  }
  return { status: 201, body: placed(existing) };
}

function findByClientRef(db: DbOrTx, distributorId: string, clientRef: string) {
  return db.order.findUnique({ where: { distributorId_clientRef: { distributorId, clientRef } } });
}

async function checkOrder(tx: DbOrTx, caller: Caller, input: PlaceOrderInput) {
  const account = await tx.investmentAccount.findFirst({
    where: { id: input.investment_account_id, distributorId: caller.distributorId },
    include: { investor: { select: { status: true, bankAccounts: { select: { id: true } } } } },
  });
  if (!account) throw notFound(`Investment account ${input.investment_account_id}`);
  const violations: RuleViolation[] = [];
  const add = (path: string, reason: string, message: string) => violations.push({ path, reason, message });

  if (input.investor_id && input.investor_id !== account.investorId) {
    add("investor_id", "investor_mismatch", `is not the investor of ${account.id}`);
  }
  if (account.investor.status !== "REGISTERED") {
    add("investment_account_id", "investor_not_registered", `the investor is ${account.investor.status}; orders need a REGISTERED investor`);
  }
  if (input.bank_account_id && !account.investor.bankAccounts.some((b) => b.id === input.bank_account_id)) {
    add("bank_account_id", "bank_account_not_found", "is not a bank account of the investor");
  }
  if (input.mandate_id) {
    const mandate = await tx.mandate.findFirst({ where: { id: input.mandate_id, distributorId: caller.distributorId, investorId: account.investorId } });
    if (!mandate || mandate.status !== "REGISTERED") {
      add("mandate_id", "mandate_not_registered", mandate ? `the mandate is ${mandate.status}` : "is not a mandate of the investor");
    } else {
      if (input.amount !== undefined && mandate.amountLimit.lessThan(rupeesToDecimal(input.amount))) {
        add("amount", "amount_exceeds_mandate_limit", `exceeds the mandate's limit of ${mandate.amountLimit.toFixed(2)}`);
      }
      violations.push(...mandateValidityViolations(input, mandate));
    }
  }
  let mandateId = input.mandate_id ?? null;

  let schemeCode = input.scheme_code ?? "";
  if (input.order_type === "SIP_TOPUP" && input.sip?.sip_order_id) {
    const sip = await tx.order.findFirst({
      where: { id: input.sip.sip_order_id, investmentAccountId: account.id, orderType: { in: ["SIP", "XSIP"] } },
    });
    if (!sip || sip.status !== "ACCEPTED") {
      add("sip.sip_order_id", "sip_not_active", sip ? `the SIP is ${sip.status}` : "is not a SIP or XSIP of this investment account");
    } else {
      schemeCode = sip.schemeCode;
      // A top-up of an XSIP is debited from the XSIP's mandate unless another is named.
      mandateId ??= sip.mandateId;
    }
  }
  if (schemeCode) {
    const scheme = await tx.scheme.findUnique({ where: { schemeCode } });
    violations.push(...schemeViolations({ ...input, scheme_code: schemeCode }, scheme));
    if (scheme && input.folio_no && UNITS_OUT.has(input.order_type)) {
      violations.push(...(await holdingViolations(tx, caller.distributorId, input, scheme)));
    }
  }
  const target = input.switch?.to_scheme_code ?? input.stp?.to_scheme_code;
  if (target) {
    const path = input.switch ? "switch.to_scheme_code" : "stp.to_scheme_code";
    const targetScheme = await tx.scheme.findUnique({ where: { schemeCode: target } });
    if (!targetScheme) add(path, "scheme_not_found", `no scheme ${target} in the scheme master`);
    else if (!targetScheme.purchaseAllowed) add(path, "purchase_not_allowed", `${target} does not accept purchases`);
    if (target === schemeCode) add(path, "same_scheme", "must differ from scheme_code");
  }
  return { account, schemeCode, mandateId, violations };
}

/** Orders that take units out of a folio: refused beyond what the registrars report in it. */
const UNITS_OUT = new Set(["REDEMPTION", "SWITCH"]);

/**
 * Where the holdings know the folio (the registrars reported it under the caller's ARN), a redemption
 * or switch cannot take more than it holds: units directly, an amount at the scheme's latest NAV.
 * A folio the holdings do not know is left to the exchange and the registrar to judge.
 */
async function holdingViolations(tx: DbOrTx, distributorId: string, input: PlaceOrderInput, scheme: { schemeCode: string; nav: Prisma.Decimal | null }): Promise<RuleViolation[]> {
  const held = await folioUnits(tx, distributorId, input.folio_no!, scheme.schemeCode);
  if (held === null) return [];
  const folio = `folio ${input.folio_no} holds ${held.toFixed(3)} units of ${scheme.schemeCode}`;
  if (held.isZero()) return [{ path: "folio_no", reason: "no_units_held", message: folio }];
  if (input.units !== undefined && held.lessThan(input.units.toFixed(3))) {
    return [{ path: "units", reason: "units_exceed_holding", message: folio }];
  }
  const worth = input.amount !== undefined && scheme.nav ? held.times(scheme.nav.toString()) : null;
  if (worth && worth.lessThan(rupeesToDecimal(input.amount!))) {
    return [{ path: "amount", reason: "amount_exceeds_holding", message: `${folio}, worth ${worth.toFixed(2)} at NAV ${scheme.nav!.toFixed(4)}` }];
  }
  return [];
}

export async function getOrder(services: Services, caller: Caller, id: string): Promise<OrderView> {
  const row = await services.prisma.order.findFirst({ where: { id, distributorId: caller.distributorId } });
  if (!row) throw notFound(`Order ${id}`);
  const payments = await latestPayments(services.prisma, [id]);
  return toView(row, payments.get(id) ?? null, services.logger);
}

/** The latest payment of each order (an order may have a failed payment and a newer one). */
async function latestPayments(db: DbOrTx, orderIds: string[]): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.payment.findMany({ where: { orderId: { in: orderIds } }, select: { id: true, orderId: true }, orderBy: { id: "asc" } });
  return new Map(rows.map((r) => [r.orderId, r.id]));
}

export type PlacedOrder = ReturnType<typeof placed>;
export type OrderView = ReturnType<typeof toView>;
type OrderTypeValue = PlaceOrderInput["order_type"];
type OrderStatusValue = "PENDING" | "ACCEPTED" | "REJECTED" | "FAILED" | "ALLOTTED" | "CANCELLED";

function placed(row: OrderRow) {
  return {
    id: row.id,
    client_ref: row.clientRef,
    created_at: row.createdAt.toISOString(),
    order_type: row.orderType as OrderTypeValue,
    status: row.status as OrderStatusValue,
  };
}

function toView(row: OrderRow, paymentId: string | null, log: Log) {
  return {
    ...placed(row),
    payment_status: row.paymentStatus as "NOT_REQUIRED" | "UNPAID" | "PENDING" | "PAID" | "FAILED" | "REFUNDED",
    payment_id: paymentId,
    investor_id: row.investorId,
    investment_account_id: row.investmentAccountId,
    scheme_code: row.schemeCode,
    purchase_type: row.purchaseType,
    holding_mode: row.holdingMode,
    folio_no: row.folioNo,
    amount: decimalOrNull(row.amount),
    units: row.status === "ALLOTTED" ? decimalOrNull(row.allottedUnits) : decimalOrNull(row.units),
    all_units: row.allUnits,
    mandate_id: row.mandateId,
    remarks: row.remarks,
    exchange_order_number: row.exchangeOrderNumber,
    provider_remark: row.providerRemark,
    failure_code: row.failureCode,
    nav: decimalOrNull(row.nav),
    allotted_amount: decimalOrNull(row.allottedAmount),
    allotment_date: row.allotmentDate ? row.allotmentDate.toISOString().slice(0, 10) : null,
    parent_order_id: row.parentOrderId,
    installment_no: row.installmentNo,
    bank_account_id: row.bankAccountId,
    sub_broker_arn: row.subBrokerArn,
    ...orderedView(row, log),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Cancels an order that is PENDING or ACCEPTED (before allotment). The order stops at once; when the
 * exchange already has it, a job cancels it there too.
 */
export async function cancelOrder(services: Services, caller: Caller, id: string): Promise<OrderView> {
  const order = await services.prisma.order.findFirst({ where: { id, distributorId: caller.distributorId } });
  if (!order) throw notFound(`Order ${id}`);
  await services.prisma.$transaction(async (tx) => {
    const { count } = await tx.order.updateMany({ where: { id, status: { in: ["PENDING", "ACCEPTED"] } }, data: { status: "CANCELLED" } });
    if (count !== 1) throw new AppError("INVALID_STATE", `Order ${id} is ${order.status}; only a PENDING or ACCEPTED order can be cancelled`);
    await endWithoutUnits(tx, id, "REFUNDED: ORDER CANCELLED");
    if (order.exchangeOrderNumber) await enqueue(tx, "orders__cancel_at_exchange", { order_id: id }, { jobKey: `orders__cancel_at_exchange:${id}` });
  });
  return getOrder(services, caller, id);
}

export async function listOrders(
  services: Services,
  caller: Caller,
  query: { status?: string; investor_id?: string; limit: number; cursor?: string },
): Promise<{ data: OrderView[]; next_cursor: string | null }> {
  const afterId = readCursor(query.cursor, 1)?.[0];
  const rows = await services.prisma.order.findMany({
    where: {
      distributorId: caller.distributorId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.investor_id ? { investorId: query.investor_id } : {}),
      ...(afterId ? { id: { lt: afterId } } : {}),
    },
    orderBy: { id: "desc" },
    take: query.limit + 1,
  });
  const payments = await latestPayments(services.prisma, rows.map((r) => r.id));
  return toPage(rows, query.limit, (row) => [row.id], (row) => toView(row, payments.get(row.id) ?? null, services.logger));
}

export async function listInstallments(services: Services, caller: Caller, id: string) {
  const order = await services.prisma.order.findFirst({ where: { id, distributorId: caller.distributorId }, select: { id: true } });
  if (!order) throw notFound(`Order ${id}`);
  const rows = await services.prisma.orderInstallment.findMany({ where: { orderId: id }, orderBy: { installmentNo: "asc" } });
  return {
    data: rows.map((r) => ({
      installment_no: r.installmentNo,
      due_date: r.dueDate.toISOString().slice(0, 10),
      amount: decimalOrNull(r.amount),
      units: decimalOrNull(r.units),
      status: r.status as "SCHEDULED" | "CREATED" | "CANCELLED",
      order_id: r.childOrderId,
    })),
  };
}
