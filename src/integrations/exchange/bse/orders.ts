import type { OrderFailureCode } from "../outcomes.js";
import type { OrderEntry, OrderPlacement } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { BseMappingError } from "./codes.js";
import { mappingRemark } from "./investors.js";
import { isOrderEntryType, memberOf, orderEntryParams, readOrderEntryAnswer, type Member } from "./order-entry.js";
import { isCancelKind, isRegistrationKind, orderRefs, type BseOrderRef } from "./order-refs.repo.js";
import { cancelRequest, PLAN_OPERATION, planProblem, planRequest, readPlanAnswer, withSession, type PlanRequest } from "./plan-entry.js";
import { earlierAnswer, sendOnce, type SentAnswer } from "./send-once.js";
import { ORDER_ENTRY_SERVICE } from "./soap.js";
import { readSwitchAnswer, switchParams } from "./switch-entry.js";
import { cancelSwp, checkStp, checkSwp, sendStp, sendSwp, stpRecordOf, stpRegistrationOf, swpRegistrationOf, transferProblem, type StpRecord, type SwpRecord } from "./systematic-transfers.js";
import { internalRefOf } from "./trans-no-layout.js";

/** Orders placed at the exchange and registrations cancelled there, each request sent once (send-once.ts). */

/** A port method this adapter does not implement yet: a plain error (not "unavailable"), so nothing pretends to work. */
export class NotSupportedByBseError extends Error {
  constructor(method: string) {
    super(`not yet supported by the BSE adapter: ${method}`);
    this.name = "NotSupportedByBseError";
  }
}

/** A redemption's or SWP's refusal before sending: the exchange requires the account the money goes to. */
export const NO_PAYOUT_ACCOUNT = "THE INVESTOR HAS NO BANK ACCOUNT FOR THE PAYOUT";

/**
 * Places an order once. The order's earlier TransNos are read first: an answered one is answered
 * again (a dispatch that died after the exchange answered); one sent without a known answer is looked
 * up in the order status report. Otherwise a new TransNo is recorded, then sent; the answer is recorded
 * before it is returned.
 */
export async function placeOrderAtExchange(ctx: BseContext, order: OrderEntry): Promise<OrderPlacement> {
  const { orderType } = order;
  const member = memberOf(ctx.config);
  if (!["SIP", "XSIP", "STP", "SWP", "SWITCH"].includes(orderType) && !isOrderEntryType(orderType)) throw new NotSupportedByBseError(`placeOrder(${orderType})`);
  const refusal = refusalBeforeSending(ctx, order, member);
  if (refusal) return { status: "REJECTED", exchangeOrderNumber: null, ...refusal };
  const earlier = await earlierAnswer(ctx, order.orderId);
  if (earlier) return earlier;
  if (orderType === "STP") {
    return sendOnce<StpRecord>(
      ctx,
      order.orderId,
      "STP",
      (transNo) => sendStp(ctx, stpRegistrationOf(order, internalRefOf(transNo), member), { transType: "NEW" }),
      (transNo) => stpRecordOf(stpRegistrationOf(order, internalRefOf(transNo), member)),
    );
  }
  if (orderType === "SWP") {
    return sendOnce<SwpRecord>(ctx, order.orderId, "SWP", (transNo) => sendSwp(ctx, swpRegistrationOf(order, internalRefOf(transNo), member)), () => ({ clientCode: order.clientCode }));
  }
  return ctx.sessions.withSession("order", async (session) => {
    if (orderType === "SWITCH") {
      return sendOnce(ctx, order.orderId, "SWITCH", async (transNo) =>
        readSwitchAnswer(await ctx.transport.soap(ORDER_ENTRY_SERVICE, "switchOrderEntryParam", switchParams(order, transNo, member, session)), transNo),
      );
    }
    if (orderType === "SIP" || orderType === "XSIP") {
      const operation = PLAN_OPERATION[orderType];
      return sendOnce(
        ctx,
        order.orderId,
        orderType,
        async (transNo, request) => readPlanAnswer(operation, await ctx.transport.soap(ORDER_ENTRY_SERVICE, operation, withSession(request!, session)), transNo, false),
        (transNo) => planRequest(order, orderType, transNo, member),
      );
    }
    return sendOnce(ctx, order.orderId, "LUMPSUM", async (transNo) =>
      readOrderEntryAnswer(await ctx.transport.soap(ORDER_ENTRY_SERVICE, "orderEntryParam", orderEntryParams({ ...order, orderType }, transNo, member, session)), transNo),
    );
  });
}

/**
 * Why the order cannot go to the exchange as it stands, with its failure code, or null: a redemption or
 * SWP with no account to pay into (the exchange requires one: Param3, field 19), a SIP/XSIP the exchange
 * cannot take (an XSIP whose mandate has no exchange id is `mandate_invalid`), an STP/SWP missing a part or
 * with a field the exchange cannot take.
 */
