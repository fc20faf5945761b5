import { Counter, Histogram } from "prom-client";
import { metricsRegistry, secondsSince } from "../../platform/metrics/registry.js";
import type { ExchangePort } from "./port.js";
import { isPortMethod } from "./port-methods.js";

const calls = new Counter({
  name: "mf_exchange_calls_total",
  help: "Calls to the exchange by port method (service) and outcome: ok (an answer), refused (the exchange refused what was asked: a registration or order REJECTED, a payment FAILED, a cancellation not made), error (no usable answer: unreachable, timed out, nonsense; the job retries)",
  labelNames: ["service", "outcome"] as const,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: "mf_exchange_call_duration_seconds",
  help: "Time a call to the exchange took, by port method (service), every outcome",
  labelNames: ["service"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60],
  registers: [metricsRegistry],
});

type Outcome = "ok" | "refused" | "error";

/** The calls that ask the exchange to do something, which it may refuse; the others read (a report, a status, a link). */
const REQUESTS: ReadonlySet<string> = new Set(["registerInvestor", "modifyInvestor", "registerMandate", "cancelMandate", "placeOrder", "cancelOrder", "pauseSip", "resumeSip", "createPayment"]);

/**
 * The exchange's refusals come back as answers (port.ts): a registration or order REJECTED, a payment FAILED, a
 * cancellation not made. A read is `ok` whatever it reports (an investor's status REJECTED is an answer).
 */
function outcomeOf(service: string, result: unknown): Outcome {
  if (!REQUESTS.has(service) || typeof result !== "object" || result === null) return "ok";
  const { status, cancelled, paused, resumed } = result as { status?: unknown; cancelled?: unknown; paused?: unknown; resumed?: unknown };
  return status === "REJECTED" || status === "FAILED" || cancelled === false || paused === false || resumed === false ? "refused" : "ok";
}

/**
 * The exchange port with every call counted and timed (mf_exchange_calls_total, mf_exchange_call_duration_seconds),
 * labelled with the port method's name. A proxy, so the adapter stays itself for everything else (`instanceof`,
 * its own methods such as BseExchange's login check), each call made on the adapter itself.
 */
export function meteredExchange<T extends { exchange: ExchangePort }>(chosen: T): T {
  const target = chosen.exchange;
  const metered = new Map<PropertyKey, unknown>();
  const exchange = new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function" || property === "constructor") return value;
      if (!isPortMethod(property)) return (value as (...args: unknown[]) => unknown).bind(object);
      if (!metered.has(property)) metered.set(property, meter(object, String(property)));
      return metered.get(property);
    },
  });
  return { ...chosen, exchange };
}

function meter(object: ExchangePort, service: string) {
  return async (...args: unknown[]): Promise<unknown> => {
    const started = performance.now();
    let outcome: Outcome = "error";
    try {
      const result: unknown = await (Reflect.get(object, service) as (...a: unknown[]) => Promise<unknown>).apply(object, args);
      outcome = outcomeOf(service, result);
      return result;
    } finally {
      calls.inc({ service, outcome });
      duration.observe({ service }, secondsSince(started));
    }
  };
}
