import { defineConfig } from "vitest/config";

/** The BSE request builders' unit tests, for Stryker (`npm run mutate:bse-params`): pure, no database. */
export default defineConfig({
  test: {
    include: ["test/exchange/bse/params-*.test.ts"],
    env: { LOG_LEVEL: "silent", MF_ENV: "sandbox" },
  },
});
