-- AlterTable
ALTER TABLE "mandates" ADD COLUMN     "auth_url" TEXT;

-- CreateTable
CREATE TABLE "bse_mandate_registrations" (
    "mandate_id" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,
    "answered_at" TIMESTAMPTZ(3),
    "exchange_mandate_id" TEXT,

    CONSTRAINT "bse_mandate_registrations_pkey" PRIMARY KEY ("mandate_id")
);
