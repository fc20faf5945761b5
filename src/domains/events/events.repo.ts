import type { DbOrTx, Prisma, Tx } from "../../platform/db/client.js";
import { newId } from "../../platform/lib/ids.js";
import { maskPansDeep } from "../../platform/lib/mask.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { EVENT_NAMES, EVENT_RESOURCE_TYPES, EVENTS, type DirectEventName, type EventData, type EventName, type EventResourceType } from "./catalog.js";

/** What recordEvent takes: every event but the direct ones (catalog.ts), which only their sender makes. */
type RecordedName = Exclude<EventName, DirectEventName>;
import { passToSinks } from "./sinks.js";

/**
 * Records an event. Call it inside the transaction of the state change it describes, so the event
 * exists exactly when the change does; its sinks (the webhook fan-out) run in the same transaction.
 * Every string of its data (remarks are free text) is stored and sent with PANs masked.
 */
export async function recordEvent<N extends RecordedName>(
  tx: Tx,
  input: { distributorId: string; resourceType: EventResourceType; resourceId: string; event: N; data: EventData<N> },
): Promise<string> {
  const [id] = await recordEvents(tx, [input as EventInput]);
  return id!;
}

export type EventInput = { [N in RecordedName]: { distributorId: string; resourceType: EventResourceType; resourceId: string; event: N; data: EventData<N> } }[RecordedName];

/**
 * Records several events of one transaction in one statement (a batch of state changes, see
 * moveManyFromPending), then hands each to the sinks, in order. Answers their ids, in order.
 */
export async function recordEvents(tx: Tx, inputs: EventInput[]): Promise<string[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => ({
    id: newId("evt"),
    distributorId: input.distributorId,
    resourceType: input.resourceType,
    resourceId: input.resourceId,
    event: input.event,
    data: maskPansDeep(EVENTS[input.event].parse(input.data)),
  }));
  if (rows.length === 1) await tx.event.create({ data: rows[0]! });
  else await tx.event.createMany({ data: rows });
  for (const row of rows) await passToSinks(tx, { id: row.id, distributorId: row.distributorId, event: row.event, data: row.data });
  return rows.map((row) => row.id);
}

export type EventRow = Omit<Prisma.EventGetPayload<object>, "event" | "resourceType"> & { event: EventName; resourceType: EventResourceType };

const toRow = (row: Prisma.EventGetPayload<object>): EventRow => ({
  ...row,
  event: narrowTo(EVENT_NAMES, row.event, "events.event"),
  resourceType: narrowTo(EVENT_RESOURCE_TYPES, row.resourceType, "events.resource_type"),
});

/**
 * A distributor's events, oldest first by (created_at, id), from `since` and after the cursor's keys, with one
 * row beyond `limit` (it says a next page exists). Over the (distributor_id, created_at, id) index, or
 * (distributor_id, event, created_at, id) with a type; a resource id narrows through (resource_type, resource_id).
 */
export async function listEvents(
  db: DbOrTx,
  filter: { distributorId: string; event?: string; resource?: { type: EventResourceType; id: string }; since?: Date; after?: { createdAt: Date; id: string }; limit: number },
): Promise<EventRow[]> {
  const after = filter.after;
  const from = [filter.since, after?.createdAt].filter((d): d is Date => d !== undefined).reduce<Date | undefined>((a, b) => (a && a > b ? a : b), undefined);
  const rows = await db.event.findMany({
    where: {
      distributorId: filter.distributorId,
      ...(filter.event ? { event: filter.event } : {}),
      ...(filter.resource ? { resourceType: filter.resource.type, resourceId: filter.resource.id } : {}),
      ...(from ? { createdAt: { gte: from } } : {}),
      ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: filter.limit + 1,
  });
  return rows.map(toRow);
}
