-- The remaining closed sets of text values, checked by the database (written by hand, as in
-- 20261124010000_status_checks: Prisma cannot express CHECK constraints). Each list equals a TypeScript
-- tuple (test/db/status-checks.test.ts keeps them equal): change both together, in a new migration.
-- A NULL passes a CHECK, so the optional columns (purchase_type, holding_mode, failure_code) stay optional.

-- The investor-options catalog's values (src/integrations/exchange/code-tables.ts), as the investor was created with.
ALTER TABLE "investors" ADD CONSTRAINT "investors_tax_status_check"
  CHECK ("tax_status" IN ('INDIVIDUAL', 'MINOR', 'NRI'));
ALTER TABLE "investors" ADD CONSTRAINT "investors_holding_type_check"
  CHECK ("holding_type" IN ('SINGLE', 'JOINT', 'ANYONE_OR_SURVIVOR'));
ALTER TABLE "investment_accounts" ADD CONSTRAINT "investment_accounts_holding_mode_check"
  CHECK ("holding_mode" IN ('PHYSICAL', 'CDSL', 'NSDL'));
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_account_type_check"
  CHECK ("account_type" IN ('SB', 'CB', 'NE', 'NO'));

ALTER TABLE "orders" ADD CONSTRAINT "orders_purchase_type_check"
  CHECK ("purchase_type" IN ('FRESH', 'ADDITIONAL'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_holding_mode_check"
  CHECK ("holding_mode" IN ('PHYSICAL', 'CDSL', 'NSDL'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_failure_code_check"
  CHECK ("failure_code" IN ('exchange_rejected', 'exchange_unreachable', 'allotment_rejected'));

-- The event catalog (src/domains/events/catalog.ts).
ALTER TABLE "events" ADD CONSTRAINT "events_resource_type_check"
  CHECK ("resource_type" IN ('investor', 'mandate', 'order', 'payment'));
ALTER TABLE "events" ADD CONSTRAINT "events_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'payment.captured',
    'payment.failed', 'payment.refunded'));
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_check"
  CHECK ("event" IN ('investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'payment.captured',
    'payment.failed', 'payment.refunded'));
-- A subscription's list: every element an event name or a `<resource>.*` wildcard.
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_events_check"
  CHECK ("events" <@ ARRAY['investor.registered', 'investor.rejected', 'mandate.registered', 'mandate.rejected',
    'mandate.cancelled', 'order.accepted', 'order.rejected', 'order.failed', 'order.allotted', 'payment.captured',
    'payment.failed', 'payment.refunded', 'investor.*', 'mandate.*', 'order.*', 'payment.*']::text[]);
