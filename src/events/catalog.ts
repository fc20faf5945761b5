import { z } from "zod";

const remark = z.string().nullable();

/** Every event the service emits, with the exact data shape of the specification. */
export const EVENTS = {
  "investor.registered": z.object({ investor_id: z.string(), status: z.literal("REGISTERED"), provider_remark: remark }),
  "investor.rejected": z.object({ investor_id: z.string(), status: z.literal("REJECTED"), provider_remark: remark }),
  "mandate.registered": z.object({ mandate_id: z.string(), status: z.literal("REGISTERED") }),
  "mandate.rejected": z.object({ mandate_id: z.string(), status: z.literal("REJECTED") }),
  "mandate.cancelled": z.object({ mandate_id: z.string(), status: z.literal("CANCELLED") }),
  "order.accepted": z.object({ order_id: z.string(), status: z.literal("ACCEPTED"), provider_remark: remark }),
  "order.rejected": z.object({ order_id: z.string(), status: z.literal("REJECTED"), provider_remark: remark }),
  "order.failed": z.object({ order_id: z.string(), status: z.literal("FAILED"), provider_remark: remark }),
  "order.allotted": z.object({ order_id: z.string(), status: z.literal("ALLOTTED") }),
  "payment.captured": z.object({ payment_id: z.string(), status: z.literal("CAPTURED") }),
  "payment.failed": z.object({ payment_id: z.string(), status: z.literal("FAILED") }),
  "payment.refunded": z.object({ payment_id: z.string(), status: z.literal("REFUNDED") }),
} as const;

export type EventName = keyof typeof EVENTS;
export type EventData<N extends EventName> = z.infer<(typeof EVENTS)[N]>;
