import type { DbOrTx, Prisma, Tx } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { newId } from "../../platform/lib/ids.js";
import { ORDER_STATUSES } from "../orders/order.states.js";
import { MISMATCH_KINDS, RUN_STATUSES, type MismatchKind, type RunStatus } from "./reconciliation.states.js";
import type { Mismatch, OurOrder } from "./rules.js";

/** The reconciliation's tables, and what it reads of the orders (by SQL on their table, as a repo may). */

interface OrderRow {
  id: string;
  distributor_id: string;
  exchange_order_number: string | null;
  status: string;
  amount: string | null;
  units: string | null;
  all_units: boolean;
  allotted_units: string | null;
  allotted_amount: string | null;
}

const toOurOrder = (r: OrderRow): OurOrder => ({
  id: r.id,
  distributorId: r.distributor_id,
  exchangeOrderNumber: r.exchange_order_number,
  status: narrowTo(ORDER_STATUSES, r.status, "orders.status"),
  amount: r.amount,
  units: r.units,
  allUnits: r.all_units,
  allottedUnits: r.allotted_units,
  allottedAmount: r.allotted_amount,
});

/**
 * Our orders created from `from` to `to` (an India day), except SIP-type registrations (`registrationTypes`
 * without a parent: not orders of the exchange's reports) and, unless `withInstallments`, installments.
 */
export async function ordersCreatedBetween(
  db: DbOrTx,
  range: { from: Date; to: Date },
  options: { registrationTypes: readonly string[]; withInstallments: boolean },
): Promise<OurOrder[]> {
  const rows = await db.$queryRaw<OrderRow[]>`
    SELECT id, distributor_id, exchange_order_number, status, amount::text AS amount, units::text AS units, all_units,
           allotted_units::text AS allotted_units, allotted_amount::text AS allotted_amount
      FROM orders
     WHERE created_at >= ${range.from} AND created_at < ${range.to}
       AND NOT (order_type = ANY(${[...options.registrationTypes]}::text[]) AND parent_order_id IS NULL)
       AND (${options.withInstallments}::boolean OR parent_order_id IS NULL)
     ORDER BY id`;
  return rows.map(toOurOrder);
}

/** Our orders with these ids or exchange numbers (the exchange's rows of the day that name an order of another day). */
export async function ordersByIdOrNumber(db: DbOrTx, ids: readonly string[], numbers: readonly string[]): Promise<OurOrder[]> {
  if (ids.length === 0 && numbers.length === 0) return [];
  const rows = await db.$queryRaw<OrderRow[]>`
    SELECT id, distributor_id, exchange_order_number, status, amount::text AS amount, units::text AS units, all_units,
           allotted_units::text AS allotted_units, allotted_amount::text AS allotted_amount
      FROM orders
     WHERE id = ANY(${[...ids]}::text[]) OR exchange_order_number = ANY(${[...numbers]}::text[])
     ORDER BY id`;
  return rows.map(toOurOrder);
}

export type RunRow = Omit<Prisma.ReconciliationRunGetPayload<object>, "status"> & { status: RunStatus };
const toRun = (row: Prisma.ReconciliationRunGetPayload<object>): RunRow => ({ ...row, status: narrowTo(RUN_STATUSES, row.status, "reconciliation_runs.status") });

const dateOf = (date: string) => new Date(`${date}T00:00:00Z`);

/** The date's run, started now (a second run of a date restarts its row). */
export async function startRun(db: DbOrTx, date: string, now: Date): Promise<RunRow> {
  const start = { status: "RUNNING", startedAt: now, finishedAt: null, error: null };
  return toRun(await db.reconciliationRun.upsert({ where: { date: dateOf(date) }, create: { id: newId("rcn"), date: dateOf(date), ...start }, update: start }));
}

