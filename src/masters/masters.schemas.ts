import { z } from "zod";
import { Cursor, Limit, NextCursor } from "../lib/zod.js";
import { AMFI_OPTIONS, AMFI_PLANS } from "./amfi/navall.js";

const Option = z.object({ value: z.string(), label: z.string() });

export const InvestorOptions = z
  .object({
    bank_account_types: z.array(Option),
    contact_relations: z.array(Option),
    demat_modes: z.array(Option),
    fatca_occupation_types: z.array(Option),
    genders: z.array(Option),
    guardian_relations: z.array(Option),
    holding_types: z.array(Option),
    income_slabs: z.array(Option),
    kyc_types: z.array(Option),
    nominee_relationships: z.array(Option),
    occupations: z.array(Option),
    pep_options: z.array(Option),
    tax_statuses: z.array(Option.extend({ group: z.enum(["RESIDENT", "NRI"]) })),
    wealth_sources: z.array(Option),
  })
  .describe("Every enumerated value POST /api/investors/v1 accepts.");

export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code")
  .describe("ISO 3166-1 alpha-2 country code, e.g. IN.");

export const Countries = z.object({ countries: z.array(z.object({ code: z.string(), name: z.string() })) });

export const States = z.object({
  country: z.string().describe("ISO 3166-1 alpha-2 code."),
  states: z.array(z.object({ code: z.string().describe("ISO 3166-2 subdivision code without the country prefix."), name: z.string() })),
});

export const SchemeQuery = z.strictObject({
  q: z.string().trim().min(1).max(100).optional().describe("Part of the scheme name, or an exact scheme code or ISIN."),
  amc_code: z.string().trim().min(1).max(64).optional().describe("Only this AMC's schemes."),
  limit: Limit(200, 50),
  cursor: Cursor,
});

const Amount = z.number().nullable();

export const Scheme = z.object({
  scheme_code: z.string().describe("AMFI scheme code."),
  isin: z.string().nullable().describe("ISIN of the growth / IDCW payout option."),
  isin_reinvestment: z.string().nullable().describe("ISIN of the IDCW reinvestment option."),
  scheme_name: z.string(),
  amc_code: z.string(),
  amc_name: z.string(),
  category: z.string().describe("AMFI category, e.g. 'Equity Scheme - Large Cap Fund'."),
  scheme_type: z.string().describe("Open Ended Schemes, Close Ended Schemes or Interval Fund Schemes."),
  plan: z.enum(AMFI_PLANS).nullable(),
  option: z.enum(AMFI_OPTIONS).nullable(),
  purchase_allowed: z.boolean(),
  redemption_allowed: z.boolean(),
  sip_allowed: z.boolean(),
  min_purchase_amount: Amount.describe("Minimum fresh purchase in rupees; null when unknown."),
  purchase_multiple: Amount,
  min_additional_amount: Amount,
  min_redemption_amount: Amount,
  min_sip_amount: Amount,
  sip_multiple: Amount,
  nav: z.number().nullable().describe("Latest NAV, 4 decimals."),
  nav_date: z.string().nullable().describe("Date of the latest NAV, YYYY-MM-DD."),
});

export const SchemePage = z.object({ data: z.array(Scheme), next_cursor: NextCursor });
