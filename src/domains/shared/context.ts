import type { RestHooks } from "../../platform/http/rest.js";
import { admitCaller } from "./authenticator.js";
import type { Services } from "./services.js";
import { lazyChild, type Log } from "../../platform/lib/logger.js";

/** What a procedure sees: the services, this request, and (after the auth middleware) the caller. */
export interface Context extends Services {
  requestId: string;
  log: Log;
  authorization: string | undefined;
  /** The Idempotency-Key header of a creating request. */
  idempotencyKey: string | undefined;
  /** The client's address (see http/client-ip), "unknown" for calls from inside the process. */
  clientIp: string;
  /** The User-Agent header (an order link's consent records it). */
  userAgent: string | undefined;
  /** `scheme://host` the request was sent to: the base of generated links when MF_PUBLIC_BASE_URL is unset. */
  origin: string | undefined;
  /** A procedure may set the success status (201 on creation) and extra headers. */
  response: { status?: number; headers: Record<string, string> };
}

export interface RequestInfo {
  requestId: string;
  authorization: string | undefined;
  idempotencyKey?: string | undefined;
  clientIp?: string | undefined;
  userAgent?: string | undefined;
  origin?: string | undefined;
  /** The request's logger, when the transport already made one (else one is made here). */
  log?: Log | undefined;
}

/**
 * A new object per request (middlewares write the caller on it). The services are listed one by one:
 * a literal of fixed shape is several times cheaper to build than a spread of `services`, and the
 * type refuses a service left out (optional ones included).
 */
export function createContext(services: Services, request: RequestInfo): Context {
  const context: { [K in keyof Services]-?: Services[K] } & Omit<Context, keyof Services> = {
    config: services.config,
    prisma: services.prisma,
    logger: services.logger,
    auth: services.auth,
    budget: services.budget,
    addressBudget: services.addressBudget,
    cipher: services.cipher,
    exchange: services.exchange,
    sandboxExchange: services.sandboxExchange,
    registrar: services.registrar,
    resolveHost: services.resolveHost,
    requestId: request.requestId,
    log: request.log ?? lazyChild(services.logger, { request_id: request.requestId }),
    authorization: request.authorization,
    idempotencyKey: request.idempotencyKey,
    clientIp: request.clientIp ?? "unknown",
    userAgent: request.userAgent,
    origin: request.origin,
    response: { headers: {} },
  };
  return context;
}

/** What the REST layer (platform/http/rest.ts) asks of the application, answered with these services. */
export function restHooks(services: Services): RestHooks {
  return {
    createContext: (request) => createContext(services, request),
    async admitRepeat(request, headers) {
      await admitCaller(services, request, headers);
    },
  };
}
