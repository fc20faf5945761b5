import type { Db } from "../../platform/db/client.js";
import { INDIA_OFFSET_MS, todayInIndia } from "../../platform/lib/india-date.js";
import { maskFreeText } from "../../platform/lib/mask.js";
import { recordEvent } from "../events/events.repo.js";
import { exchangeCalendar } from "../masters/exchange-calendar.js";
import { allotmentOfRow } from "../orders/jobs/sync-exchange.js";
import { allotOrderIn } from "../orders/lifecycle.js";
import { orderTypesWhere } from "../orders/order-types.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import * as repo from "./reconciliations.repo.js";
import { MISMATCH_KINDS, type MismatchKind, type RunStatus } from "./reconciliation.states.js";
import { compareDay, previousBusinessDay, type Mismatch } from "./rules.js";

/** How long the transaction that stores a day's mismatches (and applies its fixes) may take. */
const STORE_TIMEOUT_MS = 120_000;

/** The types whose registrations are not orders of the exchange's reports (their installments are). */
const REGISTRATION_TYPES = orderTypesWhere((type) => type.installments !== null);

export interface RunSummary {
  date: string;
  status: RunStatus;
  our_orders: number;
  exchange_orders: number;
  mismatches: number;
  fixed: number;
}

/** The date a run without one reconciles: the exchange business day before today (India). */
export async function defaultReconciliationDate(db: Db, now: Date = new Date()): Promise<string> {
  const calendar = await exchangeCalendar(db);
  return previousBusinessDay(todayInIndia(now), calendar.isBusinessDay);
}

/**
 * Reconciles one India business day (YYYY-MM-DD): reads the exchange's order status report and allotment
 * statement of the day, compares them with our orders of the day (rules.ts), and stores the run and its
 * mismatches in one transaction with their `reconciliation.mismatch` events (to the order's distributor; an
 * order we do not have has none) and the safe fix: a missed allotment is applied as the status sync applies
 * one (the order moves to ALLOTTED with `order.allotted`). Idempotent: a second run of the date updates the
 * run and its known mismatches, adds only new ones (one event each, ever), and drops open ones no longer found.
 * A failure reading the exchange marks the run FAILED and is thrown (the job retries).
 */
export async function reconcileDate(services: Pick<Services, "prisma" | "exchange">, date: string, now: () => Date = () => new Date()): Promise<RunSummary> {
  const db = services.prisma;
  const run = await repo.startRun(db, date, now());
  let exchangeOrders, allotments;
  try {
    [exchangeOrders, allotments] = await Promise.all([services.exchange.orderStatusForDate(date), services.exchange.allotmentsForDate(date)]);
  } catch (error) {
    await repo.failRun(db, run.id, maskFreeText((error as Error).message ?? String(error)).slice(0, 500), now());
    throw error;
  }
  const from = new Date(Date.parse(`${date}T00:00:00Z`) - INDIA_OFFSET_MS);
  const ours = await repo.ordersCreatedBetween(db, { from, to: new Date(from.getTime() + 86_400_000) }, {
    registrationTypes: REGISTRATION_TYPES,
    // Where the exchange does not generate installments (the sandbox), it never hears of them.
    withInstallments: typeof services.exchange.matchInstallments === "function",
  });
  // The exchange's rows that name none of the day's orders may name one of another day (sent after midnight).
  const known = new Set(ours.flatMap((o) => (o.exchangeOrderNumber ? [o.id, o.exchangeOrderNumber] : [o.id])));
  const strays = [...exchangeOrders, ...allotments].filter((r) => !(r.orderId && known.has(r.orderId)) && !known.has(r.exchangeOrderNumber));
  const others = await repo.ordersByIdOrNumber(db, strays.flatMap((r) => (r.orderId ? [r.orderId] : [])), strays.map((r) => r.exchangeOrderNumber));
  const mismatches = compareDay([...ours, ...others], exchangeOrders, allotments);

  return db.$transaction(
    async (tx) => {
      await repo.lockRun(tx, run.id);
      for (const mismatch of mismatches) {
        const fixed = mismatch.kind === "ALLOTMENT_MISSED" && (await allotOrderIn(tx, mismatch.orderId!, allotmentOfRow(mismatch.allotment!)));
        const stored = await repo.upsertMismatch(tx, run.id, date, mismatch, fixed);
        if (stored.inserted && mismatch.distributorId !== null) await recordMismatch(tx, stored.id, date, mismatch, fixed);
      }
      await repo.dropResolved(tx, date, mismatches.map((m) => m.key));
      const done = await repo.finishRun(tx, run.id, { ourOrders: ours.length, exchangeOrders: exchangeOrders.length, now: now() });
      return { date, status: done.status, our_orders: done.ourOrders, exchange_orders: done.exchangeOrders, mismatches: done.mismatches, fixed: done.fixed };
    },
    { timeout: STORE_TIMEOUT_MS },
  );
}

