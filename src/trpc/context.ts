import type { Config } from "../env.js";
import type { Db } from "../db/client.js";
import { lazyChild, type Log, type Logger } from "../lib/logger.js";
import type { AuthService } from "../auth/auth.service.js";
import type { DataCipher } from "../lib/crypto.js";

/** Long-lived services every request can use; built once at start-up. */
export interface Services {
  config: Config;
  prisma: Db;
  logger: Logger;
  auth: AuthService;
  /** Encrypts personal data at rest and hashes it for look-ups. */
  cipher: DataCipher;
}

/** What a procedure sees: the services, this request, and (after the auth middleware) the caller. */
export interface Context extends Services {
  requestId: string;
  log: Log;
  authorization: string | undefined;
  /** A procedure may set the success status (201 on creation) and extra headers. */
  response: { status?: number; headers: Record<string, string> };
}

export interface Caller {
  distributorId: string;
  clientId: string;
}

export function createContext(services: Services, request: { requestId: string; authorization: string | undefined }): Context {
  return {
    ...services,
    requestId: request.requestId,
    log: lazyChild(services.logger, { request_id: request.requestId }),
    authorization: request.authorization,
    response: { headers: {} },
  };
}
