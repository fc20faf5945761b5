-- CreateTable
CREATE TABLE "order_links" (
    "id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "investor_id" TEXT NOT NULL,
    "investment_account_id" TEXT NOT NULL,
    "order_type" TEXT NOT NULL,
    "client_ref" TEXT,
    "proposal" JSONB NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "order_id" TEXT,
    "basket_id" TEXT,
    "confirmation" JSONB,
    "consent_at" TIMESTAMPTZ(3),
    "consent_ip" TEXT,
    "consent_user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "order_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "order_links_order_id_key" ON "order_links"("order_id");

-- CreateIndex
CREATE INDEX "order_links_distributor_id_id_idx" ON "order_links"("distributor_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "order_links_distributor_id_client_ref_key" ON "order_links"("distributor_id", "client_ref");

-- Closed sets, written by hand (Prisma cannot express CHECK constraints): link.states.ts ORDER_LINK_STATUSES
-- and order-types.ts ORDER_TYPES.
ALTER TABLE "order_links" ADD CONSTRAINT "order_links_status_check"
  CHECK ("status" IN ('ACTIVE', 'CONFIRMED', 'PAID', 'EXPIRED', 'CANCELLED'));
ALTER TABLE "order_links" ADD CONSTRAINT "order_links_order_type_check"
  CHECK ("order_type" IN ('LUMPSUM_PURCHASE', 'REDEMPTION', 'SWITCH', 'SIP', 'XSIP', 'STP', 'SWP', 'SIP_TOPUP'));
