import { authedProcedure, router } from "../shared/procedures.js";
import { InstallmentList, ListOrdersQuery, OrderIdInput, OrderPage, OrderView, PlacedOrder, PlaceOrderRequest } from "./orders.schemas.js";
import { cancelOrder, getOrder, listInstallments, listOrders, placeOrder } from "./orders.service.js";

export const ordersRouter = router({
  place: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/orders/v1/",
        tags: ["orders"],
        summary: "Place an order of any of the eight types",
        description:
          "Validated and persisted synchronously (201, status PENDING), dispatched to the exchange asynchronously. " +
          "A rule violation is 400 with the field path and a closed `reason`. A repeated client_ref with the same " +
          "body answers the existing order; with another body 409. Idempotency-Key is accepted too.",
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
    .meta({ openapi: { method: "GET", path: "/api/orders/v1/{id}", tags: ["orders"], summary: "An order, masked" } })
    .input(OrderIdInput)
    .output(OrderView)
    .query(({ ctx, input }) => getOrder(ctx, ctx.caller, input.id)),

  list: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/orders/v1", tags: ["orders"], summary: "Your orders, newest first" } })
    .input(ListOrdersQuery)
    .output(OrderPage)
    .query(({ ctx, input }) => listOrders(ctx, ctx.caller, input)),

  installments: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/orders/v1/{id}/installments",
        tags: ["orders"],
        summary: "A SIP, XSIP, STP or SWP registration's schedule",
        description: "Written when the exchange accepts the registration; empty before that and for other order types.",
      },
    })
    .input(OrderIdInput)
    .output(InstallmentList)
    .query(({ ctx, input }) => listInstallments(ctx, ctx.caller, input.id)),

  cancel: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/orders/v1/{id}/cancel",
        tags: ["orders"],
        summary: "Cancel an order not yet sent, or ask the exchange to cancel a registration",
      },
    })
    .input(OrderIdInput)
    .output(OrderView)
    .mutation(({ ctx, input }) => cancelOrder(ctx, ctx.caller, input.id)),
});
