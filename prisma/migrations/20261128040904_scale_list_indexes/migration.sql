-- The slow statements the scale benchmark found (issue 28, point 5), each pinned by a plan test in
-- test/orders/scale-plans.test.ts or test/investors/list-plan.test.ts.
-- IF NOT EXISTS: on a large table an operator may build them beforehand with CREATE INDEX CONCURRENTLY (same
-- statements), so deploying takes no write lock for the build.

-- The lists without a filter (GET /api/investors/v1, GET /api/orders/v1): the distributor's rows, newest id first.
CREATE INDEX IF NOT EXISTS "investors_distributor_id_id_idx" ON "investors"("distributor_id", "id");
CREATE INDEX IF NOT EXISTS "orders_distributor_id_id_idx" ON "orders"("distributor_id", "id");

-- The order list with investor_id.
CREATE INDEX IF NOT EXISTS "orders_distributor_id_investor_id_id_idx" ON "orders"("distributor_id", "investor_id", "id");

-- Hand-written (Prisma's schema cannot state the WHERE): the status sync's pick (ordersAtExchange in
-- src/domains/orders/orders-list.repo.ts), in id order. It holds only the orders the sync asks the exchange
-- about: held (PENDING) ones with a number, and ACCEPTED ones other than the registrations (SIP, XSIP, STP, SWP
-- without a parent), which stay ACCEPTED for as long as they live and which the exchange's order status report
-- never holds. The predicate is the pick's WHERE word for word, so the planner can prove the pick implies it.
CREATE INDEX IF NOT EXISTS "orders_at_exchange_sync_idx" ON "orders"("id")
  WHERE "exchange_order_number" IS NOT NULL
    AND ("status" = 'PENDING' OR ("status" = 'ACCEPTED' AND ("parent_order_id" IS NOT NULL OR "order_type" NOT IN ('SIP', 'XSIP', 'STP', 'SWP'))));
