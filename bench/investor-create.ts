/**
 * POST /api/investors/v1 (a valid body with a fresh PAN per request) against a one-row insert through
 * the same stack, at 20 connections. Target: ratio of requests/s >= 0.3.   npm run bench:investors
 */
import { investorBody } from "../test/helpers/factories.js";
import { runPostBenchmark } from "./post-vs-insert.js";

await runPostBenchmark(
  {
    name: "investor creation",
    path: "/api/investors/v1",
    connections: 20,
    target: 0.3,
    pgPort: 54395,
    setup: async () => null,
    body: () => investorBody,
  },
  new URL(import.meta.url).pathname,
);
