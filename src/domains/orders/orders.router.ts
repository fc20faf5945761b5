import type { TagDoc } from "../../platform/openapi/docs.js";
import { EXAMPLE_PLACEHOLDERS as P, IDEMPOTENCY_CONFLICT, PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { InstallmentList, ListOrdersQuery, OrderIdInput, OrderPage, OrderView, PauseOrderRequest, PauseView, PlacedOrder, PlaceOrderRequest } from "./orders.schemas.js";
import { pauseOrder, resumeOrder } from "./pause.js";
import { cancelOrder, getOrder, listInstallments, listOrders, placeOrder } from "./orders.service.js";

export const ORDERS_TAG: TagDoc = {
  name: "orders",
  description: "Orders of the eight types (lump sum, redemption, switch, SIP, XSIP, STP, SWP, SIP top-up), their status and installments.",
};

/** A lump sum on the demo investor's account: the order example (an order link proposes the same). */
export const PLACE_ORDER_EXAMPLE = {
  investment_account_id: P.investmentAccountId,
  order_type: "LUMPSUM_PURCHASE",
  purchase_type: "FRESH",
  scheme_code: "103166",
  amount: 5000,
  euin: { declaration: true },
  client_ref: "example-order-1",
};

export const ordersRouter = router({
  place: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/orders/v1/" },
      docs: {
        tag: ORDERS_TAG,
        summary: "Place an order of any of the eight types",
        description:
          "Validated and persisted synchronously (201, status PENDING), dispatched to the exchange asynchronously. " +
          "A rule violation is 400 with the field path and a closed `reason`. A repeated client_ref with the same " +
          "body answers the existing order; with another body 409. Idempotency-Key is accepted too.",
        created:
          "The order was placed (status PENDING) and will be dispatched to the exchange. A repeated client_ref or Idempotency-Key " +
          "with the same body answers the same 201 with the existing order.",
        notFound: "The investment account is unknown or another distributor's (NOT_FOUND): check `investment_account_id`.",
        conflict: `Conflict: \`client_ref\` already names an order placed with a different body (CONFLICT: use a new client_ref), or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: { "application/json": PLACE_ORDER_EXAMPLE },
      },
    })
    .input(PlaceOrderRequest)
    .output(PlacedOrder)
    .mutation(async ({ ctx, input }) => {
      const result = await placeOrder(ctx, ctx.caller, input, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  get: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/orders/v1/{id}" },
      docs: {
        tag: ORDERS_TAG,
        summary: "An order, masked",
        description: "One of your orders, masked, with its status, payment status and allotment. " + PATH_ID,
      },
    })
    .input(OrderIdInput)
    .output(OrderView)
    .query(({ ctx, input }) => getOrder(ctx, ctx.caller, input.id)),

  list: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/orders/v1" },
      docs: {
        tag: ORDERS_TAG,
        summary: "Your orders, newest first",
        description:
          "Your orders, newest first, filtered by `status`, `investor_id`, `order_type` and `parent_order_id` (the installment orders of a SIP, XSIP, STP or SWP registration); " +
          "page with `limit` and `cursor`. Another distributor's `investor_id` or `parent_order_id` answers an empty list.",
      },
    })
    .input(ListOrdersQuery)
    .output(OrderPage)
    .query(({ ctx, input }) => listOrders(ctx, ctx.caller, input)),

  installments: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/orders/v1/{id}/installments" },
      docs: {
        tag: ORDERS_TAG,
        summary: "A SIP, XSIP, STP or SWP registration's schedule",
        description: "Written when the exchange accepts the registration; empty before that and for other order types.",
      },
    })
    .input(OrderIdInput)
    .output(InstallmentList)
    .query(({ ctx, input }) => listInstallments(ctx, ctx.caller, input.id)),

  cancel: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/orders/v1/{id}/cancel" },
      docs: {
        tag: ORDERS_TAG,
        summary: "Cancel an order not yet sent, or ask the exchange to cancel a registration",
        description:
          "Only the cancels the exchange honours. A PENDING order not yet sent to the exchange is CANCELLED at once (event order.cancelled). " +
          "An ACCEPTED SIP, XSIP, STP or SWP registration: its cancellation is sent to the exchange and the order stays ACCEPTED with " +
          "`cancellation.status` PENDING; it becomes CANCELLED (event order.cancelled, remaining installments cancelled) when the exchange " +
          "confirms, and stays ACCEPTED with `cancellation.status` REFUSED and the exchange's remark when it refuses (it may be asked again). " +
          "Asking again while the cancellation is PENDING answers the same order. No installment is created while it is pending. A cancel " +
          "records no refund. " + PATH_ID,
        conflict:
          "INVALID_STATE: an ACCEPTED lump sum, redemption, switch, SIP top-up or installment (the exchange does not cancel an accepted " +
          "one-time order); an order being sent to the exchange or held there (wait for order.accepted); an allotted, rejected, failed or " +
          "cancelled order.",
      },
    })
    .input(OrderIdInput)
    .output(OrderView)
    .mutation(({ ctx, input }) => cancelOrder(ctx, ctx.caller, input.id)),

  pause: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/orders/v1/{id}/pause" },
      docs: {
        tag: ORDERS_TAG,
        summary: "Pause an ACCEPTED SIP or XSIP for a number of installments",
        description:
          "Pauses the next `installments` installments not yet created: they show PAUSED in the installment list and are never created " +
          "nor debited; the plan's end moves on by as many; the plan resumes by itself after them. The pause is asked of the exchange " +
          "asynchronously: `status` PENDING, then CONFIRMED (event order.paused) or REFUSED with the exchange's remark (the schedule put back). " +
          "Within the exchange's SIP master pause rules for the scheme (pause flag, minimum and maximum, times per registration), else 1 to 6 " +
          "installments once per registration. Idempotency-Key is accepted. " + PATH_ID,
        conflict:
          "INVALID_STATE: not a SIP or XSIP registration, not ACCEPTED, cancellation asked, already paused or the pause used, or the " +
          `SIP master does not allow pausing the scheme; or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: { "application/json": { installments: 3 } },
      },
    })
    .input(PauseOrderRequest)
    .output(PauseView)
    .mutation(async ({ ctx, input }) => {
      const result = await pauseOrder(ctx, ctx.caller, input.id, input.installments, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  resume: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/orders/v1/{id}/resume" },
      docs: {
        tag: ORDERS_TAG,
        summary: "End a SIP or XSIP pause early, where the exchange allows it",
        description:
          "The paused installments due today or later are scheduled again and the plan's end moves back by as many (event order.resumed). " +
          "The sandbox allows it; BSE's PauseSIP has no resume, so there it is 409. " + PATH_ID,
        conflict: "INVALID_STATE: the order is not paused, its pause is still PENDING at the exchange, or the exchange does not allow ending a pause early.",
      },
    })
    .input(OrderIdInput)
    .output(PauseView)
    .mutation(({ ctx, input }) => resumeOrder(ctx, ctx.caller, input.id)),
});
