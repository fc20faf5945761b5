import { z } from "zod";
import { notFound } from "../../platform/lib/errors.js";
import { NoInput } from "../../platform/lib/zod.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { findCountry, listCountries, listStates } from "./geography.js";
import { publicCatalog } from "../../integrations/exchange/code-tables.js";
import { Countries, CountryCode, InvestorOptions, SchemeCodeInput, SchemePage, SchemeQuery, SchemeWithRules, States } from "./masters.schemas.js";
import { getScheme, listSchemes } from "./schemes.service.js";

const CATALOG = publicCatalog();

export const mastersRouter = router({
  investorOptions: authedProcedure
    .meta({
      cache: "static",
      openapi: {
        method: "GET",
        path: "/api/masters/v1/investor-options",
        tags: ["masters"],
        summary: "The investor form option catalog (14 vocabularies)",
      },
    })
    .input(NoInput)
    .output(InvestorOptions)
    .query(() => CATALOG),

  countries: authedProcedure
    .meta({ cache: "static", openapi: { method: "GET", path: "/api/masters/v1/countries", tags: ["masters"], summary: "ISO 3166-1 countries" } })
    .input(NoInput)
    .output(Countries)
    .query(() => ({ countries: listCountries() })),

  states: authedProcedure
    .meta({
      cache: "static",
      openapi: {
        method: "GET",
        path: "/api/masters/v1/countries/{code}/states",
        tags: ["masters"],
        summary: "States of a country (India's 36 states and union territories; empty for other countries)",
      },
    })
    .input(z.strictObject({ code: CountryCode }))
    .output(States)
    .query(({ input }) => {
      const country = findCountry(input.code);
      if (!country) throw notFound(`Country ${input.code.toUpperCase()}`);
      return { country: country.code, states: listStates(country.code) };
    }),

  schemes: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/masters/v1/schemes",
        tags: ["masters"],
        summary: "Search the scheme master (with the latest NAV)",
      },
    })
    .input(SchemeQuery)
    .output(SchemePage)
    .query(({ ctx, input }) => listSchemes(ctx.prisma, input)),

  scheme: authedProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/masters/v1/schemes/{scheme_code}",
        tags: ["masters"],
        summary: "One scheme with its exchange codes and SIP rules (what an order in it must meet)",
      },
    })
    .input(SchemeCodeInput)
    .output(SchemeWithRules)
    .query(async ({ ctx, input }) => {
      const scheme = await getScheme(ctx.prisma, input.scheme_code);
      if (!scheme) throw notFound(`Scheme ${input.scheme_code}`);
      return scheme;
    }),
});
