import type { BseConfig } from "./bse/bse-config.js";
import type { Db } from "../../platform/db/client.js";
import type { Log } from "../../platform/lib/logger.js";
import { BseExchange } from "./bse/bse-exchange.js";
import type { ExchangePort } from "./port.js";
import { SandboxExchange } from "./sandbox/sandbox-exchange.js";

/** What the choice of exchange takes from the configuration (src/env.ts). */
export interface ExchangeSettings {
  env: string;
  exchange: "sandbox" | "bse";
  bse: BseConfig | undefined;
  sandbox: { autoRegister: boolean };
}

/**
 * The exchange the port speaks to: BSE StAR MF with MF_EXCHANGE=bse (production requires it), otherwise
 * the sandbox exchange, which the simulation endpoints drive.
 */
export function createExchange(config: ExchangeSettings, db: Db, log: Log): { exchange: ExchangePort; sandboxExchange: SandboxExchange | undefined } {
  if (config.exchange === "bse" && config.bse) {
    return { exchange: new BseExchange(db, config.bse, log), sandboxExchange: undefined };
  }
  if (config.env === "production") throw new Error("production needs MF_EXCHANGE=bse (the configuration should have refused this)");
  const sandbox = new SandboxExchange(db, { autoRegister: config.sandbox.autoRegister });
  return { exchange: sandbox, sandboxExchange: sandbox };
}
