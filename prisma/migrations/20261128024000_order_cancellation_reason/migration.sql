-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "cancellation_reason" TEXT;

-- Hand-appended. orders/order.states.ts CANCELLATION_REASONS: why a registration's cancellation was asked.
ALTER TABLE "orders" ADD CONSTRAINT "orders_cancellation_reason_check"
  CHECK ("cancellation_reason" IN ('requested', 'auto_cancelled_after_failed_installments'));
