import type { Db } from "../../platform/db/client.js";
import type { SandboxExchange } from "../../integrations/exchange/sandbox/sandbox-exchange.js";
import { answer, found, requireMoved, requireState } from "../shared/simulation.js";
import { invalidState, validationError } from "../../platform/lib/errors.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { amountFor, Decimal, unitsFor } from "../../platform/lib/money.js";
import { allotOrder, applyPlacement, markDispatchFailed, refuseCancellation } from "./lifecycle.js";
import { isRegistration } from "./order-types.js";
import { findOrder } from "./orders.repo.js";
import { createNextInstallment } from "./schedule.js";

type SandboxServices = Services & { sandboxExchange: SandboxExchange };

async function ownOrder(db: Db, caller: Caller, id: string) {
  return found("Order", await findOrder(db, caller.distributorId, id));
}

/** Sandbox: the exchange decides on a PENDING (held) order: accept, reject or fail it. */
export async function simulateOrderDecision(services: SandboxServices, caller: Caller, id: string, decision: "accept" | "reject" | "fail", remark?: string) {
  const order = await ownOrder(services.prisma, caller, id);
  requireState(`Order ${id}`, order.status, "PENDING", "order can be moved this way");
  const number = order.exchangeOrderNumber ?? `SBX${id.slice(-12).toUpperCase()}`;
  let moved: boolean;
  if (decision === "fail") {
    moved = await markDispatchFailed(services.prisma, id, remark ?? "SANDBOX: SIMULATED TRANSPORT FAILURE");
  } else {
    const status = decision === "accept" ? "ACCEPTED" : "REJECTED";
    const providerRemark = remark ?? (decision === "accept" ? "ORDER CONFIRMED" : "SANDBOX: ORDER REJECTED BY SIMULATION");
    await services.sandboxExchange.set("ORDER", id, status, providerRemark);
    await services.sandboxExchange.noteOrderType(id, order.orderType);
    moved = await applyPlacement(
      services.prisma,
      id,
      status === "ACCEPTED" ? { status, exchangeOrderNumber: number, remark: providerRemark } : { status, exchangeOrderNumber: null, remark: providerRemark },
    );
  }
  requireMoved(moved, `Order ${id}`, "PENDING");
  return answer(`Order ${decision === "accept" ? "accepted" : decision === "reject" ? "rejected" : "failed"}`, id);
}

const MAX_AMOUNT = new Decimal("1e16");

export interface AllotmentInput {
  units?: number;
  nav?: number;
  folio_no?: string;
  allotment_date?: string;
}

/**
 * Sandbox: allots an ACCEPTED order, as the allotment report would: NAV (default 10.00), units
 * (default amount / NAV, truncated to 3 decimals), folio (default a synthesized simulation folio)
 * and allotment date (default today). Redemptions and switches allot the redeemed units and amount.
 */
export async function simulateAllotment(services: SandboxServices, caller: Caller, id: string, input: AllotmentInput) {
  const order = await ownOrder(services.prisma, caller, id);
  if (isRegistration(order)) {
    throw invalidState(`Order ${id} is a ${order.orderType} registration: it is never allotted itself, its installments are`);
  }
  requireState(`Order ${id}`, order.status, "ACCEPTED", "order can be allotted");
  const nav = new Decimal(input.nav ?? 10).toDecimalPlaces(4);
  let units: Decimal;
  if (input.units !== undefined) units = new Decimal(input.units).toDecimalPlaces(3, Decimal.ROUND_DOWN);
  else if (order.amount) units = unitsFor(new Decimal(order.amount.toString()), nav);
  else if (order.units) units = new Decimal(order.units.toString());
  else throw validationError([{ path: "units", message: "is needed to allot an all-units order", reason: "required" }]);
  const amount = order.amount && input.units === undefined ? new Decimal(order.amount.toString()) : amountFor(units, nav);
  // Amounts are stored as numeric(18, 2).
  if (amount.greaterThanOrEqualTo(MAX_AMOUNT)) {
    throw validationError([{ path: "units", message: "units x NAV must be below 10,000,000,000,000,000", reason: "too_big" }]);
  }
  const folioNo = input.folio_no ?? order.folioNo ?? `SIM${id.slice(-8).toUpperCase()}`;
  const allotmentDate = input.allotment_date ?? todayInIndia();

  const allotted = await allotOrder(services.prisma, id, { nav, units, amount, folioNo, allotmentDate });
  requireMoved(allotted, `Order ${id}`, "ACCEPTED");
  await services.sandboxExchange.reportAllotment(id, {
    folioNo,
    schemeCode: order.schemeCode,
    nav: nav.toFixed(4),
    units: units.toFixed(3),
    amount: amount.toFixed(2),
    allotmentDate,
    valid: true,
    remark: "ALLOTTED",
  });
  return answer("Order allotted", id);
}

