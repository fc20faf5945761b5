import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    // Each test file gets its own database cloned from a migrated template, so files run in parallel.
    pool: "forks",
    // A worker process keeps its imported modules from one test file to the next: each file still gets its
    // own database and app (test/helpers/app.ts), but not a fresh copy of every module, which halved the
    // suite's CPU time (user 183 s -> 91 s) and makes a file split by concern cheap.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: "silent", MF_ENV: "sandbox" },
  },
});
