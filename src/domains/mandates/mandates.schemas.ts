import { z } from "zod";
import { ClientRef, IsoDate, Rupees, TodayOrLater } from "../../platform/lib/formats.js";
import { MANDATE_STATUSES, MANDATE_TYPES } from "./mandate.states.js";

export const MANDATE_MAX_AMOUNT = 10_000_000;

export const CreateMandateRequest = z
  .strictObject({
    investor_id: z.string().min(1).max(64),
    bank_account_id: z.string().min(1).max(64).describe("One of the investor's bank accounts."),
    mandate_type: z.enum(MANDATE_TYPES),
    amount_limit: Rupees(MANDATE_MAX_AMOUNT).describe("Most that one debit may take, in rupees (at most 1 crore)."),
    start_date: TodayOrLater,
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
  id: z.string(),
  investor_id: z.string(),
  bank_account_id: z.string(),
  bank_account_number: z.string().describe("Masked (last 4 digits)."),
  ifsc: z.string(),
  mandate_type: z.enum(MANDATE_TYPES),
  amount_limit: z.number(),
  start_date: z.string(),
  end_date: z.string().nullable(),
  status: MandateStatus,
  exchange_mandate_id: z.string().nullable().describe("The exchange's mandate id, once it has one."),
  provider_remark: z.string().nullable().describe("The exchange's own remark (anything PAN-shaped masked)."),
  auth_url: z
    .string()
    .nullable()
    .describe(
      "ENACH: where the investor authorises the mandate with the bank (the exchange's e-NACH authentication URL; in the sandbox, the bank approval's simulation call), while PENDING and once the exchange has the mandate; null otherwise. A bearer link for the investor: hand it to them only.",
    ),
  client_ref: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const MandateId = z.strictObject({ id: z.string().min(1).max(64) });
