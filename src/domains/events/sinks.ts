import type { Tx } from "../../platform/db/client.js";
import type { EventName } from "./catalog.js";

export interface RecordedEvent {
  id: string;
  distributorId: string;
  event: EventName;
  data: unknown;
}

/** Work that must happen in the transaction that records an event (the webhook fan-out). */
export type EventSink = (tx: Tx, event: RecordedEvent) => Promise<void>;

const sinks = new Set<EventSink>();

/**
 * Registers a sink for every event recorded from now on, in this process. The assembly
 * (build-services.ts) registers them once at start-up, so the events module knows none of them.
 */
export function addEventSink(sink: EventSink): void {
  sinks.add(sink);
}

/** Hands a just-recorded event to every sink, inside its transaction. */
export async function passToSinks(tx: Tx, event: RecordedEvent): Promise<void> {
  for (const sink of sinks) await sink(tx, event);
}
