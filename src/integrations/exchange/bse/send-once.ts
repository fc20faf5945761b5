import type { Prisma } from "../../../platform/db/client.js";
import { todayInIndia } from "../../../platform/lib/india-date.js";
import { ExchangeUnavailableError, type OrderPlacement } from "../port.js";
import type { BseContext } from "./bse-context.js";
import type { OrderEntryAnswer } from "./order-entry.js";
import { insertOrderRef, isCancelKind, isRegistrationKind, orderRefs, recordOutcome, type BseOrderRef, type BseOrderRefKind } from "./order-refs.repo.js";
import { orderStatusRowsBetween, placementOfRow } from "./order-reports.js";
import type { PlanRequest } from "./plan-entry.js";
import { BseRefusedError } from "./refusals.js";
import { failureCodeFor } from "./remarks.js";
import { BseLoginError, BseSessionError } from "./sessions.js";
import { internalRefOf } from "./trans-no-layout.js";
import { allocateTransNo } from "./trans-no.js";
import { ExchangeNotDeliveredError } from "./transport.js";

/**
 * An order goes to the exchange once: each request under a new TransNo recorded before it is sent, its
 * answer recorded before it is returned; an order that already went has its earlier answer looked up
 * instead (docs/operations.md "The production exchange").
 */

/** How long the order status report may lag behind order entry (docs/operations.md "The production exchange"). */
export const REPORT_LAG_MS = 15 * 60_000;

/** What one order request became: the placement, and a switch's switch-in order number. */
export type SentAnswer = OrderEntryAnswer & { secondOrderNumber?: string | null };

/**
 * Sends one request under a new TransNo, recorded first; its answer is recorded before it is returned.
 * Refused for its session or our login (a login inside the call: an SWP's upload session; credentials in
 * the body: STP), or never delivered, the TransNo is NOT_PLACED (the exchange has nothing under it).
 */
export async function sendOnce<R = PlanRequest>(
  ctx: BseContext,
  orderId: string,
  kind: BseOrderRefKind,
  request: (transNo: string, recorded: R | undefined) => Promise<SentAnswer>,
  recordedRequest?: (transNo: string) => R,
): Promise<SentAnswer> {
  const sentAt = new Date(ctx.now());
  const transNo = await allocateTransNo(ctx.db, ctx.config.memberId, sentAt);
  const recorded = recordedRequest?.(transNo);
  await insertOrderRef(ctx.db, { transNo, orderId, sentAt, kind, request: recorded as Prisma.InputJsonValue | undefined });
  let answer: SentAnswer;
  try {
    answer = await request(transNo, recorded);
  } catch (error) {
    if (error instanceof ExchangeNotDeliveredError || error instanceof BseSessionError || error instanceof BseLoginError || error instanceof BseRefusedError) {
      await recordOutcome(ctx.db, transNo, { outcome: "NOT_PLACED", exchangeOrderNumber: null, remark: null });
    }
    throw error;
  }
  await recordOutcome(ctx.db, transNo, {
    outcome: answer.status, exchangeOrderNumber: answer.exchangeOrderNumber, remark: answer.remark, secondOrderNumber: answer.secondOrderNumber ?? null,
  });
  ctx.log.info({ order_id: orderId, trans_no: transNo, kind, status: answer.status, exchange_order_number: answer.exchangeOrderNumber }, "BSE order entry answered");
  const { secondOrderNumber: _second, ...placement } = answer;
  return placement;
}

/**
 * The answer the order already has at the exchange, or null when a new TransNo is to be sent: none was
 * sent, or the last was certainly not placed. A TransNo sent without an answer is looked up: found,
 * its answer; not found while the report may still lag (REPORT_LAG_MS), the order is held PENDING (the
 * periodic status sync asks again and, once the window has passed, dispatches it again); not found
 * after that, the exchange never received it, and a new TransNo goes.
 */
export async function earlierAnswer(ctx: BseContext, orderId: string): Promise<OrderPlacement | null> {
  const last = (await orderRefs(ctx.db, orderId)).filter((ref) => !isCancelKind(ref.kind)).at(-1);
  if (!last || last.outcome === "NOT_PLACED") return null;
  if (last.outcome !== null) return answerOf(last);
  const found = await lookUpSent(ctx, last);
  if (found) return found;
  const waited = ctx.now() - last.sentAt.getTime();
  if (waited < REPORT_LAG_MS) {
    return { status: "PENDING", exchangeOrderNumber: null, remark: `SENT AS ${last.transNo} WITHOUT AN ANSWER; AWAITING THE EXCHANGE'S ORDER STATUS REPORT` };
  }
  const remark = `NOT IN THE ORDER STATUS REPORT ${Math.round(waited / 60_000)} MINUTES AFTER IT WAS SENT`;
  await recordOutcome(ctx.db, last.transNo, { outcome: "NOT_PLACED", exchangeOrderNumber: null, remark });
  ctx.log.warn({ order_id: orderId, trans_no: last.transNo }, "an order sent without an answer is not at the exchange; sending it again under a new TransNo");
  return null;
}

/**
 * What the exchange knows of a TransNo sent without a recorded answer: the order status report of the
 * days since it was sent, matched on the internal reference sent with it. Found, the answer is recorded.
 * A registration is not in that report: it stays unknown (never sent twice; reconciled by hand).
 */
async function lookUpSent(ctx: BseContext, ref: BseOrderRef): Promise<OrderPlacement | null> {
  if (isRegistrationKind(ref.kind)) {
    throw new ExchangeUnavailableError(`registration sent to the exchange as ${ref.transNo} got no answer; it is not sent again until reconciled with the exchange`);
  }
  const rows = await orderStatusRowsBetween(ctx, todayInIndia(ref.sentAt), todayInIndia(new Date(ctx.now())));
  const row = rows.find((r) => r.internalRefNo === internalRefOf(ref.transNo));
  if (!row) return null;
  const answer = placementOfRow(row);
  if (answer.status !== "PENDING") {
    await recordOutcome(ctx.db, ref.transNo, { outcome: answer.status, exchangeOrderNumber: row.orderNumber || null, remark: answer.remark });
  }
  ctx.log.info({ order_id: ref.orderId, trans_no: ref.transNo, status: answer.status }, "found an unanswered order in the exchange's order status report");
  return answer;
}

function answerOf(ref: BseOrderRef): OrderPlacement {
  if (ref.outcome === "ACCEPTED") return { status: "ACCEPTED", exchangeOrderNumber: ref.exchangeOrderNumber!, remark: ref.remark };
  const remark = ref.remark ?? "REJECTED BY THE EXCHANGE";
  return { status: "REJECTED", exchangeOrderNumber: ref.exchangeOrderNumber, remark, failureCode: failureCodeFor(remark) };
}
