import { defineConfig } from "vitest/config";

/**
 * The unit tests Stryker runs against its mutants (`npm run mutate:mask`): pure functions only, so no
 * database is started (the main config's global setup is left out).
 */
export default defineConfig({
  test: {
    include: ["test/mask.test.ts", "test/webhooks/public-address.test.ts", "test/lib/access-line.test.ts", "test/holdings/summary-sums.test.ts", "test/orders/nav-date.test.ts"],
    env: { LOG_LEVEL: "silent", MF_ENV: "sandbox" },
  },
});
