import { z } from "zod";
import { Pan } from "../../platform/lib/formats.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { InvestorId } from "../investors/investors.schemas.js";
import { InvestorIdView } from "../shared/fields.schemas.js";
import { REGISTRARS } from "../../integrations/registrars/feeds/feed.js";

export const LookupRequest = z.strictObject({ pan: Pan });

export const InvestorHoldingsInput = z.strictObject({ id: InvestorId });

const Registrar = z.enum(REGISTRARS);

export const Position = z.object({
  registrar: Registrar.describe("The registrar that reported the position."),
  amc_code: z.string().describe("The AMC code as the registrar reports it."),
  amc_name: z.string().nullable().describe("From the feed, else from the scheme master; null when neither knows."),
  folio_no: z.string().describe("Unique only within an AMC; may contain '/'."),
  scheme_code: z.string().describe("Our scheme master's code when the ISIN maps to one (usable in orders), else the registrar's scheme code."),
  isin: describeAfter(z.string().nullable(), "The scheme's ISIN."),
  scheme_name: z.string().describe("The scheme's name."),
  units: z.number().describe("Units held, 3 decimals."),
  nav: z.number().nullable().describe("NAV, 4 decimals."),
  nav_date: z.string().nullable().describe("Date of the NAV (YYYY-MM-DD)."),
  market_value: z.number().nullable().describe("Rupees, 2 decimals."),
  balance_date: z.string().describe("The date the registrar reported this balance for (YYYY-MM-DD)."),
  cost_value: z.number().nullable().describe("Cost of the units the transactions explain (FIFO lots: amount plus stamp duty), rupees, 2 decimals; null when they explain none."),
  average_nav: z.number().nullable().describe("cost_value / those units, 4 decimals; null when none."),
  unrealised_gain: z.number().nullable().describe("Their value at `nav` minus cost_value, rupees, 2 decimals; null when the NAV or the lots are unknown."),
  xirr: z.number().nullable().describe("Annualised return of the position's dated cash flows and its value on nav_date, as a fraction (0.1234 = 12.34% a year), 6 decimals; null when not meaningful (no investment and receipt, under 7 days, no solution)."),
  locked_units: z.number().describe("Units still in a lock-in (ELSS: 3 years per lot; others: the exchange master's lock-in period), 3 decimals."),
  free_units: z.number().describe("Units free of any lock-in, 3 decimals."),
  undetermined_units: z.number().describe("Units held before our transaction history whose lock-in cannot be told (their date is unknown), 3 decimals."),
  next_unlock_date: z.string().nullable().describe("The date the next locked lot becomes redeemable (YYYY-MM-DD), or null."),
  lots_complete: z.boolean().describe("false when the transactions do not explain the registrar's balance (units held before our history): cost, gain and XIRR then cover only the lots they explain."),
  lots_note: z.string().nullable().describe("Why lots_complete is false; null when it is true."),
});

const POSITIONS = "The positions.";

const RegistrarSummary = z.object({
  positions: z.number().int().describe(POSITIONS),
  market_value: z.number().describe("Rupees, 2 decimals."),
  as_of: z.string().nullable().describe("Latest balance date of this registrar's positions, or null."),
});

export const Summary = z.object({
  total_market_value: z.number().describe("Sum of the positions' market values, rupees, 2 decimals."),
  positions: z.number().int().describe(POSITIONS),
  folios: z.number().int().describe("Distinct (registrar, AMC, folio)."),
  schemes: z.number().int().describe("Distinct scheme codes."),
  as_of: z.string().nullable().describe("Latest balance date among the positions, or null when there are none."),
  by_registrar: z
    .object({
      CAMS: RegistrarSummary.describe("Totals of the positions CAMS reported."),
      KFINTECH: RegistrarSummary.describe("Totals of the positions KFintech reported."),
    })
    .describe("Totals per registrar."),
  cost_value: z.number().describe("Sum of cost_value over the positions whose cost and value are known, rupees, 2 decimals."),
  current_value: z.number().describe("The value of those positions' explained units at their NAVs, rupees, 2 decimals."),
  unrealised_gain: z.number().describe("current_value - cost_value, rupees, 2 decimals."),
  xirr: z.number().nullable().describe("The portfolio XIRR over those positions' cash flows together, 6 decimals; null when not meaningful."),
  lots_complete: z.boolean().describe("false when any position's lots are incomplete."),
});

const Holdings = z.array(Position).describe("The positions, one per folio and scheme.");
const Totals = Summary.describe("Totals over the positions.");

export const LookupResponse = z.object({
  pan: z.string().describe("The PAN, masked (ABXXXXX34F)."),
  holdings: Holdings,
  summary: Totals,
});

export const InvestorHoldingsResponse = z.object({
  investor_id: InvestorIdView,
  holdings: Holdings,
  summary: Totals,
});

export type PositionView = z.infer<typeof Position>;
export type SummaryView = z.infer<typeof Summary>;
