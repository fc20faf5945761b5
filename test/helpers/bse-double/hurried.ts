import type { Services } from "../../../src/domains/shared/services.js";
import { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import type { TestApp } from "../app.js";

/** How long the exchange of `hurried` waits: long enough for any answer the double gives, short for one it never gives. */
export const HURRIED_TIMEOUT_MS = 300;

/**
 * The app's services with an exchange that gives up after 300 ms, for a call the double is scripted never
 * to answer. The app itself keeps the double's 2-second budget: a short one for the whole file counted
 * Node's one-off loading of `fetch` (100-150 ms on the first call, more on a loaded machine) against an
 * ordinary call and now and then timed it out.
 */
export function hurried(app: TestApp): Services {
  const config = app.config.bse;
  if (!config) throw new Error("hurried: the app does not speak to the BSE double (MF_EXCHANGE is not bse)");
  return { ...app.services, exchange: new BseExchange(app.prisma, { ...config, timeoutMs: HURRIED_TIMEOUT_MS }, app.services.logger) };
}