function refusalBeforeSending(ctx: BseContext, order: OrderEntry, member: Member): { remark: string; failureCode: OrderFailureCode } | null {
  const { orderType } = order;
  if ((orderType === "REDEMPTION" || orderType === "SWP") && !order.payoutAccountNumber) return { remark: NO_PAYOUT_ACCOUNT, failureCode: "payout_account_invalid" };
  if (orderType === "SIP" || orderType === "XSIP") {
    const problem = planProblem(order, orderType);
    if (problem) return { remark: problem, failureCode: orderType === "XSIP" && !order.exchangeMandateId ? "mandate_invalid" : "exchange_rejected" };
  }
  if (orderType === "STP" || orderType === "SWP") {
    const problem = transferRefusal(ctx, order, member);
    if (problem) return { remark: problem, failureCode: "exchange_rejected" };
  }
  return null;
}

/** Why an STP or SWP cannot go as it stands: a missing part, or a field the exchange cannot take. */
function transferRefusal(ctx: BseContext, order: OrderEntry, member: Member): string | null {
  const problem = transferProblem(order);
  if (problem) return problem;
  try {
    if (order.orderType === "STP") checkStp(ctx, stpRegistrationOf(order, "0000000000", member));
    else checkSwp(swpRegistrationOf(order, "0000000000", member));
  } catch (error) {
    if (error instanceof BseMappingError) return mappingRemark(error);
    throw error;
  }
  return null;
}

/**
 * Cancels a SIP, XSIP or STP registration (CXL, repeating its request, naming its registration number)
 * or an SWP (MFAPI flag 10). A
 * lump sum, redemption or switch cannot be cancelled at the exchange any more (real-time integration with
 * the registrars); a registration the exchange never took has nothing to cancel. A cancellation already
 * accepted is not sent again; one the exchange says is already cancelled counts as cancelled.
 */
export async function cancelOrderAtExchange(ctx: BseContext, orderId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
  const refs = await orderRefs(ctx.db, orderId);
  const registration = refs.filter((ref) => !isCancelKind(ref.kind)).at(-1);
  if (!registration || registration.outcome !== "ACCEPTED") return { cancelled: false, remark: "NOT PLACED AT THE EXCHANGE" };
  if (!isRegistrationKind(registration.kind)) return { cancelled: false, remark: "THE EXCHANGE DOES NOT CANCEL ORDERS OF THIS TYPE" };
  const kind = registration.kind as "SIP" | "XSIP" | "STP" | "SWP";
  if (refs.some((ref) => ref.kind === `${kind}_CANCEL` && ref.outcome === "ACCEPTED")) return { cancelled: true };
  if (kind === "STP" || kind === "SWP") return cancelledOrRemark(await cancelTransfer(ctx, orderId, registration, kind));
  const request = registration.request as PlanRequest | null;
  if (!request) throw new Error(`the ${kind} registration ${registration.transNo} has no recorded request to cancel`);
  const operation = PLAN_OPERATION[kind];
  const answer = await ctx.sessions.withSession("order", (session) =>
    sendOnce(
      ctx,
      orderId,
      `${kind}_CANCEL`,
      async (transNo, cancel) => readPlanAnswer(operation, await ctx.transport.soap(ORDER_ENTRY_SERVICE, operation, withSession(cancel!, session)), transNo, true),
      (transNo) => cancelRequest(request, kind, registration.exchangeOrderNumber!, transNo),
    ),
  );
  return cancelledOrRemark(answer);
}

/** An STP's CXL (its recorded registration again, naming the number) or an SWP's flag 10, under a new TransNo. */
function cancelTransfer(ctx: BseContext, orderId: string, registration: BseOrderRef, kind: "STP" | "SWP"): Promise<SentAnswer> {
  const registrationNo = registration.exchangeOrderNumber!;
  if (!registration.request) throw new Error(`the ${kind} registration ${registration.transNo} has no recorded request to cancel`);
  if (kind === "SWP") return sendOnce(ctx, orderId, "SWP_CANCEL", () => cancelSwp(ctx, registration.request as unknown as SwpRecord, registrationNo));
  const stp = registration.request as unknown as StpRecord;
  return sendOnce(ctx, orderId, "STP_CANCEL", () => sendStp(ctx, { ...stp, mobile: null, email: null }, { transType: "CXL", registrationNo }));
}

/** A cancellation's answer: accepted, or one the exchange says is already cancelled, counts as cancelled. */
function cancelledOrRemark(answer: SentAnswer): { cancelled: true } | { cancelled: false; remark: string } {
  if (answer.status === "ACCEPTED" || /ALREADY CANCELL?ED/i.test(answer.remark ?? "")) return { cancelled: true };
  return { cancelled: false, remark: answer.remark ?? "CANCELLATION REFUSED" };
}
