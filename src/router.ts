import { authRouter } from "./domains/auth/auth.router.js";
import { brokerChangesRouter } from "./domains/broker-changes/broker-changes.router.js";
import { eventsRouter } from "./domains/events/events.router.js";
import { holdingsRouter } from "./domains/holdings/holdings.router.js";
import { investorsRouter } from "./domains/investors/investors.router.js";
import { mandatesRouter } from "./domains/mandates/mandates.router.js";
import { mastersRouter } from "./domains/masters/masters.router.js";
import { orderLinksRouter } from "./domains/order-links/order-links.router.js";
import { publicLinksRouter } from "./domains/order-links/public-links.router.js";
import { ordersRouter } from "./domains/orders/orders.router.js";
import { paymentsRouter } from "./domains/payments/payments.router.js";
import { reconciliationsRouter } from "./domains/reconciliations/reconciliations.router.js";
import { simulationRouter } from "./domains/simulation/simulation.router.js";
import { webhooksRouter } from "./domains/webhooks/webhooks.router.js";
import { router } from "./domains/shared/procedures.js";

export const appRouter = router({
  auth: authRouter,
  masters: mastersRouter,
  investors: investorsRouter,
  mandates: mandatesRouter,
  orders: ordersRouter,
  payments: paymentsRouter,
  simulation: simulationRouter,
  webhooks: webhooksRouter,
  events: eventsRouter,
  holdings: holdingsRouter,
  orderLinks: orderLinksRouter,
  publicLinks: publicLinksRouter,
  brokerChanges: brokerChangesRouter,
  reconciliations: reconciliationsRouter,
});

/** The typed router for first-party clients (`@trpc/client`). */
export type AppRouter = typeof appRouter;
