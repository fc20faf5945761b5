-- CreateTable
CREATE TABLE "distributors" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "arn" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "distributors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_clients" (
    "id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "access_tokens" (
    "token_hash" TEXT NOT NULL,
    "api_client_id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "schemes" (
    "scheme_code" TEXT NOT NULL,
    "isin_growth" TEXT,
    "isin_reinvestment" TEXT,
    "name" TEXT NOT NULL,
    "amc_code" TEXT NOT NULL,
    "amc_name" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "scheme_type" TEXT NOT NULL,
    "plan" TEXT,
    "option" TEXT,
    "purchase_allowed" BOOLEAN NOT NULL DEFAULT true,
    "redemption_allowed" BOOLEAN NOT NULL DEFAULT true,
    "sip_allowed" BOOLEAN NOT NULL DEFAULT true,
    "min_purchase_amount" DECIMAL(18,2),
    "purchase_multiple" DECIMAL(18,2),
    "min_additional_amount" DECIMAL(18,2),
    "min_redemption_amount" DECIMAL(18,2),
    "min_sip_amount" DECIMAL(18,2),
    "sip_multiple" DECIMAL(18,2),
    "nav" DECIMAL(18,4),
    "nav_date" DATE,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "schemes_pkey" PRIMARY KEY ("scheme_code")
);

-- CreateIndex
CREATE UNIQUE INDEX "distributors_arn_key" ON "distributors"("arn");

-- CreateIndex
CREATE UNIQUE INDEX "api_clients_client_id_key" ON "api_clients"("client_id");

-- CreateIndex
CREATE INDEX "api_clients_distributor_id_idx" ON "api_clients"("distributor_id");

-- CreateIndex
CREATE INDEX "access_tokens_expires_at_idx" ON "access_tokens"("expires_at");

-- CreateIndex
CREATE INDEX "schemes_amc_code_name_idx" ON "schemes"("amc_code", "name");

-- CreateIndex
CREATE INDEX "schemes_name_scheme_code_idx" ON "schemes"("name", "scheme_code");

-- CreateIndex
CREATE INDEX "schemes_isin_growth_idx" ON "schemes"("isin_growth");

-- AddForeignKey
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_distributor_id_fkey" FOREIGN KEY ("distributor_id") REFERENCES "distributors"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_api_client_id_fkey" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_distributor_id_fkey" FOREIGN KEY ("distributor_id") REFERENCES "distributors"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
