-- Hand-written (Prisma's schema cannot state the WHERE), issue 28: the PENDING orders not yet sent (no exchange
-- number), in id order. The lost-dispatch sweep (ordersWithoutDispatchJob) and the dispatch recovery
-- (undispatchedOrders) read them a batch at a time in id order; over (status, exchange_order_number) they read
-- every unsent order and sorted them for each batch. Only the open orders are in it, whatever the table's size.
-- IF NOT EXISTS: an operator may build it beforehand with CREATE INDEX CONCURRENTLY (same statement).
CREATE INDEX IF NOT EXISTS "orders_unsent_idx" ON "orders"("id")
  WHERE "status" = 'PENDING' AND "exchange_order_number" IS NULL;
