-- Hand-written: the retention purge's picks (src/domains/webhooks/retention.repo.ts) as index range scans.
-- Partial indexes (Prisma's schema cannot state the WHERE), so each holds only the rows its pick can take.
-- DELIVERED deliveries, oldest delivery first.
CREATE INDEX "webhook_deliveries_delivered_at_purge_idx" ON "webhook_deliveries"("delivered_at") WHERE "status" = 'DELIVERED';
-- PARKED and FAILED deliveries, by their last move (updated_at: parked, failed, or retried and ended so again).
CREATE INDEX "webhook_deliveries_settled_at_purge_idx" ON "webhook_deliveries"("updated_at") WHERE "status" IN ('PARKED', 'FAILED');
