-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "investor_id" TEXT NOT NULL,
    "investment_account_id" TEXT NOT NULL,
    "order_type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "payment_status" TEXT NOT NULL,
    "purchase_type" TEXT,
    "holding_mode" TEXT,
    "scheme_code" TEXT NOT NULL,
    "folio_no" TEXT,
    "amount" DECIMAL(18,2),
    "units" DECIMAL(18,3),
    "all_units" BOOLEAN NOT NULL DEFAULT false,
    "bank_account_id" TEXT,
    "mandate_id" TEXT,
    "client_ref" TEXT,
    "remarks" TEXT,
    "sub_broker_arn" TEXT,
    "details" JSONB NOT NULL,
    "exchange_order_number" TEXT,
    "provider_remark" TEXT,
    "failure_code" TEXT,
    "nav" DECIMAL(18,4),
    "allotted_units" DECIMAL(18,3),
    "allotted_amount" DECIMAL(18,2),
    "allotment_date" DATE,
    "request_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "orders_distributor_id_status_id_idx" ON "orders"("distributor_id", "status", "id");

-- CreateIndex
CREATE INDEX "orders_investment_account_id_idx" ON "orders"("investment_account_id");

-- CreateIndex
CREATE UNIQUE INDEX "orders_distributor_id_client_ref_key" ON "orders"("distributor_id", "client_ref");
