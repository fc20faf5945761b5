/**
 * Benchmarks drive one API client far past the per-client request budget (100/s by default); they
 * measure the budget's cost, not its limit, so it is set out of reach.
 */
export const UNLIMITED_BUDGET = { MF_RATE_LIMIT_RPS: "1000000", MF_RATE_LIMIT_BURST: "1000000" };
