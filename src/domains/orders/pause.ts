import type { Db, Tx } from "../../platform/db/client.js";
import { idempotent, type Stored } from "../../platform/idempotency/idempotency.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import { AppError, notFound, validationError } from "../../platform/lib/errors.js";
import { newId } from "../../platform/lib/ids.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import type { Caller } from "../shared/caller.js";
import { enqueue } from "../shared/jobs/enqueue.js";
import type { Services } from "../shared/services.js";
import { recordEvent } from "../events/events.repo.js";
import { insertInstallments } from "./installments.repo.js";
import { orderDetails } from "./order-details.js";
import * as orders from "./orders.repo.js";
import type { OrderRow } from "./orders.repo.js";
import * as repo from "./pause.repo.js";
import type { PauseRow } from "./pause.repo.js";
import { installmentDates } from "./schedule.js";
import { pauseView, type PauseView } from "./views.js";

/**
 * SIP and XSIP pauses (issue 26, servicing.md "SIP pause"). A pause takes the next installments not yet created
 * (PAUSED: never created nor debited), appends as many at the plan's end, and is asked of the exchange by the job
 * `orders__pause_at_exchange`; the exchange's refusal puts the schedule back. Without SIP master rows for the
 * scheme: 1 to 6 installments, once per registration.
 */
export const DEFAULT_PAUSE = { min: 1, max: 6, times: 1 } as const;
const SCOPE_PAUSE = "POST /api/orders/v1/{id}/pause";

const day = (date: Date) => date.toISOString().slice(0, 10);
const asDate = (iso: string) => new Date(`${iso}T00:00:00Z`);

export async function pauseOrder(services: Services, caller: Caller, id: string, installments: number, idempotencyKey: string | undefined): Promise<Stored<PauseView>> {
  const order = await orders.findOrder(services.prisma, caller.distributorId, id);
  if (!order) throw notFound("Order");
  const body = { id, installments };
  return idempotent(services.prisma, { distributorId: caller.distributorId, scope: SCOPE_PAUSE, key: idempotencyKey, body }, async (tx) => {
    await repo.lockForPause(tx, id);
    const row = await orders.getOrderById(tx, id);
    const pause = await pauseIn(tx, row, installments);
    await enqueue(tx, "orders__pause_at_exchange", { pause_id: pause.id }, { jobKey: `orders__pause_at_exchange:${pause.id}` });
    return { status: 200, body: pauseView(pause) };
  });
}

function plan(row: OrderRow) {
  const sip = orderDetails(row).sip;
  if (!sip?.frequency || !sip.start_date || !sip.installments) return null;
  return { frequency: sip.frequency, startDate: sip.start_date, installments: sip.installments, installmentDay: sip.installment_day };
}

async function pauseIn(tx: Tx, row: OrderRow, installments: number): Promise<PauseRow> {
  const sipPlan = plan(row);
  if ((row.orderType !== "SIP" && row.orderType !== "XSIP") || row.parentOrderId || !sipPlan) {
    throw new AppError("INVALID_STATE", `Order ${row.id} is not a SIP or XSIP registration; only those can be paused`);
  }
  if (row.status !== "ACCEPTED") throw new AppError("INVALID_STATE", `Order ${row.id} is ${row.status}; only an ACCEPTED SIP or XSIP can be paused`);
  if (row.cancellationStatus === "PENDING" || row.cancellationStatus === "CONFIRMED") {
    throw new AppError("INVALID_STATE", `Order ${row.id} has its cancellation ${row.cancellationStatus} at the exchange; it cannot be paused`);
  }
  const today = todayInIndia();
  const pauses = (await repo.pausesOf(tx, row.id)).filter((p) => p.status !== "REFUSED");
  if (pauses.some((p) => p.status === "PENDING" || (p.status === "CONFIRMED" && day(p.untilDate) >= today))) {
    throw new AppError("INVALID_STATE", `Order ${row.id} is already paused (or its pause is being asked of the exchange)`);
  }
  const rule = row.exchangeSchemeCode ? await repo.sipRule(tx, row.exchangeSchemeCode, sipPlan.frequency) : null;
  if (rule && !rule.pauseAllowed) throw new AppError("INVALID_STATE", `The exchange's SIP master does not allow pausing ${row.exchangeSchemeCode} ${sipPlan.frequency} registrations`);
  const times = rule ? (rule.pauseModificationCount ?? DEFAULT_PAUSE.times) : DEFAULT_PAUSE.times;
  if (pauses.length >= times) throw new AppError("INVALID_STATE", `Order ${row.id} has used its pause (${times} per registration)`);
  const min = rule?.pauseMinInstallments ?? DEFAULT_PAUSE.min;
  const max = rule?.pauseMaxInstallments ?? DEFAULT_PAUSE.max;
  if (installments < min || installments > max) {
    throw validationError([{ path: "installments", reason: "installments_out_of_range", message: `A pause of this SIP is ${min} to ${max} installments` }], "The pause breaks the exchange's pause rules");
  }
  const scheduled = await repo.scheduledOf(tx, row.id);
  if (scheduled.length < installments) {
    throw validationError([{ path: "installments", reason: "installments_out_of_range", message: `Only ${scheduled.length} installments are left to pause` }], "The pause is longer than what is left of the plan");
  }
  const paused = scheduled.slice(0, installments);
  await repo.markPaused(tx, row.id, paused.map((p) => p.installmentNo));
  const lastNo = await repo.lastInstallmentNo(tx, row.id);
  const appended = installmentDates({ ...sipPlan, installments: lastNo + installments }).slice(lastNo);
  await insertInstallments(tx, appended.map((due, i) => ({ orderId: row.id, installmentNo: lastNo + 1 + i, dueDate: asDate(due), amount: row.amount, units: row.units })));
  return repo.insertPause(tx, {
    id: newId("pse"),
    orderId: row.id,
    distributorId: row.distributorId,
    installments,
    fromInstallmentNo: paused[0]!.installmentNo,
    addedFromNo: lastNo + 1,
    fromDate: paused[0]!.dueDate,
    untilDate: paused.at(-1)!.dueDate,
    status: "PENDING",
  });
}

