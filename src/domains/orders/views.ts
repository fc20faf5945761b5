import { decimalOrNull } from "../../platform/lib/formats.js";
import type { Log } from "../../platform/lib/logger.js";
import type { InstallmentRow } from "./installments.repo.js";
import { orderedView } from "./order-details.js";
import type { OrderRow } from "./orders.repo.js";
import type { PauseRow } from "./pause.repo.js";

/** The order resource as the API answers it (the shapes are orders.schemas.ts PlacedOrder, OrderView and InstallmentList). */

export type PlacedOrder = ReturnType<typeof placedOrderView>;
export type OrderView = ReturnType<typeof toOrderView>;
export type PauseView = ReturnType<typeof pauseView>;

/** The placement answer of an order: id, client_ref, created_at, order_type, status. */
export function placedOrderView(row: OrderRow) {
  return {
    id: row.id,
    client_ref: row.clientRef,
    created_at: row.createdAt.toISOString(),
    order_type: row.orderType,
    status: row.status,
  };
}

/** An order with its latest payment's id and its latest pause (a SIP or XSIP registration's). */
export function toOrderView(row: OrderRow, paymentId: string | null, pause: PauseRow | null, log: Log) {
  return {
    ...placedOrderView(row),
    payment_status: row.paymentStatus,
    payment_id: paymentId,
    investor_id: row.investorId,
    investment_account_id: row.investmentAccountId,
    scheme_code: row.schemeCode,
    exchange_scheme_code: row.exchangeSchemeCode,
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
    nav_date_expected: row.navDateExpected ? row.navDateExpected.toISOString().slice(0, 10) : null,
    parent_order_id: row.parentOrderId,
    installment_no: row.installmentNo,
    cancellation: row.cancellationStatus
      ? { requested_at: row.cancellationRequestedAt?.toISOString() ?? null, status: row.cancellationStatus, remark: row.cancellationRemark, reason: row.cancellationReason }
      : null,
    pause: pause ? pauseView(pause) : null,
    bank_account_id: row.bankAccountId,
    sub_broker_arn: row.subBrokerArn,
    ...withTargetCodes(orderedView(row, log), row.toExchangeSchemeCode),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A switch's or STP's target with the exchange code chosen for it at placement. */
function withTargetCodes(view: ReturnType<typeof orderedView>, toExchangeSchemeCode: string | null) {
  return {
    ...view,
    switch: view.switch && { ...view.switch, to_exchange_scheme_code: toExchangeSchemeCode },
    stp: view.stp && { ...view.stp, to_exchange_scheme_code: toExchangeSchemeCode },
  };
}

/** A SIP or XSIP registration's pause (orders.schemas.ts PauseView). */
export function pauseView(row: PauseRow) {
  return {
    id: row.id,
    order_id: row.orderId,
    status: row.status,
    installments: row.installments,
    from_installment_no: row.fromInstallmentNo,
    from_date: isoDay(row.fromDate),
    until_date: isoDay(row.untilDate),
    requested_at: row.requestedAt.toISOString(),
    resumed_at: row.resumedAt?.toISOString() ?? null,
    remark: row.remark,
  };
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** One installment of a registration's schedule. */
export function installmentView(row: InstallmentRow) {
  return {
    installment_no: row.installmentNo,
    due_date: row.dueDate.toISOString().slice(0, 10),
    amount: decimalOrNull(row.amount),
    units: decimalOrNull(row.units),
    status: row.status,
    order_id: row.childOrderId,
  };
}
