/**
 * Events for the moves of orders, payments, investors and mandates, each naming its resource (a standalone
 * order of the same time for order events, an investor of the same time for investor events), in time order.
 */
import type pg from "pg";
import { copyLines, row, type Progress } from "./copy.js";
import { idAt, stamp, unit } from "./ids.js";
import { standaloneAt, type OrderPlan } from "./order-shapes.js";
import { distributorIndex, distributorOfInvestor, eventId, investorId, mandateId, pick, timeOf, type Scale } from "./shapes.js";

const KINDS = [
  ["order.accepted", 30], ["order.allotted", 30], ["order.rejected", 2], ["order.cancelled", 2], ["order.failed", 1],
  ["payment.captured", 15], ["payment.failed", 2], ["investor.registered", 10], ["investor.updated", 2], ["mandate.registered", 6],
] as const;

export interface EventShape {
  id: string;
  name: string;
  resourceType: string;
  resourceId: string;
  distributor: number;
  at: number;
}

export function eventAt(i: number, plan: OrderPlan, scale: Scale, now: number): EventShape {
  const at = timeOf(i, scale.events, now);
  const name = pick(unit(i, 51), KINDS);
  const resourceType = name.slice(0, name.indexOf("."));
  const id = eventId(i, scale, now);
  if (resourceType === "order") {
    const s = Math.min(plan.standalone - 1, Math.floor((i * plan.standalone) / scale.events));
    const order = standaloneAt(s, plan, scale, now);
    return { id, name, resourceType, resourceId: order.id, distributor: order.distributor, at };
  }
  if (resourceType === "investor") {
    const n = Math.min(scale.investors - 1, Math.floor((i * scale.investors) / scale.events));
    const distributor = distributorOfInvestor(n, scale.investors);
    return { id, name, resourceType, resourceId: investorId(n, scale, now), distributor, at };
  }
  const distributor = distributorIndex(i, 52);
  return { id, name, resourceType, resourceId: resourceType === "payment" ? idAt("pay", at, i) : mandateId(i, at), distributor, at };
}

export const eventData = (e: EventShape) => JSON.stringify({ [`${e.resourceType}_id`]: e.resourceId, status: e.name.slice(e.name.indexOf(".") + 1).toUpperCase() });

export async function copyEvents(client: pg.Client, distributors: string[], plan: OrderPlan, scale: Scale, now: number, progress: Progress): Promise<void> {
  function* lines(): Generator<string> {
    for (let i = 0; i < scale.events; i++) {
      const e = eventAt(i, plan, scale, now);
      yield row([e.id, distributors[e.distributor]!, e.resourceType, e.resourceId, e.name, eventData(e), stamp(e.at)]);
    }
  }
  await copyLines(client, "events", ["id", "distributor_id", "resource_type", "resource_id", "event", "data", "created_at"], lines(), progress);
}
