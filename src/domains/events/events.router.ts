import type { TagDoc } from "../../platform/openapi/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { EventPage, ListEventsQuery } from "./events.schemas.js";
import { listEventLog } from "./events.service.js";

export const EVENTS_TAG: TagDoc = { name: "events", description: "The event log: every event webhooks deliver, to read or poll." };

export const eventsRouter = router({
  list: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/events/v1" },
      docs: {
        tag: EVENTS_TAG,
        summary: "Your events, oldest first",
        description:
          "Your events with the data webhooks deliver (the same thin payloads, PANs masked), oldest first from `since`, filtered by " +
          "`type` and `resource_id`; page with `limit` and `cursor`. For receivers that missed deliveries, or that poll instead: keep " +
          "the last page's `next_cursor` (or the last event's `created_at` as `since`, skipping the ids already seen). Test events " +
          "(`webhook.test`) are not listed.",
      },
    })
    .input(ListEventsQuery)
    .output(EventPage)
    .query(({ ctx, input }) => listEventLog(ctx, ctx.caller, input)),
});
