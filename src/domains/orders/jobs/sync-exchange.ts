import type { AllotmentReport } from "../../../integrations/exchange/port.js";
import type { TaskHandler } from "../../shared/jobs/task.js";
import { errorSummary } from "../../../platform/lib/logger.js";
import { Decimal } from "../../../platform/lib/money.js";
import { allotOrder, applyPlacement, rejectAccepted, type Allotment } from "../lifecycle.js";
import { isRegistration } from "../order-types.js";
import { recoverUndispatchedOrders } from "./dispatch-recovery.js";
import { setInstallmentExchangeNumber } from "../orders.repo.js";
import { installmentsAwaitingExchangeNumber, ordersAtExchange } from "../orders-list.repo.js";
import { uccCodeOf } from "../../investors/investors.service.js";
import type { TaskContext } from "../../shared/jobs/task.js";

/** How many orders one pass asks the exchange about at a time. */
const SYNC_BATCH = 500;

/**
 * Periodic status sync and allotment statement: for every order the exchange has (held PENDING, or
 * ACCEPTED), applies what the exchange now reports: a decision on a held order, a later rejection,
 * or its allotment row (valid: ALLOTTED; invalid: REJECTED). Every move is conditional, so the pass
 * is safe to repeat and to race a simulation. It first recovers PENDING orders whose dispatch did not
 * finish (see recoverUndispatchedOrders); a failure there is logged and does not hold up the sync
 * (the next pass tries the recovery again).
 */
export const syncOrdersWithExchange: TaskHandler<"orders__sync_exchange"> = async (_payload, { services, log }) => {
  let afterId = "";
  let moved = await recoverUndispatchedOrders({ services, log }).catch((error: unknown) => {
    log.warn({ error: errorSummary(error) }, "recovering undispatched orders failed; the status sync goes on");
    return 0;
  });
  await matchInstallments({ services, log }).catch((error: unknown) => {
    log.warn({ error: errorSummary(error) }, "matching installments to the exchange's child orders failed; the status sync goes on");
  });
  for (;;) {
    const orders = await ordersAtExchange(services.prisma, afterId, SYNC_BATCH);
    if (orders.length === 0) break;
    afterId = orders[orders.length - 1]!.id;
    const byId = new Map(orders.map((o) => [o.id, o]));
    const ids = [...byId.keys()];

    for (const report of await services.exchange.orderStatus(ids)) {
      const order = byId.get(report.orderId);
      if (!order || report.status === "PENDING") continue;
      if (order.status === "PENDING") {
        const placement =
          report.status === "ACCEPTED"
            ? ({ status: "ACCEPTED", exchangeOrderNumber: order.exchangeOrderNumber!, remark: report.remark } as const)
            : ({ status: "REJECTED", exchangeOrderNumber: null, remark: report.remark ?? "REJECTED" } as const);
        if (await applyPlacement(services.prisma, order.id, placement)) moved++;
      } else if (report.status === "REJECTED") {
        if (await rejectAccepted(services.prisma, order.id, report.remark ?? "REJECTED", "exchange_rejected")) moved++;
      }
    }
    for (const row of await services.exchange.allotments(ids)) {
      const order = byId.get(row.orderId);
      if (!order) continue;
      // A registration's units come with its installments; a row naming the registration itself changes nothing.
      if (isRegistration(order)) {
        log.warn({ order_id: order.id }, "the allotment statement reports a SIP-type registration itself; ignored");
        continue;
      }
      if (await applyAllotmentRow(services.prisma, row)) moved++;
    }
  }
  if (moved > 0) log.info({ moved }, "orders moved by the exchange's status and allotment reports");
};

/** One row of the allotment statement: NAV 4 dp, units 3 dp, amount 2 dp, as the exchange reports them. */
export function applyAllotmentRow(db: Parameters<typeof allotOrder>[0], row: AllotmentReport): Promise<boolean> {
  if (!row.valid) return rejectAccepted(db, row.orderId, row.remark ?? "ALLOTMENT REJECTED", "allotment_rejected");
  return allotOrder(db, row.orderId, allotmentOfRow(row));
}

/** A valid statement row as the allotment it makes: NAV to 4 places, units truncated to 3, the amount rounded half-up to the paisa. */
export function allotmentOfRow(row: Pick<AllotmentReport, "nav" | "units" | "amount" | "folioNo" | "allotmentDate">): Allotment {
  return {
    nav: new Decimal(row.nav).toDecimalPlaces(4),
    units: new Decimal(row.units).toDecimalPlaces(3, Decimal.ROUND_DOWN),
    amount: new Decimal(row.amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
    folioNo: row.folioNo,
    allotmentDate: row.allotmentDate,
  };
}

/**
 * Where the exchange generates a registration's installments itself (BSE's child orders), the installment
 * orders our schedule created are matched to the exchange's, taking its order numbers, so the status and
 * allotment reports follow them. An installment the exchange has not generated yet is asked again next pass.
 */
async function matchInstallments({ services, log }: Pick<TaskContext, "services" | "log">): Promise<void> {
  const exchange = services.exchange;
  if (!exchange.matchInstallments) return;
  const waiting = await installmentsAwaitingExchangeNumber(services.prisma, SYNC_BATCH);
  if (waiting.length === 0) return;
  const clientCodes = new Map<string, string>();
  for (const row of waiting) if (!clientCodes.has(row.investorId)) clientCodes.set(row.investorId, await uccCodeOf(services.prisma, row.investorId));
  const matches = await exchange.matchInstallments(
    waiting.map((row) => ({
      orderId: row.id, registrationOrderId: row.parentOrderId, clientCode: clientCodes.get(row.investorId)!,
      orderType: row.orderType as "SIP" | "XSIP" | "STP" | "SWP", installmentNo: row.installmentNo, dueDate: row.dueDate,
    })),
  );
  const scheduled = new Map(waiting.map((row) => [row.id, row.scheduledNumber]));
  let matched = 0;
  for (const match of matches) {
    if (await setInstallmentExchangeNumber(services.prisma, match.orderId, scheduled.get(match.orderId)!, match.exchangeOrderNumber)) matched++;
  }
  if (matched > 0) log.info({ matched }, "installment orders matched to the exchange's child orders");
}
