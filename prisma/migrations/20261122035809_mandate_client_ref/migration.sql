-- AlterTable
ALTER TABLE "mandates" ADD COLUMN     "client_ref" TEXT;
