-- The installment scheduler's pick (issue 28, point 5: bench:scale at 10M orders): due SCHEDULED installments in
-- (due_date, order_id, installment_no) order, a batch at a time. On (status, due_date) every batch read and sorted
-- all of a day's due installments (2,924 rows and 15,853 buffers for 200; a 1st-of-month peak re-reads the whole day
-- for every batch); in the statement's own order the scan stops at the batch. Pinned by test/orders/scale-plans.test.ts.
-- IF NOT EXISTS: on a large table an operator may build it beforehand with CREATE INDEX CONCURRENTLY (same
-- statement), so deploying takes no write lock for the build; the old index goes after.
CREATE INDEX IF NOT EXISTS "order_installments_status_due_date_order_id_installment_no_idx" ON "order_installments"("status", "due_date", "order_id", "installment_no");

DROP INDEX IF EXISTS "order_installments_status_due_date_idx";
