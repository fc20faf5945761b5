import type { Authenticator } from "./authenticator.js";
import type { RegistrarPort } from "../../integrations/registrars/port.js";
import type { Db } from "../../platform/db/client.js";
import type { Config } from "../../env.js";
import type { ExchangePort } from "../../integrations/exchange/port.js";
import type { SandboxExchange } from "../../integrations/exchange/sandbox/sandbox-exchange.js";
import type { DataCipher } from "../../platform/lib/crypto.js";
import type { Logger } from "../../platform/lib/logger.js";
import type { Resolver } from "../../platform/lib/resolver.js";
import type { RequestBudget } from "../../platform/lib/request-budget.js";

/**
 * Long-lived services every request, job and seed can use; built once at start-up (build-services.ts).
 * The types of its members are named here; nothing of theirs runs from here.
 */
export interface Services {
  config: Config;
  prisma: Db;
  logger: Logger;
  /** Bearer tokens: the caller of a request, and the token endpoint. */
  auth: Authenticator;
  /** Every API client's request budget (in this process). */
  budget: RequestBudget;
  /**
   * Every client address's request budget (an IPv4 address, an IPv6 /64), apart from the API clients' so a
   * flood of addresses cannot crowd an API client's bucket out: the public link paths and failed authentications spend it.
   */
  addressBudget: RequestBudget;
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
