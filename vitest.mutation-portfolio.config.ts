import { defineConfig } from "vitest/config";

/**
 * Issue 27's computations, for Stryker (`npm run mutate:portfolio`): FIFO lots, lock-in, XIRR, tax class and
 * term, capital gains. Pure unit tests only, so no database is started.
 */
export default defineConfig({
  test: {
    include: ["test/portfolio/*.test.ts"],
    env: { LOG_LEVEL: "silent", MF_ENV: "sandbox" },
  },
});
