import type { Tx } from "../db/client.js";
import { newId } from "../lib/ids.js";
import { maskPansDeep } from "../lib/mask.js";
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
  const id = newId("evt");
  const data = maskPansDeep(EVENTS[input.event].parse(input.data));
  await tx.event.create({
    data: { id, distributorId: input.distributorId, resourceType: input.resourceType, resourceId: input.resourceId, event: input.event, data },
  });
  await passToSinks(tx, { id, distributorId: input.distributorId, event: input.event, data });
  return id;
}
