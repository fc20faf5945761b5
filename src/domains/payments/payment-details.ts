import type { Log } from "../../platform/lib/logger.js";
import { StoredPaymentDetails } from "./payments.schemas.js";

/**
 * A payment's `details` column parsed with its schema (payments.schemas.ts StoredPaymentDetails), so every
 * reader sees typed fields. A stored row that does not fit (a hand edit) never fails the read: its fields
 * that do not parse are left out, and one warning names the payment and the failing paths (never values).
 */
export function paymentDetails(payment: { id: string; details: unknown }, log?: Pick<Log, "warn">): StoredPaymentDetails {
  const stored = payment.details ?? {};
  const parsed = StoredPaymentDetails.safeParse(stored);
  if (parsed.success) return parsed.data;

  const failing = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? "")));
  const fields = typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  const kept = Object.fromEntries(Object.entries(fields).filter(([key]) => !failing.has(key)));
  log?.warn(
    { payment_id: payment.id, invalid_paths: [...new Set(parsed.error.issues.map((issue) => issue.path.join(".") || "(root)"))] },
    "stored payment details do not fit their schema; those fields are left out",
  );
  return StoredPaymentDetails.parse(kept);
}