function recordMismatch(tx: Parameters<typeof repo.lockRun>[0], id: string, date: string, m: Mismatch, fixed: boolean) {
  return recordEvent(tx, {
    distributorId: m.distributorId!,
    resourceType: "reconciliation",
    resourceId: id,
    event: "reconciliation.mismatch",
    data: { mismatch_id: id, date, kind: m.kind, order_id: m.orderId, exchange_order_number: m.exchangeOrderNumber, ours: m.ours, theirs: m.theirs, fixed },
  });
}

/** GET /api/reconciliations/v1?date=: the caller's mismatches of the date and their counts; NOT_RUN when the date has no run. */
export async function distributorReconciliation(services: Pick<Services, "prisma">, caller: Caller, date: string) {
  const run = await repo.findRun(services.prisma, date);
  const rows = run ? await repo.mismatchesOf(services.prisma, date, caller.distributorId) : [];
  return {
    success: true as const,
    data: {
      date,
      status: run?.status ?? ("NOT_RUN" as const),
      started_at: run?.startedAt.toISOString() ?? null,
      finished_at: run?.finishedAt?.toISOString() ?? null,
      counts: { total: rows.length, fixed: rows.filter((r) => r.fixed).length, by_kind: countByKind(rows) },
      mismatches: rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        order_id: r.orderId,
        exchange_order_number: r.exchangeOrderNumber,
        ours: r.ours,
        theirs: r.theirs,
        fixed: r.fixed,
        created_at: r.createdAt.toISOString(),
      })),
    },
  };
}

export interface OperatorTotals {
  run: RunSummary | null;
  by_kind: Record<MismatchKind, number>;
  /** Per distributor ARN; orders we do not have are under `null` in `exchange_only`. */
  by_arn: Record<string, number>;
  exchange_only: number;
  fixed: number;
}

/** The operator's totals of a date (the CLI's output): per kind, per distributor ARN, fixed. */
export async function operatorTotals(db: Db, date: string): Promise<OperatorTotals> {
  const [run, rows] = await Promise.all([repo.findRun(db, date), repo.mismatchesWithArn(db, date)]);
  const byArn: Record<string, number> = {};
  for (const row of rows) if (row.arn !== null) byArn[row.arn] = (byArn[row.arn] ?? 0) + 1;
  return {
    run: run && { date, status: run.status, our_orders: run.ourOrders, exchange_orders: run.exchangeOrders, mismatches: run.mismatches, fixed: run.fixed },
    by_kind: countByKind(rows),
    by_arn: byArn,
    exchange_only: rows.filter((r) => r.arn === null).length,
    fixed: rows.filter((r) => r.fixed).length,
  };
}

/**
 * For the metric `mf_reconciliation_mismatches{kind}`: the open (not fixed) mismatches of the latest completed
 * run's date, per kind, every kind present (0 when none). One grouped query.
 */
export async function openMismatchesByKind(db: Db): Promise<Record<MismatchKind, number>> {
  const counts = zeroByKind();
  for (const row of await repo.openMismatchCountsOfLatestRun(db)) counts[row.kind] = row.count;
  return counts;
}

function zeroByKind(): Record<MismatchKind, number> {
  return Object.fromEntries(MISMATCH_KINDS.map((k) => [k, 0])) as Record<MismatchKind, number>;
}

function countByKind(rows: ReadonlyArray<{ kind: MismatchKind }>): Record<MismatchKind, number> {
  const counts = zeroByKind();
  for (const row of rows) counts[row.kind]++;
  return counts;
}
