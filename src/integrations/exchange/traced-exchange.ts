import { SpanKind } from "@opentelemetry/api";
import { inSpan, tracingEnabled } from "../../platform/tracing/tracer.js";
import type { ExchangePort } from "./port.js";
import { isPortMethod } from "./port-methods.js";

/**
 * The exchange port with each call in a client span named after the port's method (`placeOrder`), with
 * the adapter's name. The same object underneath (a proxy: `instanceof` and the adapter's other methods
 * still work); with tracing off each call goes straight through.
 */
export function traceExchange<E extends { exchange: ExchangePort }>(created: E): E {
  const port = created.exchange;
  const adapter = port.constructor.name;
  const exchange = new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string" || !isPortMethod(property)) return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => {
        if (!tracingEnabled()) return method.apply(target, args);
        return inSpan(property, { kind: SpanKind.CLIENT, attributes: { "rpc.system": "exchange", "rpc.service": adapter, "rpc.method": property } }, () =>
          method.apply(target, args),
        );
      };
    },
  });
  return { ...created, exchange };
}
