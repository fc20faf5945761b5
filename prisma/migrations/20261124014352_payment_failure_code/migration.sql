-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "failure_code" TEXT;

-- Closed set, written by hand (Prisma cannot express CHECK constraints): payment.states.ts PAYMENT_FAILURE_CODES.
ALTER TABLE "payments" ADD CONSTRAINT "payments_failure_code_check"
  CHECK ("failure_code" IN ('payment_expired', 'invalid_vpa', 'bank_declined', 'user_cancelled', 'insufficient_funds', 'tpv_failed'));
