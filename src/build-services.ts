import { AuthService } from "./domains/auth/auth.service.js";
import { tokenChecksFor } from "./domains/auth/token-failures.js";
import { createRegistrar } from "./integrations/registrars/registrar.js";
import { RequestBudget } from "./platform/lib/request-budget.js";
import type { Services } from "./domains/shared/services.js";
import type { Db } from "./platform/db/client.js";
import type { Config } from "./env.js";
import { addEventSink } from "./domains/events/sinks.js";
import { createExchange } from "./integrations/exchange/exchange.js";
import { traceExchange } from "./integrations/exchange/traced-exchange.js";
import { meteredExchange } from "./integrations/exchange/metered-exchange.js";
import type { DataCipher } from "./platform/lib/crypto.js";
import type { Logger } from "./platform/lib/logger.js";
import { markLinkPaid } from "./domains/order-links/lifecycle.js";
import { linkPageOfOrder } from "./domains/order-links/order-links.service.js";
import { setReturnPageOf } from "./domains/payments/return-page.js";
import { setSandboxBooks } from "./domains/holdings/sandbox-feed.js";
import { sandboxBooks } from "./domains/simulation/sandbox-books.js";
import { fanOut } from "./domains/webhooks/fan-out.js";
import { sampleGaugesFrom } from "./domains/monitoring/gauges.js";
import { systemResolver } from "./platform/lib/resolver.js";

export interface Opened {
  config: Config;
  prisma: Db;
  /** The connections of `prisma`'s pool (token checks may hold a quarter of them). */
  poolSize: number;
  logger: Logger;
  cipher: DataCipher;
}

/**
 * The services object, built once (the runtime; the test harness too) from what the caller opened:
 * the database client, the logger and the data cipher. Registers the event sinks (the webhook
 * fan-out, and order links becoming PAID on their payment's capture) and the payments' return page
 * (the order link's page, where net banking sends the investor back) and the sandbox registrar's books (the
 * simulation's, of our own orders) for this process.
 */
export function buildServices({ config, prisma, poolSize, logger, cipher }: Opened): Services {
  addEventSink(fanOut);
  addEventSink(markLinkPaid);
  setReturnPageOf(linkPageOfOrder);
  setSandboxBooks(sandboxBooks);
  sampleGaugesFrom(prisma, logger);
  return {
    config,
    prisma,
    logger,
    cipher,
    auth: new AuthService(prisma, { tokenFailures: config.tokenFailures, concurrentChecks: tokenChecksFor(poolSize) }),
    budget: new RequestBudget(config.rateLimit),
    addressBudget: new RequestBudget(config.rateLimit),
    ...meteredExchange(traceExchange(createExchange(config, prisma, logger.child({ component: "exchange" })))),
    registrar: createRegistrar(config, prisma, logger),
    resolveHost: systemResolver,
  };
}
