import { defineConfig } from "vitest/config";

/**
 * Issue 25's rules, for Stryker (`npm run mutate:operations`): the reconciliation's comparison, webhook signing
 * with one or two secrets, the request budget's buckets and eviction, and the path parameters' decoding. Pure
 * unit tests only, so no database is started.
 */
export default defineConfig({
  test: {
    include: [
      "test/reconciliations/rules.test.ts",
      "test/webhooks/signature.test.ts",
      "test/lib/request-budget.test.ts",
      "test/http/path-params-unit.test.ts",
    ],
    env: { LOG_LEVEL: "silent", MF_ENV: "sandbox" },
  },
});
