import type { Config } from "../env.js";
import type { Db } from "../db/client.js";
import { lazyChild, type Log, type Logger } from "../lib/logger.js";
import type { AuthService } from "../auth/auth.service.js";
import type { DataCipher } from "../lib/crypto.js";
import type { ExchangePort } from "../exchange/port.js";
import type { SandboxExchange } from "../exchange/sandbox.js";
import type { Resolver } from "../webhooks/public-address.js";
import type { RequestBudget } from "../http/rate-limit.js";

/** Long-lived services every request can use; built once at start-up. */
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
  /** DNS for webhook targets (the system resolver; tests stand in for the outside world). */
  resolveHost: Resolver;
}

/** What a procedure sees: the services, this request, and (after the auth middleware) the caller. */
export interface Context extends Services {
  requestId: string;
  log: Log;
  authorization: string | undefined;
  /** The Idempotency-Key header of a creating request. */
  idempotencyKey: string | undefined;
  /** The client's address (see http/client-ip), "unknown" for calls from inside the process. */
  clientIp: string;
  /** A procedure may set the success status (201 on creation) and extra headers. */
  response: { status?: number; headers: Record<string, string> };
}

export interface Caller {
  distributorId: string;
  clientId: string;
}

export interface RequestInfo {
  requestId: string;
  authorization: string | undefined;
  idempotencyKey?: string | undefined;
  clientIp?: string | undefined;
}

export function createContext(services: Services, request: RequestInfo): Context {
  return {
    ...services,
    requestId: request.requestId,
    log: lazyChild(services.logger, { request_id: request.requestId }),
    authorization: request.authorization,
    idempotencyKey: request.idempotencyKey,
    clientIp: request.clientIp ?? "unknown",
    response: { headers: {} },
  };
}
