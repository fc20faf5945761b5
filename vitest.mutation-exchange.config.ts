import { defineConfig } from "vitest/config";

/**
 * The exchange masters' parsers and the placement rules on exchange codes, for Stryker
 * (`npm run mutate:exchange-rules`): pure unit tests only, so no database is started.
 */
export default defineConfig({
  test: {
    include: ["test/masters/master-files.test.ts", "test/orders/exchange-rules-unit.test.ts"],
    env: { LOG_LEVEL: "silent", MF_ENV: "sandbox" },
  },
});
