import type { Tx } from "../../platform/db/client.js";
import { newId } from "../../platform/lib/ids.js";
import { maskPansDeep } from "../../platform/lib/mask.js";
import { EVENTS, type EventData, type EventName, type EventResourceType } from "./catalog.js";
import { passToSinks } from "./sinks.js";

/**
 * Records an event. Call it inside the transaction of the state change it describes, so the event
 * exists exactly when the change does; its sinks (the webhook fan-out) run in the same transaction.
 * Every string of its data (remarks are free text) is stored and sent with PANs masked.
 */
export async function recordEvent<N extends EventName>(
  tx: Tx,
  input: { distributorId: string; resourceType: EventResourceType; resourceId: string; event: N; data: EventData<N> },
): Promise<string> {
  const [id] = await recordEvents(tx, [input as EventInput]);
  return id!;
}

export type EventInput = { [N in EventName]: { distributorId: string; resourceType: EventResourceType; resourceId: string; event: N; data: EventData<N> } }[EventName];

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
