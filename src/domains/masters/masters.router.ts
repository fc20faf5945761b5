import { z } from "zod";
import { notFound } from "../../platform/lib/errors.js";
import { NoInput } from "../../platform/lib/zod.js";
import type { TagDoc } from "../../platform/openapi/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { findCountry, listCountries, listStates } from "./geography.js";
import { publicCatalog } from "../../integrations/exchange/code-tables.js";
import { Countries, CountryCode, InvestorOptions, SchemeCodeInput, SchemePage, SchemeQuery, SchemeWithRules, States } from "./masters.schemas.js";
import { getScheme, listSchemes } from "./schemes.service.js";

const CATALOG = publicCatalog();

export const MASTERS_TAG: TagDoc = {
  name: "masters",
  description: "Reference data: countries and states, the investor form's vocabularies, the scheme master with NAVs and trading rules.",
};

export const mastersRouter = router({
  investorOptions: authedProcedure
    .meta({
      cache: "static",
      openapi: { method: "GET", path: "/api/masters/v1/investor-options" },
      docs: {
        tag: MASTERS_TAG,
        summary: "The investor form option catalog (14 vocabularies)",
        description: "Every closed vocabulary of the investor form (tax statuses, occupations, income slabs...) with the values the API takes and their labels.",
      },
    })
    .input(NoInput)
    .output(InvestorOptions)
    .query(() => CATALOG),

  countries: authedProcedure
    .meta({
      cache: "static",
      openapi: { method: "GET", path: "/api/masters/v1/countries" },
      docs: {
        tag: MASTERS_TAG,
        summary: "ISO 3166-1 countries",
        description: "Every ISO 3166-1 country with its alpha-2 code, the `country_code` values investor addresses and FATCA fields take.",
      },
    })
    .input(NoInput)
    .output(Countries)
    .query(() => ({ countries: listCountries() })),

  states: authedProcedure
    .meta({
      cache: "static",
      openapi: { method: "GET", path: "/api/masters/v1/countries/{code}/states" },
      docs: {
        tag: MASTERS_TAG,
        summary: "States of a country (India's 36 states and union territories; empty for other countries)",
        description:
          "The states of a country by ISO 3166-1 alpha-2 `code`: India's 36 states and union territories (the `state_code` of an " +
          "Indian address); empty for other countries.",
      },
    })
    .input(z.strictObject({ code: CountryCode }))
    .output(States)
    .query(({ input }) => {
      const country = findCountry(input.code);
      if (!country) throw notFound("Country");
      return { country: country.code, states: listStates(country.code) };
    }),

  schemes: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/masters/v1/schemes" },
      docs: {
        tag: MASTERS_TAG,
        summary: "Search the scheme master (with the latest NAV)",
        description:
          "Searches the scheme master (`q`: name or scheme code; `amc_code`), with each scheme's latest NAV, its trading rules' " +
          "summary and its exchange codes and SIP rules; page with `limit` and `cursor`.",
      },
    })
    .input(SchemeQuery)
    .output(SchemePage)
    .query(({ ctx, input }) => listSchemes(ctx.prisma, input)),

  scheme: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/masters/v1/schemes/{scheme_code}" },
      docs: {
        tag: MASTERS_TAG,
        summary: "One scheme with its exchange codes and SIP rules (what an order in it must meet)",
        description:
          "One scheme of the scheme master by AMFI `scheme_code`, with its `exchange_codes` (the exchange's codes for its ISINs " +
          "and each one's trading rules: what it takes, minimums, maximums, multiples, cut-offs, dates) and `sip_rules` (the " +
          "SIP master's frequencies, days, amounts and installments). An order takes the code for its holding mode and must " +
          "meet its rules. An unknown scheme code is NOT_FOUND.",
      },
    })
    .input(SchemeCodeInput)
    .output(SchemeWithRules)
    .query(async ({ ctx, input }) => {
      const scheme = await getScheme(ctx.prisma, input.scheme_code);
      if (!scheme) throw notFound("Scheme");
      return scheme;
    }),
});
