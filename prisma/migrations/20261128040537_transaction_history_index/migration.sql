-- The history lists (src/domains/holdings/transactions.repo.ts): a PAN's transactions under a distributor, newest
-- first, read backwards as an index range scan. It also serves every look-up by PAN hash, so the hash index goes.
-- IF [NOT] EXISTS: on a large table an operator may build it beforehand with CREATE INDEX CONCURRENTLY (same
-- statement), so deploying takes no write lock for the build.
DROP INDEX IF EXISTS "holding_transactions_pan_hash_idx";

CREATE INDEX IF NOT EXISTS "holding_transactions_distributor_id_pan_hash_trade_date_reg_idx" ON "holding_transactions"("distributor_id", "pan_hash", "trade_date", "registrar", "amc_code", "txn_no");
