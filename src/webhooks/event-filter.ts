import { EVENTS, type EventName } from "../events/catalog.js";

export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];
export const WILDCARDS = ["investor.*", "mandate.*", "order.*", "payment.*"] as const;
export const SUBSCRIBABLE = [...EVENT_NAMES, ...WILDCARDS] as const;

/** Whether a subscription's list (names and `<resource>.*` wildcards) covers an event name. */
export function matchesEvent(subscribed: readonly string[], event: string): boolean {
  const resource = event.slice(0, event.indexOf("."));
  return subscribed.some((entry) => entry === event || entry === `${resource}.*`);
}
