import type { SandboxHolding } from "../../integrations/registrars/sandbox/sandbox-registrar.js";
import type { Services } from "../shared/services.js";

/** The balances the sandbox registrar reports (the simulation's books of our own orders). */
export type SandboxBooks = (services: Services) => Promise<SandboxHolding[]>;

let books: SandboxBooks = async () => [];

/**
 * Holdings know nothing of orders: the assembly (build-services.ts) registers where the sandbox registrar's
 * balances come from (src/domains/simulation/sandbox-books.ts), once at start-up.
 */
export function setSandboxBooks(source: SandboxBooks): void {
  books = source;
}

export function sandboxBooksOf(services: Services): Promise<SandboxHolding[]> {
  return books(services);
}
