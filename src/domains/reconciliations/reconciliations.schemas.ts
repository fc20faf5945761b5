import { z } from "zod";
import { IsoDate } from "../../platform/lib/formats.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { CreatedAt, ResourceId, Success } from "../shared/fields.schemas.js";
import { MISMATCH_KINDS, RUN_STATUSES } from "./reconciliation.states.js";

export const ReconciliationQuery = z.strictObject({
  date: IsoDate.describe("The India business day reconciled (YYYY-MM-DD)."),
});

const Kind = z
  .enum(MISMATCH_KINDS)
  .describe(
    "MISSING_HERE: the exchange has an order we do not (never in your answer); MISSING_AT_EXCHANGE: we hold it at the exchange, its report does not; " +
      "STATUS: the outcomes differ; AMOUNT, UNITS: the order's or its allotment's differ; ALLOTMENT_MISSED: the exchange allotted an order we held ACCEPTED.",
  );

const KindCounts = z
  .object(Object.fromEntries(MISMATCH_KINDS.map((k) => [k, z.number().int().describe(`Mismatches of kind ${k}.`)])) as Record<(typeof MISMATCH_KINDS)[number], z.ZodNumber>)
  .describe("Your mismatches of the date per kind (every kind, 0 when none).");

const MismatchView = z.object({
  id: ResourceId,
  kind: Kind,
  order_id: describeAfter(z.string().nullable(), "Your order's id."),
  exchange_order_number: describeAfter(z.string().nullable(), "The exchange's order number, when either side has one."),
  ours: describeAfter(z.string().nullable(), "What our records say: a status, an amount (2 places) or units (3 places), as exact text; null when we have nothing."),
  theirs: describeAfter(z.string().nullable(), "What the exchange's reports say, in the same form; null when they have nothing."),
  fixed: z.boolean().describe("True when the service applied the exchange's word (an allotment it had missed: the order is now ALLOTTED)."),
  created_at: CreatedAt,
});

export const ReconciliationView = z.object({
  success: Success,
  data: z
    .object({
      date: z.string().describe("The India business day reconciled (YYYY-MM-DD)."),
      status: z
        .enum([...RUN_STATUSES, "NOT_RUN"])
        .describe("The date's run: RUNNING, COMPLETED, FAILED (reading the exchange failed; it is retried), or NOT_RUN (no run for the date yet)."),
      started_at: describeAfter(z.string().nullable(), "When the date's latest run started (ISO 8601, UTC); null when NOT_RUN."),
      finished_at: describeAfter(z.string().nullable(), "When it finished (ISO 8601, UTC); null while RUNNING or NOT_RUN."),
      counts: z
        .object({
          total: z.number().int().describe("Your mismatches of the date."),
          fixed: z.number().int().describe("Of them, those the service fixed."),
          by_kind: KindCounts,
        })
        .describe("Your mismatches' counts."),
      mismatches: z.array(MismatchView).describe("Your mismatches of the date, oldest first."),
    })
    .describe("The date's reconciliation as it concerns your orders."),
});
