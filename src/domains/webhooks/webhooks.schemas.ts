import { z } from "zod";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
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
    .describe("Event names and `<resource>.*` wildcards (investor.*, mandate.*, order.*, payment.*, broker_change.* (beta))."),
});

const SubscriptionView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  created_at: z.string(),
});

export const CreatedSubscription = z.object({
  success: z.literal(true),
  data: SubscriptionView.extend({ secret: z.string().describe("The signing secret. Shown only in this response.") }),
});

export const SubscriptionList = z.object({ success: z.literal(true), data: z.array(SubscriptionView) });
export const DeletedSubscription = z.object({ success: z.literal(true), data: SubscriptionView.extend({ deleted: z.literal(true) }) });

export const IdInput = z.strictObject({ id: z.string().min(1).max(64) });

export const DeliveryStatus = z.enum(DELIVERY_STATUSES);

export const ListDeliveriesQuery = z.strictObject({
  status: DeliveryStatus.optional(),
  event: z.enum(SUBSCRIBABLE as unknown as [string, ...string[]]).optional().describe("An event name or a `<resource>.*` wildcard."),
  limit: Limit(100, 20),
  cursor: Cursor,
});

const DeliveryRecord = z.object({
  id: z.string(),
  subscription_id: z.string(),
  event: z.string(),
  status: DeliveryStatus,
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});

export const DeliveryPage = z.object({ success: z.literal(true), data: z.array(DeliveryRecord), next_cursor: NextCursor });

export const DeliveryDetail = z.object({
  success: z.literal(true),
  data: DeliveryRecord.extend({
    payload: z.string().describe("The exact JSON body sent (and signed) on every attempt."),
    attempt_log: z.array(
      z.object({
        attempt: z.number().int(),
        attempted_at: z.string(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        latency_ms: z.number().int(),
        response_body: z.string().describe("The first 16 KB of the answer."),
      }),
    ),
  }),
});

export const RetriedDelivery = z.object({ success: z.literal(true), data: DeliveryRecord });
