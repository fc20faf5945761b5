import type { Prisma } from "../../platform/db/client.js";
import type { Log } from "../../platform/lib/logger.js";
import { StoredOrderDetails } from "./orders.schemas.js";

type DetailsLog = Pick<Log, "warn">;

/**
 * An order's `details` column (euin and the sip, stp, swp or switch object of its request), parsed
 * with its schema when read, so every reader sees the shapes the request had. A stored row that does
 * not fit (an older version's, a hand edit) never fails the read: each of its objects that parses is
 * kept, the others are left out, and one warning names the order and the failing paths (never values).
 */
export function orderDetails(order: { id: string; details: Prisma.JsonValue }, log?: DetailsLog): StoredOrderDetails {
  const stored = order.details ?? {};
  const parsed = StoredOrderDetails.safeParse(stored);
  if (parsed.success) return parsed.data;

  const kept: Record<string, unknown> = {};
  const fields = typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  for (const [key, schema] of Object.entries(StoredOrderDetails.shape)) {
    const field = schema.safeParse(fields[key]);
    if (field.success && field.data !== undefined) kept[key] = field.data;
  }
  log?.warn(
    { order_id: order.id, invalid_paths: [...new Set(parsed.error.issues.map((issue) => issue.path.join(".") || "(root)"))] },
    "stored order details do not fit their schema; those fields are left out",
  );
  return kept as StoredOrderDetails;
}

/** The details as the order resource shows them: each object as ordered, or null. */
export function orderedView(order: { id: string; details: Prisma.JsonValue }, log?: DetailsLog) {
  const details = orderDetails(order, log);
  return {
    euin: details.euin ?? null,
    sip: details.sip ?? null,
    stp: details.stp ?? null,
    swp: details.swp ?? null,
    switch: details.switch ?? null,
  };
}

/** The scheme a switch or STP moves units into; null for other types. */
export function targetSchemeCode(details: StoredOrderDetails): string | null {
  return details.switch?.to_scheme_code ?? details.stp?.to_scheme_code ?? null;
}
