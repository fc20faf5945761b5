import type { ExchangePort } from "./port.js";

/**
 * Every method of the exchange port: the calls that go to the exchange, which the metrics and the traces wrap
 * (metered-exchange.ts, traced-exchange.ts). The type check fails when the port gains a method not listed here.
 */
export const PORT_METHODS = [
  "registerInvestor", "investorStatus", "modifyInvestor", "registerMandate", "mandateStatus", "cancelMandate", "mandateAuthUrl", "placeOrder",
  "cancelOrder", "pauseSip", "resumeSip", "orderStatus", "allotments", "createPayment", "paymentStatus", "matchInstallments", "orderStatusForDate",
  "allotmentsForDate",
] as const satisfies ReadonlyArray<keyof ExchangePort>;
type Unlisted = Exclude<keyof ExchangePort, (typeof PORT_METHODS)[number]>;
const allListed: [Unlisted] extends [never] ? true : Unlisted = true;
void allListed;

const METHOD_NAMES: ReadonlySet<PropertyKey> = new Set(PORT_METHODS);

/** Whether a property of an adapter is one of the port's calls (not the adapter's own, nor `constructor`). */
export const isPortMethod = (property: PropertyKey): property is (typeof PORT_METHODS)[number] => METHOD_NAMES.has(property);
