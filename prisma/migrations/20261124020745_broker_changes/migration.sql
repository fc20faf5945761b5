-- CreateTable
CREATE TABLE "broker_changes" (
    "id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "investor_id" TEXT NOT NULL,
    "amc_code" TEXT NOT NULL,
    "folio_no" TEXT NOT NULL,
    "auth_mode" TEXT NOT NULL,
    "two_fa_channel" TEXT,
    "status" TEXT NOT NULL,
    "broker_code" TEXT NOT NULL,
    "client_ref" TEXT,
    "euin" TEXT,
    "sub_broker_code" TEXT,
    "ria_code" TEXT,
    "provider_remark" TEXT,
    "registrar_reference" TEXT,
    "handed_over_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "broker_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "broker_change_documents" (
    "broker_change_id" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "broker_change_documents_pkey" PRIMARY KEY ("broker_change_id")
);

-- CreateIndex
CREATE INDEX "broker_changes_distributor_id_id_idx" ON "broker_changes"("distributor_id", "id");

-- CreateIndex
CREATE INDEX "broker_changes_distributor_id_status_id_idx" ON "broker_changes"("distributor_id", "status", "id");

-- CreateIndex
CREATE INDEX "broker_changes_distributor_id_investor_id_id_idx" ON "broker_changes"("distributor_id", "investor_id", "id");

-- AddForeignKey
ALTER TABLE "broker_change_documents" ADD CONSTRAINT "broker_change_documents_broker_change_id_fkey" FOREIGN KEY ("broker_change_id") REFERENCES "broker_changes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Closed sets, written by hand (Prisma cannot express CHECK constraints): broker-changes/broker-change.states.ts.
ALTER TABLE "broker_changes" ADD CONSTRAINT "broker_changes_status_check"
  CHECK ("status" IN ('PENDING_DOCUMENT', 'SUBMITTED', 'REJECTED'));
ALTER TABLE "broker_changes" ADD CONSTRAINT "broker_changes_auth_mode_check"
  CHECK ("auth_mode" IN ('WET_SIGNATURE', 'TWO_FA'));
ALTER TABLE "broker_changes" ADD CONSTRAINT "broker_changes_two_fa_channel_check"
  CHECK ("two_fa_channel" IN ('EMAIL', 'SMS'));
ALTER TABLE "broker_change_documents" ADD CONSTRAINT "broker_change_documents_content_type_check"
  CHECK ("content_type" IN ('application/pdf', 'image/jpeg', 'image/png'));

-- The event catalog (src/domains/events/catalog.ts) gains the broker change events (beta) and their resource type;
-- subscriptions the wildcard broker_change.* (src/domains/webhooks/event-filter.ts).
ALTER TABLE "events" DROP CONSTRAINT "events_resource_type_check";
ALTER TABLE "events" ADD CONSTRAINT "events_resource_type_check"
  CHECK ("resource_type" IN ('investor', 'mandate', 'order', 'payment', 'broker_change'));
ALTER TABLE "events" DROP CONSTRAINT "events_event_check";
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'payment.captured',
    'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected'));
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'payment.captured',
    'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected'));
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_events_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_events_check"
  CHECK ("events" <@ ARRAY['investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'payment.captured',
    'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'investor.*', 'mandate.*', 'order.*', 'payment.*', 'broker_change.*']::text[]);

-- The sandbox books keep what the sandbox registrar received (src/integrations/exchange/sandbox/sandbox.repo.ts RECORD_KINDS).
ALTER TABLE "sandbox_exchange_records" DROP CONSTRAINT "sandbox_exchange_records_kind_check";
ALTER TABLE "sandbox_exchange_records" ADD CONSTRAINT "sandbox_exchange_records_kind_check"
  CHECK ("kind" IN ('UCC', 'MANDATE', 'ORDER', 'PAYMENT', 'BROKER_CHANGE'));
