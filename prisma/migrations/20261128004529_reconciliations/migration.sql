-- CreateTable
CREATE TABLE "reconciliation_runs" (
    "id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "our_orders" INTEGER NOT NULL DEFAULT 0,
    "exchange_orders" INTEGER NOT NULL DEFAULT 0,
    "mismatches" INTEGER NOT NULL DEFAULT 0,
    "fixed" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,

    CONSTRAINT "reconciliation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reconciliation_mismatches" (
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "date" DATE NOT NULL,
    "key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "order_id" TEXT,
    "distributor_id" TEXT,
    "exchange_order_number" TEXT,
    "ours" TEXT,
    "theirs" TEXT,
    "fixed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reconciliation_mismatches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "reconciliation_runs_date_key" ON "reconciliation_runs"("date");

-- CreateIndex
CREATE INDEX "reconciliation_mismatches_distributor_id_date_idx" ON "reconciliation_mismatches"("distributor_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "reconciliation_mismatches_date_key_key" ON "reconciliation_mismatches"("date", "key");

-- AddForeignKey
ALTER TABLE "reconciliation_mismatches" ADD CONSTRAINT "reconciliation_mismatches_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "reconciliation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Closed sets (written by hand: Prisma cannot express CHECK constraints; test/db/status-checks.test.ts keeps
-- each list equal to its TypeScript tuple).
-- reconciliations/reconciliation.states.ts MISMATCH_KINDS and RUN_STATUSES.
ALTER TABLE "reconciliation_mismatches" ADD CONSTRAINT "reconciliation_mismatches_kind_check"
  CHECK ("kind" IN ('MISSING_HERE', 'MISSING_AT_EXCHANGE', 'STATUS', 'AMOUNT', 'UNITS', 'ALLOTMENT_MISSED'));
ALTER TABLE "reconciliation_runs" ADD CONSTRAINT "reconciliation_runs_status_check"
  CHECK ("status" IN ('RUNNING', 'COMPLETED', 'FAILED'));
-- The event catalog gains the resource reconciliation and reconciliation.mismatch (src/domains/events/catalog.ts,
-- src/domains/webhooks/event-filter.ts).
ALTER TABLE "events" DROP CONSTRAINT "events_resource_type_check";
ALTER TABLE "events" ADD CONSTRAINT "events_resource_type_check"
  CHECK ("resource_type" IN ('investor', 'mandate', 'order', 'payment', 'broker_change', 'reconciliation'));
ALTER TABLE "events" DROP CONSTRAINT "events_event_check";
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch'));
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch'));
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_events_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_events_check"
  CHECK ("events" <@ ARRAY['investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch',
    'investor.*', 'mandate.*', 'order.*', 'payment.*', 'broker_change.*', 'reconciliation.*']::text[]);
