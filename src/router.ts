import { authRouter } from "./auth/auth.router.js";
import { brokerChangesRouter } from "./broker-changes/broker-changes.router.js";
import { holdingsRouter } from "./holdings/holdings.router.js";
import { investorsRouter } from "./investors/investors.router.js";
import { mandatesRouter } from "./mandates/mandates.router.js";
import { mastersRouter } from "./masters/masters.router.js";
import { orderLinksRouter } from "./order-links/order-links.router.js";
import { publicLinksRouter } from "./order-links/public-links.router.js";
import { ordersRouter } from "./orders/orders.router.js";
import { paymentsRouter } from "./payments/payments.router.js";
import { simulationRouter } from "./simulation/simulation.router.js";
import { webhooksRouter } from "./webhooks/webhooks.router.js";
import { router } from "./trpc/init.js";

export const appRouter = router({
  auth: authRouter,
  masters: mastersRouter,
  investors: investorsRouter,
  mandates: mandatesRouter,
  orders: ordersRouter,
  payments: paymentsRouter,
  simulation: simulationRouter,
  webhooks: webhooksRouter,
  holdings: holdingsRouter,
  orderLinks: orderLinksRouter,
  publicLinks: publicLinksRouter,
  brokerChanges: brokerChangesRouter,
});

/** The typed router for first-party clients (`@trpc/client`). */
export type AppRouter = typeof appRouter;
