-- Hand-written, issue 28: the status sync's pick (ordersAtExchange) reads every column it answers from its partial
-- index, so a batch of 500 is an index-only scan of a few pages rather than 500 heap pages (at 10M orders the open
-- ones are spread over the table: 1.35x the time of the almost empty database's pick, bench:scale). The
-- predicate is the same as orders_at_exchange_sync_idx's (migration 20261128040904_scale_list_indexes), which it
-- replaces. IF NOT EXISTS: an operator may build it beforehand with CREATE INDEX CONCURRENTLY (same statement).
CREATE INDEX IF NOT EXISTS "orders_at_exchange_sync_covering_idx" ON "orders"("id")
  INCLUDE ("status", "exchange_order_number", "order_type", "parent_order_id")
  WHERE "exchange_order_number" IS NOT NULL
    AND ("status" = 'PENDING' OR ("status" = 'ACCEPTED' AND ("parent_order_id" IS NOT NULL OR "order_type" NOT IN ('SIP', 'XSIP', 'STP', 'SWP'))));
DROP INDEX IF EXISTS "orders_at_exchange_sync_idx";
