import { z } from "zod";
import { ClientRef, IsoDate, Rupees, TodayOrLater } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { ClientRefView, CreatedAt, InvestorIdView, PathId, ResourceId, state, stateFilter, UpdatedAt } from "../shared/fields.schemas.js";
import { MANDATE_STATUSES, MANDATE_TYPES } from "./mandate.states.js";

export const MANDATE_MAX_AMOUNT = 10_000_000;

const MANDATE_TYPE = "ENACH (registered electronically) or PHYSICAL (a signed form).";
const START_DATE = "The first date (YYYY-MM-DD, India): today or later in a request.";

export const CreateMandateRequest = z
  .strictObject({
    investor_id: z.string().min(1).max(64).describe("The investor's id (`inv_`...)."),
    bank_account_id: z.string().min(1).max(64).describe("One of the investor's bank accounts."),
    mandate_type: z.enum(MANDATE_TYPES).describe(MANDATE_TYPE),
    amount_limit: Rupees(MANDATE_MAX_AMOUNT).describe("Most that one debit may take, in rupees (at most 1 crore)."),
    start_date: TodayOrLater.describe(START_DATE),
    end_date: IsoDate.optional().describe("Omitted: until cancelled."),
    client_ref: ClientRef.optional(),
  })
  .superRefine((mandate, ctx) => {
    if (mandate.end_date && mandate.end_date <= mandate.start_date) {
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "must be after start_date", params: { reason: "invalid_date" } });
    }
    if (mandate.end_date && Number(mandate.end_date.slice(0, 4)) - Number(mandate.start_date.slice(0, 4)) > 40) {
      ctx.addIssue({ code: "custom", path: ["end_date"], message: "a mandate lasts at most 40 years", params: { reason: "too_big" } });
    }
  });

export type CreateMandateInput = z.infer<typeof CreateMandateRequest>;

export const MandateStatus = z.enum(MANDATE_STATUSES);

export const MandateView = z.object({
  id: ResourceId,
  investor_id: InvestorIdView,
  bank_account_id: z.string().describe("The id of one of the investor's bank accounts (GET /api/investors/v1/{id})."),
  bank_account_number: z.string().describe("Masked (last 4 digits)."),
  ifsc: z.string().describe("The bank branch's IFSC."),
  mandate_type: z.enum(MANDATE_TYPES).describe(MANDATE_TYPE),
  amount_limit: z.number().describe("The most one debit may take, in rupees."),
  start_date: z.string().describe(START_DATE),
  end_date: describeAfter(z.string().nullable(), "The last date (YYYY-MM-DD); null or omitted: until cancelled."),
  status: state(MandateStatus),
  exchange_mandate_id: z.string().nullable().describe("The exchange's mandate id, once it has one."),
  provider_remark: z.string().nullable().describe("The exchange's own remark (anything PAN-shaped masked)."),
  auth_url: z
    .string()
    .nullable()
    .describe(
      "ENACH: where the investor authorises the mandate with the bank (the exchange's e-NACH authentication URL; in the sandbox, the bank approval's simulation call), while PENDING and once the exchange has the mandate; null otherwise. A bearer link for the investor: hand it to them only.",
    ),
  client_ref: ClientRefView,
  created_at: CreatedAt,
  updated_at: UpdatedAt,
});

export const MandateId = z.strictObject({ id: PathId });

export const ListMandatesQuery = z.strictObject({
  investor_id: z.string().min(1).max(64).optional().describe("Only this investor's (another distributor's investor: an empty list)."),
  status: stateFilter(MandateStatus),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export type ListMandatesInput = z.infer<typeof ListMandatesQuery>;

export const MandatePage = z.object({ data: z.array(MandateView).describe("Your mandates on this page, newest first."), next_cursor: NextCursor });
