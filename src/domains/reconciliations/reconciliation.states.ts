/**
 * reconciliation_mismatches.kind (the database checks the same list):
 * - MISSING_HERE: the exchange has an order of the day we do not have.
 * - MISSING_AT_EXCHANGE: we hold the order at the exchange (ACCEPTED, ALLOTTED, or held with its number); its report does not.
 * - STATUS: both have it and disagree on its outcome (we ACCEPTED, it rejected; we REJECTED or FAILED, it VALID; ...).
 * - AMOUNT, UNITS: the order's (or its allotment's) amount or units differ.
 * - ALLOTMENT_MISSED: its allotment statement allots an order we still hold ACCEPTED (the fix: applied as the status sync would).
 */
export const MISMATCH_KINDS = ["MISSING_HERE", "MISSING_AT_EXCHANGE", "STATUS", "AMOUNT", "UNITS", "ALLOTMENT_MISSED"] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

/** reconciliation_runs.status (the database checks the same list). */
export const RUN_STATUSES = ["RUNNING", "COMPLETED", "FAILED"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
