-- AlterTable
ALTER TABLE "bse_order_refs" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'LUMPSUM',
ADD COLUMN     "second_order_number" TEXT,
ADD COLUMN     "request" JSONB;

-- CreateTable
CREATE TABLE "bse_child_orders" (
    "order_id" TEXT NOT NULL,
    "registration_order_id" TEXT NOT NULL,
    "exchange_order_number" TEXT NOT NULL,
    "order_date" DATE NOT NULL,
    "buy_sell" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bse_child_orders_pkey" PRIMARY KEY ("order_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "bse_child_orders_exchange_order_number_key" ON "bse_child_orders"("exchange_order_number");

-- CreateIndex
CREATE INDEX "bse_child_orders_registration_order_id_idx" ON "bse_child_orders"("registration_order_id");

-- CreateIndex
CREATE INDEX "bse_order_refs_exchange_order_number_idx" ON "bse_order_refs"("exchange_order_number");

-- Closed sets, written by hand (Prisma cannot express CHECK constraints).
-- exchange/bse/order-refs.repo.ts BSE_ORDER_REF_KINDS.
ALTER TABLE "bse_order_refs" ADD CONSTRAINT "bse_order_refs_kind_check"
  CHECK ("kind" IN ('LUMPSUM', 'SWITCH', 'SIP', 'XSIP', 'STP', 'SWP', 'SIP_CANCEL', 'XSIP_CANCEL', 'STP_CANCEL', 'SWP_CANCEL'));
-- exchange/bse/child-orders.repo.ts BSE_BUY_SELL.
ALTER TABLE "bse_child_orders" ADD CONSTRAINT "bse_child_orders_buy_sell_check"
  CHECK ("buy_sell" IN ('P', 'R'));
