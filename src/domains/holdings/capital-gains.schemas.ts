import { z } from "zod";
import { financialYear } from "../portfolio/capital-gains.js";
import { InvestorId } from "../investors/investors.schemas.js";
import { InvestorIdView } from "../shared/fields.schemas.js";
import { REGISTRARS } from "../../integrations/registrars/feeds/feed.js";

export const FinancialYear = z
  .string()
  .refine((text) => financialYear(text) !== null, { message: "must be a financial year as YYYY-YY, e.g. 2025-26 (1 April 2025 to 31 March 2026)", params: { reason: "invalid_value" } })
  .describe("The financial year, YYYY-YY: 2025-26 is 1 April 2025 to 31 March 2026.");

export const CapitalGainsInput = z.strictObject({ id: InvestorId, financial_year: FinancialYear });

const RUPEES = "Rupees, 2 decimals.";
const TaxClass = z.enum(["EQUITY_ORIENTED", "SPECIFIED", "OTHER"]);
const Term = z.enum(["SHORT", "LONG"]);

export const GainLineView = z.object({
  registrar: z.enum(REGISTRARS).describe("The registrar whose feed reported the sale."),
  folio_no: z.string().describe("The folio."),
  scheme_code: z.string().describe("Our scheme master's code when known, else the registrar's scheme code."),
  scheme_name: z.string().nullable().describe("The scheme's name as the registrar reported it."),
  sale_txn_no: z.string().describe("The registrar's transaction number of the sale."),
  sale_type: z.enum(["REDEMPTION", "SWITCH_OUT", "STP_OUT", "SWP"]).describe("The kind of sale (a switch-out or STP-out is a sale)."),
  sale_date: z.string().describe("The sale's date (YYYY-MM-DD)."),
  lot_source: z.enum(["LOT", "OPENING", "UNEXPLAINED"]).describe("LOT: a purchase we know; OPENING: units held before our history; UNEXPLAINED: more sold than the transactions explain."),
  lot_txn_no: z.string().nullable().describe("The registrar's transaction number of the purchase lot; null unless LOT."),
  purchase_date: z.string().nullable().describe("The lot's purchase date (YYYY-MM-DD); null unless LOT."),
  units: z.number().describe("Units of the lot this sale consumed (FIFO), 3 decimals."),
  sale_value: z.number().describe("The sale value of those units (the sale's amount shared by units). " + RUPEES),
  cost: z.number().nullable().describe("Their actual cost (amount invested plus stamp duty, by units); null unless LOT. " + RUPEES),
  grandfathered_cost: z.number().nullable().describe("The cost the gain is computed on: for equity-oriented units bought before 1 February 2018 the higher of cost and the lower of (31 January 2018 NAV x units) and sale value; else cost. " + RUPEES),
  grandfathering: z.enum(["NOT_APPLICABLE", "APPLIED", "NAV_UNKNOWN"]).nullable().describe("Whether grandfathering applied; NAV_UNKNOWN: it would apply but the 31 January 2018 NAV is not known (the cost is the actual cost)."),
  holding_days: z.number().int().nullable().describe("Days from the day after purchase to the sale date, inclusive."),
  tax_class: TaxClass.nullable().describe("EQUITY_ORIENTED, SPECIFIED (Section 50AA) or OTHER, by the scheme's AMFI category and the purchase date."),
  term: Term.nullable().describe("SHORT or LONG by the holding period rules in force on the sale date."),
  gain: z.number().nullable().describe("sale_value - grandfathered_cost (negative: a loss). " + RUPEES),
  note: z.string().nullable().describe("Why a figure is missing or was not adjusted; null when nothing needs saying."),
});

export const CapitalGainsResponse = z.object({
  investor_id: InvestorIdView,
  financial_year: z.string().describe("As asked, YYYY-YY."),
  from: z.string().describe("The year's first day (YYYY-MM-DD)."),
  to: z.string().describe("The year's last day (YYYY-MM-DD)."),
  basis: z.string().describe("What the statement is: a computation from registrar data for your folios, not tax advice."),
  lines: z.array(GainLineView).describe("One line per lot a sale consumed, by sale date."),
  totals: z
    .array(
      z.object({
        tax_class: TaxClass.describe("The tax class."),
        term: Term.describe("The term."),
        sale_value: z.number().describe(RUPEES),
        cost: z.number().describe("Grandfathered cost. " + RUPEES),
        gain: z.number().describe(RUPEES),
      }),
    )
    .describe("Totals by class and term, for the pairs that have lines; lines of unknown cost are left out."),
});

export type GainLineView = z.infer<typeof GainLineView>;
export type CapitalGainsView = z.infer<typeof CapitalGainsResponse>;
