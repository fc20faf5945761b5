import type { Prisma } from "../db/client.js";
import { StoredOrderDetails } from "./orders.schemas.js";

/**
 * An order's `details` column (euin and the sip, stp, swp or switch object of its request), parsed
 * with its schema when read, so every reader sees the shapes the request had.
 */
export function orderDetails(order: { details: Prisma.JsonValue }): StoredOrderDetails {
  return StoredOrderDetails.parse(order.details ?? {});
}

/** The details as the order resource shows them: each object as ordered, or null. */
export function orderedView(order: { details: Prisma.JsonValue }) {
  const details = orderDetails(order);
  return {
    euin: details.euin ?? null,
    sip: details.sip ?? null,
    stp: details.stp ?? null,
    swp: details.swp ?? null,
    switch: details.switch ?? null,
  };
}
