import type { EventRow } from "./events.repo.js";

/** An event as the event log shows it: its data exactly as stored, which is what webhooks deliver. */
export function toEventView(row: EventRow) {
  return {
    id: row.id,
    type: row.event,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    data: row.data as Record<string, unknown>,
    created_at: row.createdAt.toISOString(),
  };
}
