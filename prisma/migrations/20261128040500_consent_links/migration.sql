-- AlterTable
ALTER TABLE "investors" ADD COLUMN     "nomination_consent_id" TEXT,
ADD COLUMN     "nomination_opted_out_at" TIMESTAMPTZ(3),
ADD COLUMN     "nomination_status" TEXT NOT NULL DEFAULT 'NONE';

-- CreateTable
CREATE TABLE "consent_links" (
    "id" TEXT NOT NULL,
    "distributor_id" TEXT NOT NULL,
    "investor_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "confirmed_at" TIMESTAMPTZ(3),
    "confirm_ip" TEXT,
    "confirm_user_agent" TEXT,
    "declaration_version" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consent_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "consent_links_distributor_id_investor_id_id_idx" ON "consent_links"("distributor_id", "investor_id", "id");

-- AddForeignKey
ALTER TABLE "investors" ADD CONSTRAINT "investors_nomination_consent_id_fkey" FOREIGN KEY ("nomination_consent_id") REFERENCES "consent_links"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consent_links" ADD CONSTRAINT "consent_links_investor_id_fkey" FOREIGN KEY ("investor_id") REFERENCES "investors"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-appended. investors/consent.states.ts CONSENT_LINK_STATUSES and NOMINATION_STATUSES.
ALTER TABLE "consent_links" ADD CONSTRAINT "consent_links_status_check"
  CHECK ("status" IN ('PENDING', 'CONFIRMED', 'EXPIRED'));
ALTER TABLE "investors" ADD CONSTRAINT "investors_nomination_status_check"
  CHECK ("nomination_status" IN ('NOMINATED', 'OPTED_OUT', 'NONE'));
-- Nominees live in the encrypted details, which SQL cannot read: investors created before this migration start
-- at NONE; `npm run mf -- investors:backfill-nomination` (src/domains/investors/nomination-backfill.ts) marks those
-- with nominees NOMINATED: run it once after this migration.
