-- Hand-written, issue 28: the deliveries table's indexes on states that only a few rows are in become partial, so
-- at 20M deliveries they hold the few rows their readers want, and the planner cannot take a whole-table index
-- for one of them. (status, next_attempt_at) was read for the PENDING ones (now webhook_deliveries_pending_due_idx,
-- migration 20261128100000) and for the gauges' count of PARKED ones (now webhook_deliveries_parked_idx); with
-- PENDING estimated at one row at that scale, the planner preferred it to the pending index for the claim and
-- filtered every due delivery by distributor. lease_until was indexed whole, almost every entry a NULL; only
-- leased rows matter to the claim's count of those held.
-- IF NOT EXISTS: an operator may build them beforehand with CREATE INDEX CONCURRENTLY (same statements).
CREATE INDEX IF NOT EXISTS "webhook_deliveries_parked_idx" ON "webhook_deliveries"("id") WHERE "status" = 'PARKED';
CREATE INDEX IF NOT EXISTS "webhook_deliveries_leased_idx" ON "webhook_deliveries"("lease_until") WHERE "lease_until" IS NOT NULL;
DROP INDEX IF EXISTS "webhook_deliveries_status_next_attempt_at_idx";
DROP INDEX IF EXISTS "webhook_deliveries_lease_until_idx";
