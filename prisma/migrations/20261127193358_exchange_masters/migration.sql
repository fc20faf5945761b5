-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "cancellation_remark" TEXT,
ADD COLUMN     "cancellation_requested_at" TIMESTAMPTZ(3),
ADD COLUMN     "cancellation_status" TEXT,
ADD COLUMN     "dispatch_claimed_at" TIMESTAMPTZ(3),
ADD COLUMN     "exchange_scheme_code" TEXT,
ADD COLUMN     "nav_date_expected" DATE,
ADD COLUMN     "to_exchange_scheme_code" TEXT;

-- CreateTable
CREATE TABLE "exchange_schemes" (
    "code" TEXT NOT NULL,
    "unique_no" INTEGER,
    "isin" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rta_scheme_code" TEXT,
    "amc_scheme_code" TEXT,
    "amc_code" TEXT,
    "scheme_type" TEXT,
    "scheme_plan" TEXT,
    "transaction_mode" TEXT NOT NULL,
    "purchase_allowed" BOOLEAN NOT NULL,
    "redemption_allowed" BOOLEAN NOT NULL,
    "sip_allowed" BOOLEAN NOT NULL,
    "stp_allowed" BOOLEAN NOT NULL,
    "swp_allowed" BOOLEAN NOT NULL,
    "switch_allowed" BOOLEAN NOT NULL,
    "amc_active" BOOLEAN NOT NULL DEFAULT true,
    "min_purchase_amount" DECIMAL(18,2),
    "min_additional_amount" DECIMAL(18,2),
    "max_purchase_amount" DECIMAL(18,2),
    "purchase_multiple" DECIMAL(18,2),
    "min_redemption_amount" DECIMAL(18,2),
    "max_redemption_amount" DECIMAL(18,2),
    "redemption_amount_multiple" DECIMAL(18,2),
    "min_redemption_units" DECIMAL(18,3),
    "max_redemption_units" DECIMAL(18,3),
    "redemption_units_multiple" DECIMAL(18,3),
    "purchase_cut_off" TEXT,
    "redemption_cut_off" TEXT,
    "settlement_type" TEXT,
    "exit_load" TEXT,
    "lock_in" TEXT,
    "start_date" DATE,
    "end_date" DATE,
    "reopening_date" DATE,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_schemes_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "exchange_sip_rules" (
    "code" TEXT NOT NULL,
    "frequency" TEXT NOT NULL,
    "transaction_mode" TEXT,
    "dates" INTEGER[],
    "min_gap_days" INTEGER,
    "max_gap_days" INTEGER,
    "installment_gap" INTEGER,
    "min_amount" DECIMAL(18,2),
    "max_amount" DECIMAL(18,2),
    "multiple" DECIMAL(18,2),
    "min_installments" INTEGER,
    "max_installments" INTEGER,
    "pause_allowed" BOOLEAN NOT NULL DEFAULT false,
    "pause_min_installments" INTEGER,
    "pause_max_installments" INTEGER,
    "pause_modification_count" INTEGER,
    "isin" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_sip_rules_pkey" PRIMARY KEY ("code","frequency")
);

-- CreateTable
CREATE TABLE "exchange_holidays" (
    "date" DATE NOT NULL,
    "description" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "exchange_holidays_pkey" PRIMARY KEY ("date")
);

-- CreateIndex
CREATE INDEX "exchange_schemes_isin_idx" ON "exchange_schemes"("isin");

-- CreateIndex
CREATE INDEX "schemes_isin_reinvestment_idx" ON "schemes"("isin_reinvestment");

-- Closed sets (written by hand: Prisma cannot express CHECK constraints; test/db/status-checks.test.ts keeps
-- each list equal to its TypeScript tuple).
-- masters/exchange-schemes.repo.ts EXCHANGE_TRANSACTION_MODES: the holding modes an exchange code serves.
ALTER TABLE "exchange_schemes" ADD CONSTRAINT "exchange_schemes_transaction_mode_check"
  CHECK ("transaction_mode" IN ('PHYSICAL', 'DEMAT', 'BOTH'));
-- orders/order.states.ts CANCELLATION_STATUSES.
ALTER TABLE "orders" ADD CONSTRAINT "orders_cancellation_status_check"
  CHECK ("cancellation_status" IN ('PENDING', 'CONFIRMED', 'REFUSED'));
-- orders/order.states.ts ORDER_FAILURE_CODES gains scheme_not_tradable.
ALTER TABLE "orders" DROP CONSTRAINT "orders_failure_code_check";
ALTER TABLE "orders" ADD CONSTRAINT "orders_failure_code_check"
  CHECK ("failure_code" IN ('exchange_rejected', 'exchange_unreachable', 'allotment_rejected', 'client_not_registered', 'mandate_invalid', 'payout_account_invalid', 'member_not_permitted', 'scheme_not_tradable'));
-- The event catalog gains order.cancelled (src/domains/events/catalog.ts, src/domains/webhooks/event-filter.ts).
ALTER TABLE "events" DROP CONSTRAINT "events_event_check";
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected'));
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_check";
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected'));
ALTER TABLE "webhook_subscriptions" DROP CONSTRAINT "webhook_subscriptions_events_check";
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_events_check"
  CHECK ("events" <@ ARRAY['investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'order.cancelled',
    'payment.captured', 'payment.failed', 'payment.refunded', 'broker_change.submitted', 'broker_change.rejected',
    'investor.*', 'mandate.*', 'order.*', 'payment.*', 'broker_change.*']::text[]);
