import type { DbOrTx } from "../../platform/db/client.js";

/** The page (a path, `/links/<id>`) that owns an order's payment, or null when no page does. */
export type ReturnPageOf = (db: DbOrTx, orderId: string) => Promise<string | null>;

let returnPageOf: ReturnPageOf = async () => null;

/**
 * Payments know nothing of the pages that start them (order links): the assembly (build-services.ts)
 * registers who answers where net banking sends the investor back, once at start-up.
 */
export function setReturnPageOf(answer: ReturnPageOf): void {
  returnPageOf = answer;
}

/** Where the investor returns after paying the order at the bank: a path under MF_PUBLIC_BASE_URL, or null. */
export function returnPageOfOrder(db: DbOrTx, orderId: string): Promise<string | null> {
  return returnPageOf(db, orderId);
}
