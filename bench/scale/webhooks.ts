/**
 * Webhook subscriptions (two per distributor: everything, and order events only), one delivery per event for
 * `deliveries` events spread evenly over time, and their attempts (1 to 4, about two a delivery). The newest
 * few hundred deliveries (OPEN_WORK) are PENDING and due (what the claim takes); PARKED and FAILED ones are scattered.
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import type { Services } from "../../src/domains/shared/services.js";
import { copyLines, row, type Progress } from "./copy.js";
import { idAt, stamp, unit } from "./ids.js";
import { eventAt, eventData } from "./events.js";
import type { OrderPlan } from "./order-shapes.js";
import { OPEN_WORK, openCount, pick, type Scale } from "./shapes.js";

const ALL = ["order.*", "payment.*", "investor.*", "mandate.*"];
const subscriptionId = (d: number) => idAt("whs", Date.UTC(2023, 0, 1) + d, d);

export async function copySubscriptions(client: pg.Client, services: Services, distributors: string[], progress: Progress): Promise<void> {
  function* lines(): Generator<string> {
    for (let d = 0; d < distributors.length; d++) {
      for (const [k, events] of [ALL, ["order.*"]].entries()) {
        const secret = services.cipher.encrypt(`whsec_${randomBytes(24).toString("hex")}`);
        yield row([subscriptionId(d * 2 + k), distributors[d]!, `https://hooks${d}.example.in/mf/${k}`, `{${events.map((e) => `"${e}"`).join(",")}}`, secret, "ACTIVE", stamp(Date.UTC(2023, 0, 1))]);
      }
    }
  }
  await copyLines(client, "webhook_subscriptions", ["id", "distributor_id", "url", "events", "secret_encrypted", "status", "created_at"], lines(), progress);
}

const SETTLED = [["DELIVERED", 97.5], ["PARKED", 1.5], ["FAILED", 1]] as const;
/** Attempts of a delivery: 1 (40%), 2 (30%), 3 (20%), 4 (10%): two on average. */
const ATTEMPTS = [[1, 40], [2, 30], [3, 20], [4, 10]] as const;

interface DeliveryShape {
  id: string;
  status: string;
  attempts: number;
  at: number;
}

function deliveryAt(i: number, pendingFrom: number, eventAtMs: number): DeliveryShape {
  const at = eventAtMs + 1000;
  const status = i >= pendingFrom ? "PENDING" : pick(unit(i, 61), SETTLED);
  const attempts = status === "PENDING" ? (i % 2) : status === "PARKED" ? 4 : pick(unit(i, 62), ATTEMPTS);
  return { id: idAt("whd", at, i), status, attempts, at };
}

export async function copyDeliveries(client: pg.Client, distributors: string[], plan: OrderPlan, scale: Scale, now: number, progress: Progress): Promise<void> {
  const pendingFrom = scale.deliveries - openCount(Math.round(scale.deliveries * 0.00002), OPEN_WORK.dueDeliveries, scale.deliveries);
  const eventOf = (i: number) => eventAt(Math.floor((i * scale.events) / scale.deliveries), plan, scale, now);
  function* deliveries(): Generator<string> {
    for (let i = 0; i < scale.deliveries; i++) {
      const e = eventOf(i);
      const d = deliveryAt(i, pendingFrom, e.at);
      const sub = subscriptionId(e.distributor * 2 + (e.resourceType === "order" && i % 2 ? 1 : 0));
      const payload = JSON.stringify({ id: e.id, type: e.name, created_at: stamp(e.at), data: JSON.parse(eventData(e)) as unknown });
      const last = d.attempts === 0 ? null : d.status === "DELIVERED" ? 200 : 503;
      yield row([d.id, distributors[e.distributor]!, sub, e.id, e.name, payload, d.status, d.attempts, last, d.status === "DELIVERED" || last === null ? null : "HTTP 503",
        d.status === "PENDING" ? stamp(now - 60_000 + (i % 60) * 1000) : null, null, d.status === "DELIVERED" ? stamp(d.at + d.attempts * 60_000) : null, stamp(d.at), stamp(d.at + d.attempts * 60_000)]);
    }
  }
  await copyLines(client, "webhook_deliveries", ["id", "distributor_id", "subscription_id", "event_id", "event", "payload", "status", "attempts", "last_status_code", "last_error",
    "next_attempt_at", "lease_until", "delivered_at", "created_at", "updated_at"], deliveries(), progress);
  function* attempts(): Generator<string> {
    for (let i = 0; i < scale.deliveries; i++) {
      const e = eventOf(i);
      const d = deliveryAt(i, pendingFrom, e.at);
      for (let a = 1; a <= d.attempts; a++) {
        const ok = d.status === "DELIVERED" && a === d.attempts;
        yield row([d.id, a, stamp(d.at + a * 60_000), ok ? 200 : 503, null, 40 + ((i + a) % 400), ok ? '{"received":true}' : "<html><body>503 Service Unavailable</body></html>"]);
      }
    }
  }
  await copyLines(client, "webhook_attempts", ["delivery_id", "attempt_no", "attempted_at", "status_code", "error", "latency_ms", "response_body"], attempts(), progress);
}
