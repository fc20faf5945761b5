import type { Config } from "../env.js";
import type { Db } from "../db/client.js";
import type { Log } from "../lib/logger.js";
import { BseExchange } from "./bse/bse-exchange.js";
import type { ExchangePort } from "./port.js";
import { SandboxExchange } from "./sandbox.js";

/**
 * The exchange the port speaks to: BSE StAR MF with MF_EXCHANGE=bse (production requires it), otherwise
 * the simulated exchange, which the simulation routes drive.
 */
export function createExchange(config: Config, db: Db, log: Log): { exchange: ExchangePort; sandboxExchange: SandboxExchange | undefined } {
  if (config.exchange === "bse" && config.bse) {
    return { exchange: new BseExchange(db, config.bse, log), sandboxExchange: undefined };
  }
  if (config.env === "production") throw new Error("production needs MF_EXCHANGE=bse (the configuration should have refused this)");
  const sandbox = new SandboxExchange(db, { autoRegister: config.sandbox.autoRegister });
  return { exchange: sandbox, sandboxExchange: sandbox };
}
