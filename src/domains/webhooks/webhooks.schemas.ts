import { z } from "zod";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { CreatedAt, PathId, ResourceId, state, stateFilter, Success } from "../shared/fields.schemas.js";
import { SUBSCRIBABLE } from "./event-filter.js";
import { DELIVERY_STATUSES } from "./webhook.states.js";

const EventFilter = z.enum(SUBSCRIBABLE as unknown as [string, ...string[]]);

export const CreateSubscriptionRequest = z.strictObject({
  url: z.string().trim().min(1).max(2048).describe("An https URL whose every address is public."),
  events: z
    .array(EventFilter)
    .min(1)
    .max(SUBSCRIBABLE.length)
    .refine((events) => new Set(events).size === events.length, { message: "must not repeat an entry", params: { reason: "duplicate" } })
    .describe("Event names and `<resource>.*` wildcards (investor.*, mandate.*, order.*, payment.*, broker_change.* (beta), reconciliation.*)."),
});

const SubscriptionView = z.object({
  id: ResourceId,
  url: z.string().describe("The https URL deliveries are posted to."),
  events: z.array(z.string()).describe("Event names and `<resource>.*` wildcards."),
  created_at: CreatedAt,
});

export const CreatedSubscription = z.object({
  success: Success,
  data: SubscriptionView.extend({ secret: z.string().describe("The signing secret. Shown only in this response.") }).describe(
    "The subscription with its signing secret.",
  ),
});

export const SubscriptionList = z.object({ success: Success, data: z.array(SubscriptionView).describe("Your active subscriptions.") });
export const DeletedSubscription = z.object({
  success: Success,
  data: SubscriptionView.extend({ deleted: z.literal(true).describe("Always true: the subscription was deleted.") }).describe("The deleted subscription."),
});

export const IdInput = z.strictObject({ id: PathId });

export const DeliveryStatus = z.enum(DELIVERY_STATUSES);

export const ListDeliveriesQuery = z.strictObject({
  status: stateFilter(DeliveryStatus),
  event: z.enum(SUBSCRIBABLE as unknown as [string, ...string[]]).optional().describe("Only deliveries of this event."),
  limit: Limit(100, 20),
  cursor: Cursor,
});

const DeliveryRecord = z.object({
  id: ResourceId,
  subscription_id: z.string().describe("The webhook subscription's id."),
  event: z.string().describe("The event's name, e.g. `order.allotted`."),
  status: state(DeliveryStatus),
  attempts: z.number().int().describe("How many attempts were made."),
  last_status_code: z.number().int().nullable().describe("The HTTP status of the last attempt; null when it got no answer."),
  last_error: describeAfter(z.string().nullable(), "Why the last attempt failed, when it did."),
  next_attempt_at: describeAfter(z.string().nullable(), "When the next attempt is due (ISO 8601, UTC); null when none is."),
  delivered_at: describeAfter(z.string().nullable(), "When an attempt was answered 2xx (ISO 8601, UTC); null before."),
  created_at: CreatedAt,
});

export const DeliveryPage = z.object({ success: Success, data: z.array(DeliveryRecord).describe("Deliveries on this page, newest first."), next_cursor: NextCursor });

export const DeliveryDetail = z.object({
  success: Success,
  data: DeliveryRecord.extend({
    payload: z.string().describe("The exact JSON body sent (and signed) on every attempt."),
    attempt_log: z
      .array(
        z.object({
          attempt: z.number().int().describe("The attempt's number, from 1."),
          attempted_at: z.string().describe("When the attempt was made (ISO 8601, UTC)."),
          status_code: z.number().int().nullable().describe("The HTTP status the receiver answered; null when it did not answer."),
          error: describeAfter(z.string().nullable(), "Why the attempt failed (connection, timeout, a non-2xx answer); null when it was delivered."),
          latency_ms: z.number().int().describe("How long the attempt took, in milliseconds."),
          response_body: z.string().describe("The first 16 KB of the answer."),
        }),
      )
      .describe("Every attempt, oldest first."),
  }).describe("The delivery with its attempts."),
});

export const RetriedDelivery = z.object({ success: Success, data: DeliveryRecord.describe("The delivery, queued for an attempt now.") });

export const RotateSecretRequest = z.strictObject({
  id: PathId,
  expire_previous_in_hours: z
    .number()
    .int()
    .min(0)
    .max(72)
    .describe("How long the replaced secret keeps signing beside the new one, in hours (0-72); 0 replaces it at once."),
});

export const RotatedSecret = z.object({
  success: Success,
  data: SubscriptionView.extend({
    secret: z.string().describe("The new signing secret. Shown only in this response (and its Idempotency-Key repeats while it is current)."),
    previous_secret_expires_at: describeAfter(
      z.string().nullable(),
      "Until when the replaced secret also signs (ISO 8601, UTC): every delivery carries two `v1` signatures until then; null when it was replaced at once.",
    ),
  }).describe("The subscription with its new signing secret."),
});

/** Replay's longest range: a week of deliveries per call. */
export const REPLAY_MAX_DAYS = 7;
const Instant = (what: string) => z.iso.datetime({ offset: true }).describe(`${what} (ISO 8601 with a zone, e.g. \`2026-11-20T00:00:00+05:30\`).`);

export const ReplayRequest = z
  .strictObject({
    since: Instant("Deliveries created at or after this instant"),
    until: Instant(`Deliveries created before this instant; at most ${REPLAY_MAX_DAYS} days after \`since\``),
    status: z.enum(["FAILED", "PARKED"]).optional().describe("Only deliveries in this state; both when absent."),
    event: z.enum(SUBSCRIBABLE as unknown as [string, ...string[]]).optional().describe("Only deliveries of this event (a name or a `<resource>.*` wildcard)."),
  })
  .superRefine((input, ctx) => {
    const span = Date.parse(input.until) - Date.parse(input.since);
    if (span <= 0) ctx.addIssue({ code: "custom", path: ["until"], message: "must be after since", params: { reason: "invalid_value" } });
    else if (span > REPLAY_MAX_DAYS * 86_400_000) {
      ctx.addIssue({ code: "custom", path: ["until"], message: `must be at most ${REPLAY_MAX_DAYS} days after since: replay a longer period in several calls`, params: { reason: "too_big" } });
    }
  });

export const ReplayAnswer = z.object({
  success: Success,
  data: z.object({ replayed: z.number().int().describe("How many FAILED or PARKED deliveries were queued for an attempt now (0 when none was left to queue).") }).describe("What was replayed."),
});

export const TestEventAnswer = z.object({
  success: Success,
  data: z
    .object({
      delivery_id: z.string().describe("The test delivery's id (`whd_`...), sent as X-MF-Delivery; GET /api/webhooks/v1/deliveries/{id} shows it."),
      delivered: z.boolean().describe("Whether the receiver answered 2xx."),
      status_code: z.number().int().nullable().describe("The HTTP status the receiver answered; null when it did not answer."),
      latency_ms: z.number().int().describe("How long the attempt took, in milliseconds."),
      error: describeAfter(z.string().nullable(), "Why the attempt failed (connection, timeout, a non-2xx answer, a refused target); null when it was delivered."),
    })
    .describe("The attempt, made now."),
});
