-- CreateTable
CREATE TABLE "order_pauses" (
    "id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "installments" INTEGER NOT NULL,
    "from_installment_no" INTEGER NOT NULL,
    "added_from_no" INTEGER NOT NULL,
    "from_date" DATE NOT NULL,
    "until_date" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "remark" TEXT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_pauses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "order_pauses_order_id_requested_at_idx" ON "order_pauses"("order_id", "requested_at");

-- Hand-appended. orders/order.states.ts: INSTALLMENT_STATUSES gains PAUSED; PAUSE_STATUSES is order_pauses.status.
ALTER TABLE "order_installments" DROP CONSTRAINT "order_installments_status_check";
ALTER TABLE "order_installments" ADD CONSTRAINT "order_installments_status_check"
  CHECK ("status" IN ('SCHEDULED', 'CREATED', 'CANCELLED', 'PAUSED'));
ALTER TABLE "order_pauses" ADD CONSTRAINT "order_pauses_status_check"
  CHECK ("status" IN ('PENDING', 'CONFIRMED', 'REFUSED', 'RESUMED'));
-- The event catalog gains order.paused and order.resumed (src/domains/events/catalog.ts); `order.*` covers them.
ALTER TABLE "events" DROP CONSTRAINT "events_event_check";
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test', 'webhook.subscription_disabled', 'order.paused', 'order.resumed'));
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test', 'webhook.subscription_disabled', 'order.paused', 'order.resumed'));
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_events_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_events_check"
  CHECK ("events" <@ ARRAY['investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.subscription_disabled', 'order.paused', 'order.resumed',
    'investor.*', 'mandate.*', 'order.*', 'payment.*', 'broker_change.*', 'reconciliation.*']::text[]);
