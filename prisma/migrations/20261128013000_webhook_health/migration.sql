-- AlterTable
ALTER TABLE "webhook_subscriptions" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3),
ADD COLUMN     "failing_since" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "webhook_deliveries_distributor_id_status_next_attempt_at_idx" ON "webhook_deliveries"("distributor_id", "status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_lease_until_idx" ON "webhook_deliveries"("lease_until");

-- CreateIndex
CREATE INDEX "webhook_subscriptions_status_failing_since_idx" ON "webhook_subscriptions"("status", "failing_since");

-- Hand-appended. webhooks/webhook.states.ts SUBSCRIPTION_STATUSES gains DISABLED (endpoint health).
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_status_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_status_check"
  CHECK ("status" IN ('ACTIVE', 'DELETED', 'DISABLED'));
-- The event catalog gains webhook.subscription_disabled (src/domains/events/catalog.ts), which subscriptions may list.
ALTER TABLE "events" DROP CONSTRAINT "events_event_check";
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test', 'webhook.subscription_disabled'));
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test', 'webhook.subscription_disabled'));
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_events_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_events_check"
  CHECK ("events" <@ ARRAY['investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.subscription_disabled',
    'investor.*', 'mandate.*', 'order.*', 'payment.*', 'broker_change.*', 'reconciliation.*']::text[]);
