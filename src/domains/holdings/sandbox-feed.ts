import type { SandboxLedger } from "../../integrations/registrars/sandbox/sandbox-registrar.js";
import type { Services } from "../shared/services.js";

/** The balances and transactions the sandbox registrar reports (the simulation's books of our own orders). */
export type SandboxBooks = (services: Services) => Promise<SandboxLedger>;

let books: SandboxBooks = async () => ({ holdings: [], transactions: [] });

/**
 * Holdings know nothing of orders: the assembly (build-services.ts) registers where the sandbox registrar's
 * balances come from (src/domains/simulation/sandbox-books.ts), once at start-up.
 */
export function setSandboxBooks(source: SandboxBooks): void {
  books = source;
}

export function sandboxBooksOf(services: Services): Promise<SandboxLedger> {
  return books(services);
}