/**
 * Sandbox: the exchange's next installment of a SIP, XSIP, STP or SWP registration, now rather than on its
 * due date, through the same code as the hourly `orders__create_installments`. `data` is the child order.
 */
export async function simulateNextInstallment(services: SandboxServices, caller: Caller, id: string) {
  const order = await ownOrder(services.prisma, caller, id);
  if (order.parentOrderId) throw invalidState(`Order ${id} is an installment of ${order.parentOrderId}, not a registration`);
  if (!isRegistration(order)) throw invalidState(`Order ${id} is a ${order.orderType}, not a SIP, XSIP, STP or SWP registration`);
  requireState(`Registration ${id}`, order.status, "ACCEPTED", "registration has installments to create");
  if (order.cancellationStatus === "PENDING") throw invalidState(`Registration ${id} has its cancellation pending at the exchange; no installment is created until the exchange answers`);
  const created = await createNextInstallment(services.prisma, id, services.logger);
  if (!created) throw invalidState(`Registration ${id} has no scheduled installment left`);
  return answer(`Installment ${created.installmentNo} of ${created.installments} created`, created.childId);
}

const REFUSED_BY_SIMULATION = "SANDBOX: CANCELLATION REFUSED BY SIMULATION";

/**
 * Sandbox: the exchange refuses an ACCEPTED registration's cancellation. A cancellation PENDING (its job not
 * run yet) is REFUSED at once; otherwise the next one asked will be. Either way the sandbox's books keep the
 * refusal, so the exchange refuses this order's cancellations from now on (the job's own call included).
 */
export async function simulateCancelRefusal(services: SandboxServices, caller: Caller, id: string, remark?: string) {
  const order = await ownOrder(services.prisma, caller, id);
  if (!isRegistration(order)) {
    const what = order.parentOrderId ? `an installment of ${order.parentOrderId}` : `a ${order.orderType}`;
    throw invalidState(`Order ${id} is ${what}, not a SIP, XSIP, STP or SWP registration: the exchange has no cancellation of it to refuse`);
  }
  requireState(`Registration ${id}`, order.status, "ACCEPTED", "registration's cancellation can be refused");
  const exchangeRemark = remark ?? REFUSED_BY_SIMULATION;
  await services.sandboxExchange.refuseCancellation(id, order.orderType, exchangeRemark);
  if (order.cancellationStatus === "PENDING") {
    // The job may have answered first (refused too, by the books); either way the cancellation is REFUSED now.
    await refuseCancellation(services.prisma, id, exchangeRemark);
    const now = await findOrder(services.prisma, caller.distributorId, id);
    if (now?.cancellationStatus !== "REFUSED") throw invalidState(`Registration ${id}'s cancellation is ${now?.cancellationStatus ?? "gone"}; it can no longer be refused`);
    return answer("Cancellation refused", id);
  }
  return answer("The exchange will refuse this registration's cancellation", id);
}
