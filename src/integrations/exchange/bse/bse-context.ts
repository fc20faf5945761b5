import type { Db } from "../../../platform/db/client.js";
import type { BseConfig } from "./bse-config.js";
import type { Log } from "../../../platform/lib/logger.js";
import type { BseSessions } from "./sessions.js";
import type { BseTransport } from "./transport.js";
import type { WebServiceStyles } from "./web-service.js";

/** What the adapter's service modules share: the database, the configuration, the transport and the sessions. */
export interface BseContext {
  db: Db;
  config: BseConfig;
  transport: BseTransport;
  sessions: BseSessions;
  log: Log;
  now: () => number;
  /** How StarMFWebService is called (web-service.ts WEB_SERVICE_STYLE; tests try the other reading). */
  webServiceStyle: WebServiceStyles;
}
