import { readRows, type DbOrTx } from "../../platform/db/client.js";
import { RETURNING, toOrderRow, type OrderRow } from "./orders.repo.js";
import { toPauseRow, type PauseRow, type StoredPause } from "./pause.repo.js";

/**
 * What GET /api/orders/v1/{id} reads, in one statement: the order of the distributor, its latest payment's id
 * (the highest, as payments.repo.ts latestPaymentIds picks it for lists) and its latest pause (by when it was
 * asked, then id, as pause.repo.ts latestPauses). One round trip instead of three Prisma queries: on this hot
 * read the per-query cost of the client, not PostgreSQL's work, was most of the time (docs/benchmarks.md).
 */

const PAUSE_COLUMNS = {
  id: "id", orderId: "order_id", distributorId: "distributor_id", installments: "installments", fromInstallmentNo: "from_installment_no",
  addedFromNo: "added_from_no", fromDate: "from_date", untilDate: "until_date", status: "status", remark: "remark",
  requestedAt: "requested_at", resumedAt: "resumed_at", createdAt: "created_at", updatedAt: "updated_at",
} as const satisfies Record<keyof StoredPause, string>;

const PAUSE_PREFIX = "pause.";

const ORDER_VIEW = `SELECT o.*,
    (SELECT p.id FROM payments p WHERE p.order_id = o.id ORDER BY p.id DESC LIMIT 1) AS "latestPaymentId",
    ${Object.entries(PAUSE_COLUMNS).map(([field, column]) => `z.${column} AS "${PAUSE_PREFIX}${field}"`).join(", ")}
  FROM (SELECT ${RETURNING} FROM orders WHERE id = $1 AND distributor_id = $2) AS o
  LEFT JOIN LATERAL (SELECT * FROM order_pauses z WHERE z.order_id = o.id ORDER BY z.requested_at DESC, z.id DESC LIMIT 1) AS z ON true`;

export interface OrderWithLatest {
  order: OrderRow;
  paymentId: string | null;
  pause: PauseRow | null;
}

/** One order of one distributor with its latest payment and pause; another distributor's id finds nothing. */
export async function findOrderWithLatest(db: DbOrTx, distributorId: string, id: string): Promise<OrderWithLatest | null> {
  const rows = await readRows<Record<string, unknown>>(db, ORDER_VIEW, id, distributorId);
  const row = rows[0];
  if (!row) return null;
  const order: Record<string, unknown> = {};
  const pause: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith(PAUSE_PREFIX)) pause[key.slice(PAUSE_PREFIX.length)] = value;
    else if (key !== "latestPaymentId") order[key] = value;
  }
  return {
    order: toOrderRow(order as Parameters<typeof toOrderRow>[0]),
    paymentId: (row.latestPaymentId as string | null) ?? null,
    pause: pause.id === null || pause.id === undefined ? null : toPauseRow(pause as StoredPause),
  };
}
