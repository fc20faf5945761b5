import { NoInput } from "../../platform/lib/zod.js";
import type { TagDoc } from "../../platform/openapi/docs.js";
import { IDEMPOTENCY_CONFLICT, PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { getDelivery, listDeliveries, retryDelivery } from "./deliveries.service.js";
import { createSubscription, deleteSubscription, enableSubscription, listSubscriptions } from "./subscriptions.service.js";
import {
  CreatedSubscription,
  CreateSubscriptionRequest,
  DeletedSubscription,
  DeliveryDetail,
  DeliveryPage,
  EnabledSubscription,
  IdInput,
  ListDeliveriesQuery,
  RetriedDelivery,
  SubscriptionList,
} from "./webhooks.schemas.js";

export const WEBHOOKS_TAG: TagDoc = { name: "webhooks", description: "Subscriptions to events, signed deliveries and their retries." };

const route = (method: "GET" | "POST" | "DELETE", path: `/${string}`) => ({ method, path: `/api/webhooks/v1${path}` as `/${string}` });

export const webhooksRouter = router({
  subscribe: authedProcedure
    .meta({
      openapi: route("POST", "/subscriptions"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "Subscribe a URL to events",
        description: "The URL must be https, without credentials, and resolve only to public addresses. The signing secret is in this response only.",
        created: "The subscription was created; `secret` signs its deliveries and is shown only in this answer (and its Idempotency-Key repeats).",
        conflict: `Conflict: ${IDEMPOTENCY_CONFLICT}; or you hold the most subscriptions allowed (ACTIVE and DISABLED, 20 unless configured): delete one first (CONFLICT).`,
        idempotent: true,
        examples: { "application/json": { url: "https://hooks.example.com/mf-events", events: ["order.*", "payment.captured"] } },
      },
    })
    .input(CreateSubscriptionRequest)
    .output(CreatedSubscription)
    .mutation(async ({ ctx, input }) => {
      const result = await createSubscription(ctx, ctx.caller, input, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  subscriptions: authedProcedure
    .meta({
      openapi: route("GET", "/subscriptions"),
      docs: { tag: WEBHOOKS_TAG, summary: "Your subscriptions (without secrets)", description: "Your ACTIVE and DISABLED subscriptions, without their secrets." },
    })
    .input(NoInput)
    .output(SubscriptionList)
    .query(({ ctx }) => listSubscriptions(ctx, ctx.caller)),

  unsubscribe: authedProcedure
    .meta({
      openapi: route("DELETE", "/subscriptions/{id}"),
      docs: { tag: WEBHOOKS_TAG, summary: "Delete a subscription", description: "An ACTIVE or DISABLED subscription; its pending deliveries end FAILED." },
    })
    .input(IdInput)
    .output(DeletedSubscription)
    .mutation(({ ctx, input }) => deleteSubscription(ctx, ctx.caller, input.id)),

  deliveries: authedProcedure
    .meta({
      openapi: route("GET", "/deliveries"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "Deliveries, newest first",
        description: "Your webhook deliveries, newest first, filtered by `status` and `event`; page with `limit` and `cursor`.",
      },
    })
    .input(ListDeliveriesQuery)
    .output(DeliveryPage)
    .query(({ ctx, input }) => listDeliveries(ctx, ctx.caller, input)),

  delivery: authedProcedure
    .meta({
      openapi: route("GET", "/deliveries/{id}"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "A delivery with its attempts",
        description: "One of your deliveries with every attempt (time, status code, latency, error). " + PATH_ID,
      },
    })
    .input(IdInput)
    .output(DeliveryDetail)
    .query(({ ctx, input }) => getDelivery(ctx, ctx.caller, input.id)),

  retry: authedProcedure
    .meta({
      openapi: route("POST", "/deliveries/{id}/retry"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "Retry a PARKED or FAILED delivery now",
        description: "Queues a PARKED or FAILED delivery for an attempt now. " + PATH_ID,
        conflict: "The delivery is neither PARKED nor FAILED (INVALID_STATE): it is delivered, or already queued.",
      },
    })
    .input(IdInput)
    .output(RetriedDelivery)
    .mutation(({ ctx, input }) => retryDelivery(ctx, ctx.caller, input.id)),

  // Endpoint health (webhooks/health.ts).
  enable: authedProcedure
    .meta({
      openapi: route("POST", "/subscriptions/{id}/enable"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "Enable a DISABLED subscription",
        description:
          "A subscription whose deliveries all failed for 3 days is DISABLED: no deliveries are created for it and its pending ones are PARKED. " +
          "This makes it ACTIVE again with its health clock reset; its PARKED deliveries stay parked until retried. An ACTIVE subscription is answered unchanged. " +
          PATH_ID,
      },
    })
    .input(IdInput)
    .output(EnabledSubscription)
    .mutation(({ ctx, input }) => enableSubscription(ctx, ctx.caller, input.id)),
});
