import type { AuthService } from "../auth/auth.service.js";
import type { RegistrarPort } from "../broker-changes/registrar-port.js";
import type { Db } from "../db/client.js";
import type { Config } from "../env.js";
import type { ExchangePort } from "../exchange/port.js";
import type { SandboxExchange } from "../exchange/sandbox.js";
import type { DataCipher } from "../lib/crypto.js";
import type { Logger } from "../lib/logger.js";
import type { Resolver } from "../webhooks/public-address.js";
import type { RequestBudget } from "./request-budget.js";

/**
 * Long-lived services every request, job and seed can use; built once at start-up (build-services.ts).
 * The types of its members are named here; nothing of theirs runs from here.
 */
export interface Services {
  config: Config;
  prisma: Db;
  logger: Logger;
  auth: AuthService;
  /** Every API client's request budget (in this process). */
  budget: RequestBudget;
  /** Encrypts personal data at rest and hashes it for look-ups. */
  cipher: DataCipher;
  exchange: ExchangePort;
  /** The sandbox exchange, for simulation calls; absent in production. */
  sandboxExchange: SandboxExchange | undefined;
  /** The registrars (CAMS, KFintech) for broker change requests: the sandbox registrar, or manual filing in production. */
  registrar: RegistrarPort;
  /** DNS for webhook targets (the system resolver; tests stand in for the outside world). */
  resolveHost: Resolver;
}
