-- AlterTable
ALTER TABLE "holding_feed_files" ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'POSITIONS';

-- CreateTable
CREATE TABLE "holding_transactions" (
    "registrar" TEXT NOT NULL,
    "amc_code" TEXT NOT NULL,
    "txn_no" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "folio_no" TEXT NOT NULL,
    "registrar_scheme_code" TEXT NOT NULL,
    "scheme_code" TEXT,
    "scheme_name" TEXT,
    "isin" TEXT,
    "type" TEXT NOT NULL,
    "registrar_type_code" TEXT NOT NULL,
    "registrar_type_description" TEXT,
    "reverses_txn_no" TEXT,
    "reversed_by_txn_no" TEXT,
    "trade_date" DATE NOT NULL,
    "post_date" DATE,
    "amount_paise" BIGINT,
    "units" DECIMAL(18,3),
    "nav" DECIMAL(14,4),
    "stamp_duty_paise" BIGINT,
    "stt_paise" BIGINT,
    "tds_paise" BIGINT,
    "pan_hash" TEXT,
    "feed_file_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "holding_transactions_pkey" PRIMARY KEY ("registrar","amc_code","txn_no")
);

-- CreateIndex
CREATE INDEX "holding_transactions_distributor_id_folio_no_scheme_code_tr_idx" ON "holding_transactions"("distributor_id", "folio_no", "scheme_code", "trade_date");

-- CreateIndex
CREATE INDEX "holding_transactions_pan_hash_idx" ON "holding_transactions" USING HASH ("pan_hash");

-- CreateIndex
CREATE INDEX "holding_transactions_reverses_txn_no_idx" ON "holding_transactions"("reverses_txn_no");

-- Closed sets, checked by the database (written by hand, as in 20261124014321_closed_set_checks; the lists equal
-- TRANSACTION_TYPES, REGISTRARS and FEED_FILE_KINDS, kept equal by test/db/status-checks.test.ts).
ALTER TABLE "holding_transactions" ADD CONSTRAINT "holding_transactions_type_check" CHECK ("type" IN ('PURCHASE', 'SIP', 'SWITCH_IN', 'STP_IN', 'REDEMPTION', 'SWITCH_OUT', 'STP_OUT', 'SWP', 'DIVIDEND_PAYOUT', 'DIVIDEND_REINVESTMENT', 'BONUS', 'TRANSFER_IN', 'TRANSFER_OUT', 'REVERSAL', 'OTHER'));
ALTER TABLE "holding_transactions" ADD CONSTRAINT "holding_transactions_registrar_check" CHECK ("registrar" IN ('CAMS', 'KFINTECH'));
ALTER TABLE "holding_feed_files" ADD CONSTRAINT "holding_feed_files_kind_check" CHECK ("kind" IN ('POSITIONS', 'TRANSACTIONS'));
