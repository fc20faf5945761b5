-- Hand-written, issue 28: a scheme's lock-in text kept with the scheme master's other columns derived from the
-- exchange's codes (exchange-schemes.repo.ts deriveSchemeRules, after every master import), where the PAN lookup
-- and the placement's lock-in check looked it up in exchange_schemes per position (a subquery with a sort): the
-- lookup's one statement cost PostgreSQL about an eighth more CPU for it (117 against 104 us a request under load;
-- docs/benchmarks.md, "Hot paths near the limit", fifth round).
ALTER TABLE "schemes" ADD COLUMN "lock_in" TEXT;
UPDATE "schemes" s
   SET "lock_in" = (SELECT e."lock_in" FROM "exchange_schemes" e
                     WHERE e."isin" IN (s."isin_growth", s."isin_reinvestment") AND e."lock_in" IS NOT NULL
                     ORDER BY e."active" DESC, e."code" LIMIT 1);
