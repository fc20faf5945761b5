import { z } from "zod";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { AMFI_OPTIONS, AMFI_PLANS } from "../../integrations/amfi/navall.js";
import { EXCHANGE_TRANSACTION_MODES } from "../../integrations/exchange/masters/scheme-master.js";

const Option = z.object({ value: z.string().describe("The value the API takes."), label: z.string().describe("The value in words, for a form.") });
const options = (description: string) => z.array(Option).describe(description);

export const InvestorOptions = z
  .object({
    bank_account_types: options("Bank account types."),
    contact_relations: options("Whose email or mobile it is."),
    demat_modes: options("Holding modes of a demat account."),
    fatca_occupation_types: options("FATCA occupation types."),
    genders: options("Genders."),
    guardian_relations: options("A guardian's relationship to the minor."),
    holding_types: options("Holding types."),
    income_slabs: options("Income slabs."),
    kyc_types: options("KYC types."),
    nominee_relationships: options("A nominee's relationship to the investor."),
    occupations: options("Occupations."),
    pep_options: options("Politically exposed person declarations."),
    tax_statuses: z
      .array(Option.extend({ group: z.enum(["RESIDENT", "NRI"]).describe("RESIDENT or NRI.") }))
      .describe("Tax statuses, grouped RESIDENT and NRI."),
    wealth_sources: options("Sources of wealth."),
  })
  .describe("Every enumerated value POST /api/investors/v1 accepts.");

export const CountryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "must be an ISO 3166-1 alpha-2 code")
  .describe("ISO 3166-1 alpha-2 country code, e.g. IN.");

export const Countries = z.object({
  countries: z
    .array(
      z.object({
        code: z.string().describe("ISO 3166-1 alpha-2 code: the `country_code` investor fields take."),
        name: z.string().describe("The country's name."),
      }),
    )
    .describe("The countries."),
});

export const States = z.object({
  country: z.string().describe("ISO 3166-1 alpha-2 code."),
  states: z
    .array(
      z.object({
        code: z.string().describe("ISO 3166-2 subdivision code without the country prefix."),
        name: z.string().describe("The state's or union territory's name."),
      }),
    )
    .describe("The states and union territories."),
});

const AMC_CODE = "The fund house's code in the scheme master.";

export const SchemeQuery = z.strictObject({
  q: z.string().trim().min(1).max(100).optional().describe("Part of the scheme name, or an exact scheme code or ISIN."),
  amc_code: z.string().trim().min(1).max(64).optional().describe(AMC_CODE),
  limit: Limit(200, 50),
  cursor: Cursor,
});

const Amount = z.number().nullable();

export const Scheme = z.object({
  scheme_code: z.string().describe("AMFI scheme code."),
  isin: z.string().nullable().describe("ISIN of the growth / IDCW payout option."),
  isin_reinvestment: z.string().nullable().describe("ISIN of the IDCW reinvestment option."),
  scheme_name: z.string().describe("The scheme's name."),
  amc_code: z.string().describe(AMC_CODE),
  amc_name: z.string().describe("The fund house's name."),
  category: z.string().describe("AMFI category, e.g. 'Equity Scheme - Large Cap Fund'."),
  scheme_type: z.string().describe("Open Ended Schemes, Close Ended Schemes or Interval Fund Schemes."),
  plan: z.enum(AMFI_PLANS).nullable().describe("The scheme's plan: DIRECT or REGULAR; null when the master does not say."),
  option: z
    .enum(AMFI_OPTIONS)
    .nullable()
    .describe("The scheme's option: GROWTH, IDCW (payout or reinvestment) or BONUS; null when the master does not say."),
  purchase_allowed: z.boolean().describe("Whether the scheme takes purchases."),
  redemption_allowed: z.boolean().describe("Whether the scheme takes redemptions."),
  sip_allowed: z.boolean().describe("Whether the scheme takes SIPs."),
  min_purchase_amount: Amount.describe("Minimum fresh purchase in rupees; null when unknown."),
  purchase_multiple: describeAfter(Amount, "Purchase amounts must be multiples of this (rupees); null: any."),
  min_additional_amount: describeAfter(Amount, "The smallest ADDITIONAL purchase (rupees); null: no minimum."),
  min_redemption_amount: describeAfter(Amount, "The smallest redemption (rupees); null: no minimum."),
  min_sip_amount: describeAfter(Amount, "The smallest SIP installment (rupees); null: no minimum."),
  sip_multiple: describeAfter(Amount, "SIP installments must be multiples of this (rupees); null: any."),
  nav: z.number().nullable().describe("Latest NAV, 4 decimals."),
  nav_date: z.string().nullable().describe("Date of the latest NAV, YYYY-MM-DD."),
});

