import type { TagDoc } from "../../platform/openapi/docs.js";
import { PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { InvestorHoldingsInput, InvestorHoldingsResponse, LookupRequest, LookupResponse } from "./holdings.schemas.js";
import { investorHoldings, lookupHoldings } from "./holdings.service.js";
import { CapitalGainsInput, CapitalGainsResponse } from "./capital-gains.schemas.js";
import { capitalGains } from "./capital-gains.service.js";
import { InvestorTransactionPage, InvestorTransactionsInput, TransactionsLookupRequest, TransactionsLookupResponse } from "./transactions.schemas.js";
import { investorTransactions, lookupTransactions } from "./transactions.service.js";

const HISTORY =
  "From the registrars' transaction feeds (CAMS WBR2, KFintech MFSD201), imported with the daily holdings refresh. Only folios " +
  "the registrars report under your ARN as single-holder with this PAN as the holder. Newest first (trade date, then " +
  "registrar, AMC and transaction number); page with `limit` and `cursor`. `from` after `to` is a 400 on `from`.";

export const HOLDINGS_TAG: TagDoc = { name: "holdings", description: "Holdings reported under your ARN by the registrars (CAMS, KFintech)." };

export const holdingsRouter = router({
  lookup: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/holdings/v1/lookup" },
      docs: {
        tag: HOLDINGS_TAG,
        summary: "Holdings of a PAN reported under your ARN by CAMS and KFintech",
        description:
          "The PAN goes in the body only, never in the URL. Only single-holder folios whose first holder is this PAN " +
          "are included. An unknown PAN is 200 with empty holdings and a zero summary. Positions are refreshed daily " +
          "from the registrars' feeds; each carries its balance_date.",
        examples: { "application/json": { pan: "AAAPZ1111A" } },
      },
    })
    .input(LookupRequest)
    .output(LookupResponse)
    .mutation(({ ctx, input }) => lookupHoldings(ctx, ctx.caller, input.pan)),

  investor: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/investors/v1/{id}/holdings" },
      docs: {
        tag: HOLDINGS_TAG,
        summary: "Holdings of one of your investors, over the investor's primary PAN",
        description: "The holdings reported under your ARN for the investor's primary PAN, by registrar, with a summary. " + PATH_ID,
      },
    })
    .input(InvestorHoldingsInput)
    .output(InvestorHoldingsResponse)
    .query(({ ctx, input }) => investorHoldings(ctx, ctx.caller, input.id)),

  transactions: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/holdings/v1/transactions" },
      docs: {
        tag: HOLDINGS_TAG,
        summary: "Transactions of a PAN reported under your ARN by CAMS and KFintech",
        description:
          "The PAN goes in the body only, never in the URL, as in the holdings lookup; an unknown PAN is 200 with an empty list. " + HISTORY,
        examples: { "application/json": { pan: "AAAPZ1111A" } },
      },
    })
    .input(TransactionsLookupRequest)
    .output(TransactionsLookupResponse)
    .mutation(({ ctx, input }) => lookupTransactions(ctx, ctx.caller, input)),

  investorTransactions: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/investors/v1/{id}/transactions" },
      docs: {
        tag: HOLDINGS_TAG,
        summary: "Transactions of one of your investors, over the investor's primary PAN",
        description: "The transactions reported under your ARN for the investor's primary PAN, filtered by folio, scheme, type and trade date. " + HISTORY + " " + PATH_ID,
      },
    })
    .input(InvestorTransactionsInput)
    .output(InvestorTransactionPage)
    .query(({ ctx, input }) => investorTransactions(ctx, ctx.caller, input)),

  capitalGains: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/investors/v1/{id}/capital-gains" },
      docs: {
        tag: HOLDINGS_TAG,
        summary: "Capital gains of one of your investors in a financial year (JSON, CSV or PDF)",
        description:
          "Every sale (redemption, switch-out, STP-out, SWP) in the financial year in the investor's single-holder folios " +
          "reported under your ARN, with the purchase lots it consumed (FIFO): each lot's purchase date, units, cost, " +
          "grandfathered cost, sale value, holding days, tax class and term; totals by class and term; and a `basis` " +
          "saying what it is (a computation from registrar data, not tax advice). `Accept: text/csv` answers the same " +
          "as CSV (one row per consumed lot, a header row, rupees with 2 decimals); `Accept: application/pdf` as a PDF " +
          "statement. " + PATH_ID,
        alternativeContent: {
          "text/csv": { schema: { type: "string", description: "A header row, then one row per consumed lot, with the JSON lines' fields as columns (CRLF)." } },
          "application/pdf": { schema: { type: "string", format: "binary", description: "The statement as a PDF: the basis, the lines and the totals." } },
        },
      },
    })
    .input(CapitalGainsInput)
    .output(CapitalGainsResponse)
    .query(({ ctx, input }) => capitalGains(ctx, ctx.caller, input.id, input.financial_year)),
});
