-- CreateTable
CREATE TABLE "investor_changes" (
    "id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "investor_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "fields" TEXT[],
    "values_encrypted" TEXT NOT NULL,
    "provider_remark" TEXT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "investor_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "investor_changes_investor_id_requested_at_idx" ON "investor_changes"("investor_id", "requested_at");

-- AddForeignKey
ALTER TABLE "investor_changes" ADD CONSTRAINT "investor_changes_investor_id_fkey" FOREIGN KEY ("investor_id") REFERENCES "investors"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-appended. investors/investor.states.ts INVESTOR_CHANGE_STATUSES.
ALTER TABLE "investor_changes" ADD CONSTRAINT "investor_changes_status_check"
  CHECK ("status" IN ('PENDING', 'APPLIED', 'REJECTED'));
-- At most one PENDING change per investor: the second one's insert fails (409 INVALID_STATE).
CREATE UNIQUE INDEX "investor_changes_one_pending_idx" ON "investor_changes"("investor_id") WHERE "status" = 'PENDING';
-- The sandbox books keep the UCC modifications it received (src/integrations/exchange/sandbox/sandbox.repo.ts RECORD_KINDS).
ALTER TABLE "sandbox_exchange_records" DROP CONSTRAINT "sandbox_exchange_records_kind_check";
ALTER TABLE "sandbox_exchange_records" ADD CONSTRAINT "sandbox_exchange_records_kind_check"
  CHECK ("kind" IN ('UCC', 'MANDATE', 'ORDER', 'PAYMENT', 'BROKER_CHANGE', 'UCC_CHANGE'));
-- The event catalog gains investor.updated and investor.update_rejected (src/domains/events/catalog.ts); the lists
-- are the whole catalog's, the SIP pauses' events included.
ALTER TABLE "events" DROP CONSTRAINT "events_event_check";
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'investor.updated', 'investor.update_rejected',
    'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test', 'webhook.subscription_disabled', 'order.paused', 'order.resumed'));
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'investor.updated', 'investor.update_rejected',
    'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test', 'webhook.subscription_disabled', 'order.paused', 'order.resumed'));
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_events_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_events_check"
  CHECK ("events" <@ ARRAY['investor.registered', 'investor.rejected', 'investor.updated', 'investor.update_rejected',
    'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.subscription_disabled', 'order.paused', 'order.resumed',
    'investor.*', 'mandate.*', 'order.*', 'payment.*', 'broker_change.*', 'reconciliation.*']::text[]);
