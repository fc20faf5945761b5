-- Closed sets of text values, checked by the database. Prisma cannot express CHECK constraints, so this
-- migration is written by hand; the schema diff ignores them. Each list equals a TypeScript const tuple
-- beside its domain (test/db/status-checks.test.ts keeps them equal): change both together, in a new migration.

ALTER TABLE "schemes" ADD CONSTRAINT "schemes_plan_check"
  CHECK ("plan" IN ('DIRECT', 'REGULAR'));
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_option_check"
  CHECK ("option" IN ('GROWTH', 'IDCW', 'IDCW_PAYOUT', 'IDCW_REINVESTMENT', 'BONUS'));

ALTER TABLE "investors" ADD CONSTRAINT "investors_status_check"
  CHECK ("status" IN ('PENDING', 'REGISTERED', 'REJECTED'));

ALTER TABLE "mandates" ADD CONSTRAINT "mandates_status_check"
  CHECK ("status" IN ('PENDING', 'REGISTERED', 'REJECTED', 'CANCELLED'));
ALTER TABLE "mandates" ADD CONSTRAINT "mandates_mandate_type_check"
  CHECK ("mandate_type" IN ('ENACH', 'PHYSICAL'));

ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check"
  CHECK ("status" IN ('PENDING', 'ACCEPTED', 'REJECTED', 'FAILED', 'ALLOTTED', 'CANCELLED'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_payment_status_check"
  CHECK ("payment_status" IN ('NOT_REQUIRED', 'UNPAID', 'PENDING', 'PAID', 'FAILED', 'REFUNDED'));
ALTER TABLE "orders" ADD CONSTRAINT "orders_order_type_check"
  CHECK ("order_type" IN ('LUMPSUM_PURCHASE', 'REDEMPTION', 'SWITCH', 'SIP', 'XSIP', 'STP', 'SWP', 'SIP_TOPUP'));

ALTER TABLE "order_installments" ADD CONSTRAINT "order_installments_status_check"
  CHECK ("status" IN ('SCHEDULED', 'CREATED', 'CANCELLED'));

ALTER TABLE "payments" ADD CONSTRAINT "payments_status_check"
  CHECK ("status" IN ('PENDING', 'CAPTURED', 'FAILED', 'REFUNDED'));
ALTER TABLE "payments" ADD CONSTRAINT "payments_mode_check"
  CHECK ("mode" IN ('UPI', 'NETBANKING', 'MANDATE', 'CHEQUE'));

ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_status_check"
  CHECK ("status" IN ('ACTIVE', 'DELETED'));
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check"
  CHECK ("status" IN ('PENDING', 'DELIVERED', 'PARKED', 'FAILED'));

ALTER TABLE "holding_positions" ADD CONSTRAINT "holding_positions_registrar_check"
  CHECK ("registrar" IN ('CAMS', 'KFINTECH'));
ALTER TABLE "holding_positions" ADD CONSTRAINT "holding_positions_holding_nature_check"
  CHECK ("holding_nature" IN ('SINGLE', 'JOINT', 'ANYONE_OR_SURVIVOR', 'OTHER'));
ALTER TABLE "holding_snapshots" ADD CONSTRAINT "holding_snapshots_registrar_check"
  CHECK ("registrar" IN ('CAMS', 'KFINTECH'));
ALTER TABLE "holding_feed_files" ADD CONSTRAINT "holding_feed_files_registrar_check"
  CHECK ("registrar" IN ('CAMS', 'KFINTECH'));
ALTER TABLE "holding_feed_files" ADD CONSTRAINT "holding_feed_files_outcome_check"
  CHECK ("outcome" IN ('IMPORTED', 'DUPLICATE', 'REJECTED'));

ALTER TABLE "sandbox_exchange_records" ADD CONSTRAINT "sandbox_exchange_records_kind_check"
  CHECK ("kind" IN ('UCC', 'MANDATE', 'ORDER', 'PAYMENT'));
ALTER TABLE "sandbox_exchange_records" ADD CONSTRAINT "sandbox_exchange_records_status_check"
  CHECK ("status" IN ('PENDING', 'REGISTERED', 'REJECTED', 'CANCELLED', 'ACCEPTED', 'ALLOTTED', 'CAPTURED', 'FAILED', 'REFUNDED'));
