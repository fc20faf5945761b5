import { RECORDED_EVENT_NAMES, type EventResourceType } from "../events/catalog.js";

export const WILDCARDS = ["investor.*", "mandate.*", "order.*", "payment.*", "broker_change.*", "reconciliation.*"] as const satisfies ReadonlyArray<`${EventResourceType}.*`>;
/** What a subscription may list: webhook_subscriptions.events holds only these (the database checks the same list). */
export const SUBSCRIBABLE = [...RECORDED_EVENT_NAMES, ...WILDCARDS] as const;

/** Whether a subscription's list (names and `<resource>.*` wildcards) covers an event name. */
export function matchesEvent(subscribed: readonly string[], event: string): boolean {
  const resource = event.slice(0, event.indexOf("."));
  return subscribed.some((entry) => entry === event || entry === `${resource}.*`);
}
