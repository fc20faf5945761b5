-- CreateTable
CREATE TABLE "bse_trans_no_counters" (
    "day" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "bse_trans_no_counters_pkey" PRIMARY KEY ("day")
);

-- CreateTable
CREATE TABLE "bse_order_refs" (
    "trans_no" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,
    "outcome" TEXT,
    "exchange_order_number" TEXT,
    "remark" TEXT,
    "answered_at" TIMESTAMPTZ(3),

    CONSTRAINT "bse_order_refs_pkey" PRIMARY KEY ("trans_no")
);

-- CreateIndex
CREATE INDEX "bse_order_refs_order_id_sent_at_idx" ON "bse_order_refs"("order_id", "sent_at");

-- Closed sets, written by hand (Prisma cannot express CHECK constraints).
-- exchange/bse/order-refs.repo.ts BSE_ORDER_REF_OUTCOMES (a NULL outcome, not yet answered, passes).
ALTER TABLE "bse_order_refs" ADD CONSTRAINT "bse_order_refs_outcome_check"
  CHECK ("outcome" IN ('ACCEPTED', 'REJECTED', 'NOT_PLACED'));

-- orders/order.states.ts ORDER_FAILURE_CODES gains the codes the exchange's remarks map to (exchange/bse/remarks.ts).
ALTER TABLE "orders" DROP CONSTRAINT "orders_failure_code_check";
ALTER TABLE "orders" ADD CONSTRAINT "orders_failure_code_check"
  CHECK ("failure_code" IN ('exchange_rejected', 'exchange_unreachable', 'allotment_rejected', 'client_not_registered', 'mandate_invalid', 'payout_account_invalid', 'member_not_permitted'));
