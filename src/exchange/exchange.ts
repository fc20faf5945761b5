import type { Config } from "../env.js";
import type { Db } from "../db/client.js";
import { ExchangeUnavailableError, type ExchangePort } from "./port.js";
import { SandboxExchange } from "./sandbox.js";

/**
 * Until the production adapter for the exchange's web services exists, production has an exchange
 * that is never reached: every call fails as a transport failure, so jobs retry and nothing is
 * pretended. The sandbox gets the simulated exchange.
 */
class UnconnectedExchange implements ExchangePort {
  private fail(): never {
    throw new ExchangeUnavailableError("No production exchange adapter is configured");
  }
  registerInvestor = async () => this.fail();
  investorStatus = async () => this.fail();
  registerMandate = async () => this.fail();
  mandateStatus = async () => this.fail();
  cancelMandate = async () => this.fail();
  placeOrder = async () => this.fail();
  cancelOrder = async () => this.fail();
  orderStatus = async () => this.fail();
  allotments = async () => this.fail();
  createPayment = async () => this.fail();
  paymentStatus = async () => this.fail();
}

export function createExchange(config: Config, db: Db): { exchange: ExchangePort; sandboxExchange: SandboxExchange | undefined } {
  if (config.env === "production") return { exchange: new UnconnectedExchange(), sandboxExchange: undefined };
  const sandbox = new SandboxExchange(db, { autoRegister: config.sandbox.autoRegister });
  return { exchange: sandbox, sandboxExchange: sandbox };
}
