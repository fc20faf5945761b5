import { NoInput } from "../../platform/lib/zod.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { getDelivery, listDeliveries, retryDelivery } from "./deliveries.service.js";
import { createSubscription, deleteSubscription, listSubscriptions } from "./subscriptions.service.js";
import {
  CreatedSubscription,
  CreateSubscriptionRequest,
  DeletedSubscription,
  DeliveryDetail,
  DeliveryPage,
  IdInput,
  ListDeliveriesQuery,
  RetriedDelivery,
  SubscriptionList,
} from "./webhooks.schemas.js";

const meta = (method: "GET" | "POST" | "DELETE", path: `/${string}`, summary: string, description?: string) => ({
  openapi: { method, path: `/api/webhooks/v1${path}` as `/${string}`, tags: ["webhooks"], summary, ...(description ? { description } : {}) },
});

export const webhooksRouter = router({
  subscribe: authedProcedure
    .meta(meta("POST", "/subscriptions", "Subscribe a URL to events", "The URL must be https, without credentials, and resolve only to public addresses. The signing secret is in this response only."))
    .input(CreateSubscriptionRequest)
    .output(CreatedSubscription)
    .mutation(async ({ ctx, input }) => {
      const result = await createSubscription(ctx, ctx.caller, input, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  subscriptions: authedProcedure
    .meta(meta("GET", "/subscriptions", "Your subscriptions (without secrets)"))
    .input(NoInput)
    .output(SubscriptionList)
    .query(({ ctx }) => listSubscriptions(ctx, ctx.caller)),

  unsubscribe: authedProcedure
    .meta(meta("DELETE", "/subscriptions/{id}", "Delete a subscription", "Its pending deliveries end FAILED."))
    .input(IdInput)
    .output(DeletedSubscription)
    .mutation(({ ctx, input }) => deleteSubscription(ctx, ctx.caller, input.id)),

  deliveries: authedProcedure
    .meta(meta("GET", "/deliveries", "Deliveries, newest first"))
    .input(ListDeliveriesQuery)
    .output(DeliveryPage)
    .query(({ ctx, input }) => listDeliveries(ctx, ctx.caller, input)),

  delivery: authedProcedure
    .meta(meta("GET", "/deliveries/{id}", "A delivery with its attempts"))
    .input(IdInput)
    .output(DeliveryDetail)
    .query(({ ctx, input }) => getDelivery(ctx, ctx.caller, input.id)),

  retry: authedProcedure
    .meta(meta("POST", "/deliveries/{id}/retry", "Retry a PARKED or FAILED delivery now"))
    .input(IdInput)
    .output(RetriedDelivery)
    .mutation(({ ctx, input }) => retryDelivery(ctx, ctx.caller, input.id)),
});
