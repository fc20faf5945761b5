-- Hand-written, issue 28: the webhook claim's per-distributor pick of due deliveries (claimDueDeliveries) from a
-- partial index of the PENDING ones only. At 20M deliveries, after ANALYZE estimated PENDING at one row, the planner
-- took (status, next_attempt_at) and filtered each distributor's rows out of every due one (3,200 rows thrown away
-- and 4,224 buffers for 400 candidates, bench:scale); this index holds only the open deliveries, in the pick's
-- order per distributor, whatever the table's size. It replaces (distributor_id, status, next_attempt_at), which
-- only the claim read. IF NOT EXISTS: an operator may build it beforehand with CREATE INDEX CONCURRENTLY.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_pending_due_idx" ON "webhook_deliveries"("distributor_id", "next_attempt_at")
  WHERE "status" = 'PENDING';
DROP INDEX IF EXISTS "webhook_deliveries_distributor_id_status_next_attempt_at_idx";
