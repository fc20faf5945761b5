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
