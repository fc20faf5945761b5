import { authedProcedure, router } from "../shared/procedures.js";
import { InvestorHoldingsInput, InvestorHoldingsResponse, LookupRequest, LookupResponse } from "./holdings.schemas.js";
import { investorHoldings, lookupHoldings } from "./holdings.service.js";

export const holdingsRouter = router({
  lookup: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/holdings/v1/lookup",
        tags: ["holdings"],
        summary: "Holdings of a PAN reported under your ARN by CAMS and KFintech",
        description:
          "The PAN goes in the body only, never in the URL. Only single-holder folios whose first holder is this PAN " +
          "are included. An unknown PAN is 200 with empty holdings and a zero summary. Positions are refreshed daily " +
          "from the registrars' feeds; each carries its balance_date.",
      },
    })
    .input(LookupRequest)
    .output(LookupResponse)
    .mutation(({ ctx, input }) => lookupHoldings(ctx, ctx.caller, input.pan)),

  investor: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/investors/v1/{id}/holdings",
        tags: ["holdings"],
        summary: "Holdings of one of your investors, over the investor's primary PAN",
      },
    })
    .input(InvestorHoldingsInput)
    .output(InvestorHoldingsResponse)
    .query(({ ctx, input }) => investorHoldings(ctx, ctx.caller, input.id)),
});