/** Locks the run's row for the transaction: two runs of one date write their mismatches one after the other. */
export async function lockRun(tx: Tx, runId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM reconciliation_runs WHERE id = ${runId} FOR UPDATE`;
}

/**
 * Stores a mismatch of the date once: a new one is inserted (`inserted`), a known one takes the run and the
 * values found now; once fixed it stays fixed.
 */
export async function upsertMismatch(tx: Tx, runId: string, date: string, m: Mismatch, fixed: boolean): Promise<{ id: string; inserted: boolean }> {
  const [row] = await tx.$queryRaw<Array<{ id: string; inserted: boolean }>>`
    INSERT INTO reconciliation_mismatches (id, run_id, date, key, kind, order_id, distributor_id, exchange_order_number, ours, theirs, fixed)
    VALUES (${newId("rcm")}, ${runId}, ${dateOf(date)}::date, ${m.key}, ${m.kind}, ${m.orderId}, ${m.distributorId}, ${m.exchangeOrderNumber}, ${m.ours}, ${m.theirs}, ${fixed})
    ON CONFLICT (date, key) DO UPDATE
       SET run_id = EXCLUDED.run_id, ours = EXCLUDED.ours, theirs = EXCLUDED.theirs,
           fixed = reconciliation_mismatches.fixed OR EXCLUDED.fixed, updated_at = now()
    RETURNING id, (xmax = 0) AS inserted`;
  return row!;
}

/** Drops the date's open mismatches a later run no longer finds (fixed ones stay, as the record of the fix). */
export async function dropResolved(tx: Tx, date: string, keys: readonly string[]): Promise<number> {
  const { count } = await tx.reconciliationMismatch.deleteMany({ where: { date: dateOf(date), fixed: false, key: { notIn: [...keys] } } });
  return count;
}

export async function finishRun(tx: DbOrTx, runId: string, data: { ourOrders: number; exchangeOrders: number; now: Date }): Promise<RunRow> {
  const run = await tx.reconciliationRun.findUniqueOrThrow({ where: { id: runId } });
  const [mismatches, fixed] = await Promise.all([
    tx.reconciliationMismatch.count({ where: { date: run.date } }),
    tx.reconciliationMismatch.count({ where: { date: run.date, fixed: true } }),
  ]);
  return toRun(
    await tx.reconciliationRun.update({
      where: { id: runId },
      data: { status: "COMPLETED", finishedAt: data.now, ourOrders: data.ourOrders, exchangeOrders: data.exchangeOrders, mismatches, fixed },
    }),
  );
}

export async function failRun(db: DbOrTx, runId: string, error: string, now: Date): Promise<void> {
  await db.reconciliationRun.update({ where: { id: runId }, data: { status: "FAILED", finishedAt: now, error } });
}

export async function findRun(db: DbOrTx, date: string): Promise<RunRow | null> {
  const row = await db.reconciliationRun.findUnique({ where: { date: dateOf(date) } });
  return row && toRun(row);
}

export type MismatchRow = Omit<Prisma.ReconciliationMismatchGetPayload<object>, "kind"> & { kind: MismatchKind };
const toMismatch = (row: Prisma.ReconciliationMismatchGetPayload<object>): MismatchRow => ({
  ...row,
  kind: narrowTo(MISMATCH_KINDS, row.kind, "reconciliation_mismatches.kind"),
});

/** A distributor's mismatches of a date, oldest first. */
export async function mismatchesOf(db: DbOrTx, date: string, distributorId: string): Promise<MismatchRow[]> {
  const rows = await db.reconciliationMismatch.findMany({ where: { date: dateOf(date), distributorId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toMismatch);
}

/** Every mismatch of a date with its distributor's ARN (null: an order we do not have), for the operator. */
export async function mismatchesWithArn(db: DbOrTx, date: string): Promise<Array<{ kind: MismatchKind; fixed: boolean; arn: string | null }>> {
  const rows = await db.$queryRaw<Array<{ kind: string; fixed: boolean; arn: string | null }>>`
    SELECT m.kind, m.fixed, d.arn
      FROM reconciliation_mismatches m LEFT JOIN distributors d ON d.id = m.distributor_id
     WHERE m.date = ${dateOf(date)}::date
     ORDER BY m.created_at, m.id`;
  return rows.map((r) => ({ ...r, kind: narrowTo(MISMATCH_KINDS, r.kind, "reconciliation_mismatches.kind") }));
}

/** Open (not fixed) mismatches per kind of the latest completed run's date: one grouped query. */
export async function openMismatchCountsOfLatestRun(db: DbOrTx): Promise<Array<{ kind: MismatchKind; count: number }>> {
  const rows = await db.$queryRaw<Array<{ kind: string; count: number }>>`
    SELECT m.kind, count(*)::int AS count
      FROM reconciliation_mismatches m
     WHERE NOT m.fixed
       AND m.date = (SELECT max(date) FROM reconciliation_runs WHERE status = 'COMPLETED')
     GROUP BY m.kind`;
  return rows.map((r) => ({ kind: narrowTo(MISMATCH_KINDS, r.kind, "reconciliation_mismatches.kind"), count: r.count }));
}
