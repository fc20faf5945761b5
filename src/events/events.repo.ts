import type { DbOrTx } from "../db/client.js";
import { newId } from "../lib/ids.js";
import { EVENTS, type EventData, type EventName } from "./catalog.js";

/**
 * Records an event. Call it inside the transaction of the state change it describes, so the event
 * exists exactly when the change does.
 */
export async function recordEvent<N extends EventName>(
  tx: DbOrTx,
  input: { distributorId: string; resourceType: string; resourceId: string; event: N; data: EventData<N> },
): Promise<string> {
  const id = newId("evt");
  await tx.event.create({
    data: {
      id,
      distributorId: input.distributorId,
      resourceType: input.resourceType,
      resourceId: input.resourceId,
      event: input.event,
      data: EVENTS[input.event].parse(input.data),
    },
  });
  return id;
}
