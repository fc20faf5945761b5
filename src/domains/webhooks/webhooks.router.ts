import { NoInput } from "../../platform/lib/zod.js";
import type { TagDoc } from "../../platform/openapi/docs.js";
import { IDEMPOTENCY_CONFLICT, PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { getDelivery, listDeliveries, REPLAY_MAX_DELIVERIES, replayDeliveries, retryDelivery } from "./deliveries.service.js";
import { createSubscription, deleteSubscription, listSubscriptions, rotateSubscriptionSecret } from "./subscriptions.service.js";
import { sendTestEvent, TESTS_PER_MINUTE } from "./test-event.js";
import {
  CreatedSubscription,
  CreateSubscriptionRequest,
  DeletedSubscription,
  DeliveryDetail,
  DeliveryPage,
  IdInput,
  ListDeliveriesQuery,
  REPLAY_MAX_DAYS,
  ReplayAnswer,
  ReplayRequest,
  RetriedDelivery,
  RotatedSecret,
  RotateSecretRequest,
  SubscriptionList,
  TestEventAnswer,
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
        conflict: `Conflict: ${IDEMPOTENCY_CONFLICT}.`,
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
      docs: { tag: WEBHOOKS_TAG, summary: "Your subscriptions (without secrets)", description: "Your active subscriptions, without their secrets." },
    })
    .input(NoInput)
    .output(SubscriptionList)
    .query(({ ctx }) => listSubscriptions(ctx, ctx.caller)),

  unsubscribe: authedProcedure
    .meta({
      openapi: route("DELETE", "/subscriptions/{id}"),
      docs: { tag: WEBHOOKS_TAG, summary: "Delete a subscription", description: "Its pending deliveries end FAILED." },
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

  rotateSecret: authedProcedure
    .meta({
      openapi: route("POST", "/subscriptions/{id}/rotate-secret"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "Rotate a subscription's signing secret",
        description:
          "Gives the subscription a new signing secret, shown only in this answer. The replaced secret keeps signing beside it for " +
          "`expire_previous_in_hours` (0-72; 0 replaces it at once): until then every delivery's X-MF-Signature carries two `v1` " +
          "signatures, the new secret's first, and a receiver verifying with either secret accepts it. Rotating again during an overlap " +
          "drops the older replaced secret at once: at most two secrets sign. " + PATH_ID,
        conflict: `Conflict: ${IDEMPOTENCY_CONFLICT}; or the Idempotency-Key's rotation has been replaced by a later one, whose secret it no longer shows.`,
        idempotent: true,
        examples: { "application/json": { expire_previous_in_hours: 24 } },
      },
    })
    .input(RotateSecretRequest)
    .output(RotatedSecret)
    .mutation(({ ctx, input }) => rotateSubscriptionSecret(ctx, ctx.caller, input, ctx.idempotencyKey)),

  test: authedProcedure
    .meta({
      openapi: route("POST", "/subscriptions/{id}/test"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "Send a test event to a subscription now",
        description:
          "Sends the event `webhook.test` (`{subscription_id, message}`) to the subscription now, exactly as deliveries are sent (target " +
          "check, headers, signatures, 10 s limit), and answers the attempt. The delivery is recorded with its attempt and never retried. " +
          `At most ${TESTS_PER_MINUTE} per subscription per minute. ` + PATH_ID,
        responses: {
          "429": {
            description: `More than ${TESTS_PER_MINUTE} test events to this subscription in a minute, or the client's request budget is spent (RATE_LIMITED): wait \`Retry-After\` seconds.`,
            headers: ["Retry-After"],
          },
        },
      },
    })
    .input(IdInput)
    .output(TestEventAnswer)
    .mutation(({ ctx, input }) => sendTestEvent(ctx, ctx.caller, input.id)),

  replay: authedProcedure
    .meta({
      openapi: route("POST", "/deliveries/replay"),
      docs: {
        tag: WEBHOOKS_TAG,
        summary: "Replay FAILED and PARKED deliveries of a period",
        description:
          "Queues your FAILED and PARKED deliveries created in [`since`, `until`) for an attempt now, optionally only one `status` or " +
          `\`event\`, and answers how many. At most ${REPLAY_MAX_DAYS} days and ${REPLAY_MAX_DELIVERIES} deliveries per call (400 beyond: ` +
          "split the period). Deliveries of deleted subscriptions and test events are not replayed. A repeat while they wait queues " +
          "nothing new (`replayed: 0`); one that fails again is PARKED again.",
        conflict: `Conflict: ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: { "application/json": { since: "2099-11-20T00:00:00+05:30", until: "2099-11-21T00:00:00+05:30", status: "PARKED" } },
      },
    })
    .input(ReplayRequest)
    .output(ReplayAnswer)
    .mutation(({ ctx, input }) => replayDeliveries(ctx, ctx.caller, input, ctx.idempotencyKey)),
});