/** The exchange confirmed the pause: CONFIRMED with `order.paused`. */
export async function confirmPause(db: Db, pause: PauseRow): Promise<boolean> {
  return db.$transaction(async (tx) => {
    if (!(await repo.movePause(tx, pause.id, "PENDING", "CONFIRMED"))) return false;
    await recordEvent(tx, {
      distributorId: pause.distributorId,
      resourceType: "order",
      resourceId: pause.orderId,
      event: "order.paused",
      data: { order_id: pause.orderId, installments: pause.installments, from_date: day(pause.fromDate), until_date: day(pause.untilDate) },
    });
    return true;
  });
}

/** The exchange refused the pause: REFUSED with its remark (masked), the installments SCHEDULED again and the plan's end put back. */
export async function refusePause(db: Db, pause: PauseRow, exchangeRemark: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    if (!(await repo.movePause(tx, pause.id, "PENDING", "REFUSED", { remark: maskFreeText(exchangeRemark) }))) return false;
    await repo.unpause(tx, pause.orderId, pause.fromInstallmentNo, pause.installments);
    await repo.dropAppended(tx, pause.orderId, pause.addedFromNo, pause.installments);
    return true;
  });
}

/**
 * Ends a CONFIRMED pause early where the exchange allows it (the port's resumeSip; BSE has none: 409 saying so):
 * its installments due today or later are SCHEDULED again, as many appended ones dropped, RESUMED with `order.resumed`.
 */
export async function resumeOrder(services: Services, caller: Caller, id: string): Promise<PauseView> {
  const order = await orders.findOrder(services.prisma, caller.distributorId, id);
  if (!order) throw notFound("Order");
  const today = todayInIndia();
  const pause = (await repo.pausesOf(services.prisma, id)).filter((p) => p.status === "PENDING" || p.status === "CONFIRMED").at(-1);
  if (!pause || day(pause.untilDate) < today) throw new AppError("INVALID_STATE", `Order ${id} is not paused`);
  if (pause.status === "PENDING") throw new AppError("INVALID_STATE", `Order ${id}'s pause is being asked of the exchange; wait for order.paused`);
  if (!services.exchange.resumeSip) {
    throw new AppError("INVALID_STATE", `The exchange does not allow ending a SIP pause early; order ${id} resumes by itself after ${day(pause.untilDate)}`);
  }
  const answer = await services.exchange.resumeSip(id);
  if (!answer.resumed) throw new AppError("INVALID_STATE", `The exchange refused to resume order ${id}: ${maskFreeText(answer.remark)}`);
  await services.prisma.$transaction(async (tx) => {
    await repo.lockForPause(tx, id);
    if (!(await repo.movePause(tx, pause.id, "CONFIRMED", "RESUMED", { resumedAt: new Date() }))) return;
    const back = await repo.unpause(tx, id, pause.fromInstallmentNo, pause.installments, asDate(today));
    await repo.dropAppended(tx, id, pause.addedFromNo, back.length);
    await recordEvent(tx, {
      distributorId: pause.distributorId,
      resourceType: "order",
      resourceId: id,
      event: "order.resumed",
      data: { order_id: id, resumed_from_date: back[0] ? day(back[0].dueDate) : null },
    });
  });
  return pauseView((await repo.findPause(services.prisma, pause.id))!);
}
