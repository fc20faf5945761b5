-- Hand-written: the retention purge's picks (src/domains/webhooks/retention.repo.ts) as index range scans.
-- Partial indexes (Prisma's schema cannot state the WHERE), so each holds only the rows its pick can take.
-- IF NOT EXISTS: on a large table an operator may build them beforehand with CREATE INDEX CONCURRENTLY (same
-- statements), so deploying takes no write lock for the build.
-- DELIVERED deliveries, oldest delivery first.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_delivered_at_purge_idx" ON "webhook_deliveries"("delivered_at") WHERE "status" = 'DELIVERED';
-- PARKED and FAILED deliveries, by their last move (updated_at: parked, failed, or retried and ended so again).
CREATE INDEX IF NOT EXISTS "webhook_deliveries_settled_at_purge_idx" ON "webhook_deliveries"("updated_at") WHERE "status" IN ('PARKED', 'FAILED');
