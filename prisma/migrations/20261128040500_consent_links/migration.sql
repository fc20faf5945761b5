-- AlterTable
ALTER TABLE "investors" ADD COLUMN     "nomination_consent_id" TEXT,
ADD COLUMN     "nomination_opted_out_at" TIMESTAMPTZ(3),
ADD COLUMN     "nomination_status" TEXT;
-- Hand-edited: the investors created before this column have NULL ("not yet derived": their nominees are in the
-- encrypted details, which SQL cannot read); the worker's investors__derive_nomination sets NOMINATED or NONE.
ALTER TABLE "investors" ALTER COLUMN "nomination_status" SET DEFAULT 'NONE';
CREATE INDEX "investors_nomination_underived_idx" ON "investors" ("id") WHERE "nomination_status" IS NULL;

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
-- NULL passes the CHECK: an investor created before this migration until investors__derive_nomination has read its
-- details (src/domains/investors/nomination-backfill.ts; placement does not refuse meanwhile).
