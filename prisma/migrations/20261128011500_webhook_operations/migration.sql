-- DropIndex
DROP INDEX "events_distributor_id_created_at_idx";

-- AlterTable
ALTER TABLE "webhook_subscriptions" ADD COLUMN     "previous_secret_encrypted" TEXT,
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "events_distributor_id_created_at_id_idx" ON "events"("distributor_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "events_distributor_id_event_created_at_id_idx" ON "events"("distributor_id", "event", "created_at", "id");

-- The event catalog gains webhook.test, about a webhook subscription (src/domains/events/catalog.ts). It is
-- sent to one subscription on request, never fanned out, so webhook_subscriptions_events_check is unchanged.
ALTER TABLE "events" DROP CONSTRAINT "events_resource_type_check";
ALTER TABLE "events" ADD CONSTRAINT "events_resource_type_check"
  CHECK ("resource_type" IN ('investor', 'mandate', 'order', 'payment', 'broker_change', 'reconciliation', 'webhook'));
ALTER TABLE "events" DROP CONSTRAINT "events_event_check";
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test'));
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'reconciliation.mismatch', 'webhook.test'));
