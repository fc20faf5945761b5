-- CreateTable
CREATE TABLE "holding_positions" (
    "distributor_id" TEXT NOT NULL,
    "registrar" TEXT NOT NULL,
    "amc_code" TEXT NOT NULL,
    "folio_no" TEXT NOT NULL,
    "registrar_scheme_code" TEXT NOT NULL,
    "scheme_code" TEXT,
    "amc_name" TEXT,
    "isin" TEXT,
    "scheme_name" TEXT NOT NULL,
    "units" DECIMAL(20,3) NOT NULL,
    "nav" DECIMAL(18,4),
    "nav_date" DATE,
    "market_value" DECIMAL(20,2),
    "balance_date" DATE NOT NULL,
    "holding_nature" TEXT NOT NULL,
    "pan_hash" TEXT,
    "pan_encrypted" TEXT,
    "feed_file_id" TEXT NOT NULL,

    -- Edited by hand (Prisma does not model deferrability): DEFERRABLE, so that a refresh can COPY a registrar's new
    -- positions straight into this table and delete the distributor's previous ones afterwards in the same
    -- transaction, the key being checked before COMMIT. INITIALLY IMMEDIATE for every other writer.
    CONSTRAINT "holding_positions_pkey" PRIMARY KEY ("distributor_id","registrar","amc_code","folio_no","registrar_scheme_code") DEFERRABLE INITIALLY IMMEDIATE
);

-- CreateTable
CREATE TABLE "holding_snapshots" (
    "distributor_id" TEXT NOT NULL,
    "registrar" TEXT NOT NULL,
    "balance_date" DATE NOT NULL,
    "feed_file_id" TEXT NOT NULL,
    "positions" INTEGER NOT NULL,

    CONSTRAINT "holding_snapshots_pkey" PRIMARY KEY ("distributor_id","registrar")
);

-- CreateTable
CREATE TABLE "holding_feed_files" (
    "id" TEXT NOT NULL,
    "registrar" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "companion_name" TEXT,
    "content_sha256" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "balance_date" DATE,
    "rows" INTEGER NOT NULL,
    "imported" INTEGER NOT NULL,
    "skipped_unknown_arn" INTEGER NOT NULL,
    "skipped_stale" INTEGER NOT NULL,
    "skipped_duplicate" INTEGER NOT NULL,
    "problem_count" INTEGER NOT NULL,
    "problems" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "holding_feed_files_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "holding_positions_pan_hash_idx" ON "holding_positions" USING HASH ("pan_hash");

-- CreateIndex
CREATE UNIQUE INDEX "holding_feed_files_registrar_content_sha256_key" ON "holding_feed_files"("registrar", "content_sha256");
