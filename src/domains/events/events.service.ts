import { validationError } from "../../platform/lib/errors.js";
import { readCursor, toPage } from "../../platform/lib/zod.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { resourceTypeOfId } from "./catalog.js";
import { listEvents } from "./events.repo.js";
import { toEventView } from "./views.js";

/**
 * The caller's events, oldest first, so a poller keeps its place with the cursor (or the last `created_at`
 * as `since`). The cursor holds the last row's (created_at, id).
 */
export async function listEventLog(services: Services, caller: Caller, query: { type?: string; resource_id?: string; since?: string; limit: number; cursor?: string }) {
  const keys = readCursor(query.cursor, 2);
  const after = keys ? { createdAt: new Date(keys[0]!), id: keys[1]! } : undefined;
  if (after && Number.isNaN(after.createdAt.getTime())) {
    throw validationError([{ path: "cursor", message: "Unknown or damaged cursor: pass next_cursor as the last page gave it, or start without a cursor", reason: "invalid_cursor" }]);
  }
  // The type from the id's prefix puts the lookup on the (resource_type, resource_id) index on any PostgreSQL (18's
  // skip scan hid its absence); an id no event can be about answers an empty page without a query.
  const resourceType = query.resource_id === undefined ? undefined : resourceTypeOfId(query.resource_id);
  if (resourceType === null) return { success: true as const, data: [], next_cursor: null };
  const rows = await listEvents(services.prisma, {
    distributorId: caller.distributorId,
    event: query.type,
    resource: resourceType && query.resource_id ? { type: resourceType, id: query.resource_id } : undefined,
    since: query.since ? new Date(query.since) : undefined,
    after,
    limit: query.limit,
  });
  return { success: true as const, ...toPage(rows, query.limit, (row) => [row.createdAt.toISOString(), row.id], toEventView) };
}
