-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "installment_no" INTEGER,
ADD COLUMN     "parent_order_id" TEXT;

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "investor_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "basket_id" TEXT,
    "mode" TEXT NOT NULL,
    "amount" DECIMAL(18,2) NOT NULL,
    "status" TEXT NOT NULL,
    "mandate_id" TEXT,
    "bank_account_id" TEXT,
    "details" JSONB NOT NULL,
    "gateway_reference" TEXT,
    "provider_remark" TEXT,
    "captured_at" TIMESTAMPTZ(3),
    "refunded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_installments" (
    "order_id" TEXT NOT NULL,
    "installment_no" INTEGER NOT NULL,
    "due_date" DATE NOT NULL,
    "amount" DECIMAL(18,2),
    "units" DECIMAL(18,3),
    "status" TEXT NOT NULL,
    "child_order_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_installments_pkey" PRIMARY KEY ("order_id","installment_no")
);

-- CreateIndex
CREATE INDEX "payments_order_id_idx" ON "payments"("order_id");

-- CreateIndex
CREATE INDEX "payments_distributor_id_status_id_idx" ON "payments"("distributor_id", "status", "id");

-- CreateIndex
CREATE INDEX "payments_status_created_at_idx" ON "payments"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "order_installments_child_order_id_key" ON "order_installments"("child_order_id");

-- CreateIndex
CREATE INDEX "order_installments_status_due_date_idx" ON "order_installments"("status", "due_date");

-- CreateIndex
CREATE INDEX "orders_status_exchange_order_number_idx" ON "orders"("status", "exchange_order_number");

-- CreateIndex
CREATE INDEX "orders_parent_order_id_idx" ON "orders"("parent_order_id");
