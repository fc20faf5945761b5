import { z } from "zod";
import { MISMATCH_KINDS } from "../reconciliations/reconciliation.states.js";

const remark = z.string().nullable();

/** events.resource_type: what an event is about; every event's name starts with it (the database checks both lists). */
export const EVENT_RESOURCE_TYPES = ["investor", "mandate", "order", "payment", "broker_change", "reconciliation", "webhook"] as const;
export type EventResourceType = (typeof EVENT_RESOURCE_TYPES)[number];

/** The id prefix of each resource type's events (`resource_id`), so a lookup by id names its type too. */
const RESOURCE_ID_PREFIXES: Record<string, EventResourceType> = {
  inv: "investor", mdt: "mandate", ord: "order", pay: "payment", bcr: "broker_change", rcm: "reconciliation", whs: "webhook",
};

/** The resource type an event about this id has, or null when no event can be about it. */
export function resourceTypeOfId(id: string): EventResourceType | null {
  const prefix = /^([a-z]+)_/.exec(id)?.[1];
  return (prefix !== undefined && Object.hasOwn(RESOURCE_ID_PREFIXES, prefix) && RESOURCE_ID_PREFIXES[prefix]) || null;
}

/** Every event the service emits, with the exact data shape of the specification. */
export const EVENTS = {
  "investor.registered": z.object({ investor_id: z.string(), status: z.literal("REGISTERED"), provider_remark: remark }),
  "investor.rejected": z.object({ investor_id: z.string(), status: z.literal("REJECTED"), provider_remark: remark }),
  "investor.updated": z.object({ investor_id: z.string(), change_id: z.string(), fields: z.array(z.string()) }),
  "investor.update_rejected": z.object({ investor_id: z.string(), change_id: z.string(), provider_remark: z.string() }),
  "mandate.registered": z.object({ mandate_id: z.string(), status: z.literal("REGISTERED") }),
  "mandate.rejected": z.object({ mandate_id: z.string(), status: z.literal("REJECTED") }),
  "mandate.cancelled": z.object({ mandate_id: z.string(), status: z.literal("CANCELLED") }),
  "order.accepted": z.object({ order_id: z.string(), status: z.literal("ACCEPTED"), provider_remark: remark }),
  "order.rejected": z.object({ order_id: z.string(), status: z.literal("REJECTED"), provider_remark: remark }),
  "order.failed": z.object({ order_id: z.string(), status: z.literal("FAILED"), provider_remark: remark }),
  "order.allotted": z.object({ order_id: z.string(), status: z.literal("ALLOTTED") }),
  "order.cancelled": z.object({ order_id: z.string(), status: z.literal("CANCELLED"), provider_remark: remark }),
  "payment.captured": z.object({ payment_id: z.string(), status: z.literal("CAPTURED") }),
  "payment.failed": z.object({ payment_id: z.string(), status: z.literal("FAILED") }),
  "payment.refunded": z.object({ payment_id: z.string(), status: z.literal("REFUNDED") }),
  // Beta, outside the specification's catalog (design: "Broker change requests (beta)").
  "broker_change.submitted": z.object({ broker_change_id: z.string(), status: z.literal("SUBMITTED"), provider_remark: remark }),
  "broker_change.rejected": z.object({ broker_change_id: z.string(), status: z.literal("REJECTED"), provider_remark: remark }),
  // Operations, outside the specification's catalog (issue 25): a difference between our orders and the exchange's reports.
  "reconciliation.mismatch": z.object({
    mismatch_id: z.string(),
    date: z.string(),
    kind: z.enum(MISMATCH_KINDS),
    order_id: z.string().nullable(),
    exchange_order_number: z.string().nullable(),
    ours: z.string().nullable(),
    theirs: z.string().nullable(),
    fixed: z.boolean(),
  }),
  // Operations, outside the specification: sent on request to one subscription (POST .../subscriptions/{id}/test).
  "webhook.test": z.object({ subscription_id: z.string(), message: z.string() }),
  // Operations, outside the specification's catalog: sent to the distributor's other ACTIVE subscriptions (webhooks/health.ts).
  "webhook.subscription_disabled": z.object({
    subscription_id: z.string(),
    url: z.string(),
    status: z.literal("DISABLED"),
    failing_since: z.string(),
    disabled_at: z.string(),
  }),
  // Issue 26: a SIP or XSIP pause the exchange confirmed (until_date: the last paused installment's due date), and one ended early.
  "order.paused": z.object({ order_id: z.string(), installments: z.number().int(), from_date: z.string(), until_date: z.string() }),
  "order.resumed": z.object({ order_id: z.string(), resumed_from_date: z.string().nullable() }),
} as const satisfies Record<`${EventResourceType}.${string}`, z.ZodType>;

export type EventName = keyof typeof EVENTS;
/** events.event and webhook_deliveries.event, in catalog order. */
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
export type EventData<N extends EventName> = z.infer<(typeof EVENTS)[N]>;

/**
 * Events sent to one subscription on request, never recorded in `events` nor fanned out: nobody subscribes
 * to them and the event log does not list them.
 */
export const DIRECT_EVENTS = ["webhook.test"] as const satisfies readonly EventName[];
export type DirectEventName = (typeof DIRECT_EVENTS)[number];
/** The events the fan-out and the event log know: every event but the direct ones. */
export const RECORDED_EVENT_NAMES = EVENT_NAMES.filter((name): name is Exclude<EventName, DirectEventName> => !(DIRECT_EVENTS as readonly string[]).includes(name));
