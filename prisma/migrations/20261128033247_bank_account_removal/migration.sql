-- AlterTable
ALTER TABLE "bank_accounts" ADD COLUMN     "removal_change_id" TEXT,
ADD COLUMN     "removed_at" TIMESTAMPTZ(3);