const Time = z.string().nullable().describe("HH:MM, India time; null when the master gives none.");
const Day = z.string().nullable().describe("YYYY-MM-DD; null when the master gives none.");

export const ExchangeCode = z
  .object({
    code: z.string().describe("The exchange's scheme code: what an order names at the exchange (`exchange_scheme_code` on the order)."),
    transaction_mode: z.enum(EXCHANGE_TRANSACTION_MODES).describe("The holding modes the code serves: PHYSICAL (folios), DEMAT (CDSL, NSDL) or BOTH."),
    purchase_allowed: z.boolean().describe("Lump sums and SIP top-ups (and switches or STPs into it) are taken (false too while its AMC takes no orders)."),
    redemption_allowed: z.boolean().describe("Redemptions are taken."),
    sip_allowed: z.boolean().describe("SIP and XSIP registrations are taken."),
    stp_allowed: z.boolean().describe("STP registrations out of it (and into it) are taken."),
    swp_allowed: z.boolean().describe("SWP registrations are taken."),
    switch_allowed: z.boolean().describe("Switches out of it (and into it) are taken."),
    min_purchase_amount: Amount.describe("Fresh purchase minimum, rupees."),
    min_additional_amount: Amount.describe("Additional purchase (and SIP top-up) minimum, rupees."),
    max_purchase_amount: Amount.describe("Purchase maximum, rupees; null: none."),
    purchase_multiple: Amount.describe("Purchase amounts are multiples of this, rupees; null: any."),
    min_redemption_amount: Amount.describe("Redemption minimum by amount, rupees."),
    max_redemption_amount: Amount.describe("Redemption maximum by amount, rupees; null: none."),
    redemption_amount_multiple: Amount.describe("Redemption amounts are multiples of this, rupees; null: any."),
    min_redemption_units: Amount.describe("Redemption minimum by units."),
    max_redemption_units: Amount.describe("Redemption maximum by units; null: none."),
    redemption_units_multiple: Amount.describe("Redeemed units are multiples of this; null: any."),
    purchase_cut_off: Time,
    redemption_cut_off: Time,
    settlement_type: z.string().nullable().describe("The exchange's settlement type, e.g. T1, T2."),
    exit_load: z.string().nullable().describe("As the exchange's master words it."),
    lock_in: z.string().nullable().describe("As the exchange's master words it, e.g. `3 Years`."),
    start_date: Day,
    end_date: Day,
    active: z.boolean().describe("Listed in the latest scheme master (a code it no longer lists is kept, inactive)."),
  })
  .describe("One of the exchange's codes for the scheme, with its trading rules (the exchange's scheme master).");

export const SipRule = z
  .object({
    code: z.string().describe("The exchange code the rule is for."),
    frequency: z.string().describe("MONTHLY, QUARTERLY, WEEKLY (orders take these), or another the exchange lists."),
    dates: z.array(z.number().int()).describe("The days an installment may fall on (`sip.installment_day`)."),
    min_amount: Amount.describe("Installment minimum, rupees."),
    max_amount: Amount.describe("Installment maximum, rupees; null: none."),
    multiple: Amount.describe("Installment amounts are multiples of this, rupees; null: any."),
    min_installments: z.number().int().nullable().describe("Fewest installments a registration may have."),
    max_installments: z.number().int().nullable().describe("Most installments a registration may have; null: no limit."),
    pause_allowed: z.boolean().describe("The exchange lets a registration of this code and frequency be paused."),
  })
  .describe("The exchange's SIP master for one code and frequency (active rows only).");

export const SchemeWithRules = Scheme.extend({
  exchange_codes: z.array(ExchangeCode).describe("The exchange's codes for the scheme's ISINs; an order takes the one for its holding mode."),
  sip_rules: z.array(SipRule).describe("The SIP master's active rows for the scheme's codes: a SIP or XSIP must use one of their frequencies, days and limits."),
});

export const SchemeCodeInput = z.strictObject({ scheme_code: z.string().trim().min(1).max(20).describe("AMFI scheme code.") });

export const SchemePage = z.object({ data: z.array(SchemeWithRules).describe("The schemes on this page."), next_cursor: NextCursor });
