import { z } from "zod";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { CreatedAt, ResourceId, Success } from "../shared/fields.schemas.js";
import { EVENT_RESOURCE_TYPES, RECORDED_EVENT_NAMES } from "./catalog.js";

export const ListEventsQuery = z.strictObject({
  type: z
    .enum(RECORDED_EVENT_NAMES as [string, ...string[]])
    .optional()
    .describe("Only events of this type, a name of the catalog (e.g. `order.allotted`)."),
  resource_id: z.string().min(1).max(64).optional().describe("Only events about this resource: its id (`ord_`..., `inv_`..., `mdt_`..., `pay_`...)."),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("Only events recorded at or after this instant (ISO 8601 with a zone, e.g. `2026-11-20T00:00:00+05:30`); from the first when absent."),
  limit: Limit(100, 50),
  cursor: Cursor,
});

const EventRecord = z.object({
  id: ResourceId,
  type: z.enum(RECORDED_EVENT_NAMES as [string, ...string[]]).describe("What happened: the event's name, as webhooks send it in X-MF-Event."),
  resource_type: z.enum(EVENT_RESOURCE_TYPES).describe("The kind of resource the event is about."),
  resource_id: z.string().describe("The id of the resource the event is about."),
  data: z.record(z.string(), z.unknown()).describe("The event's data, exactly what a webhook delivery carries under `data` (PANs masked)."),
  created_at: CreatedAt,
});

export const EventPage = z.object({
  success: Success,
  data: z.array(EventRecord).describe("Your events on this page, oldest first."),
  next_cursor: NextCursor,
});
