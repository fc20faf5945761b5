import { authedProcedure, router } from "../shared/procedures.js";
import {
  CreateInvestorRequest,
  InvestorId,
  InvestorPage,
  InvestorView,
  ListInvestorsQuery,
  SyncRequest,
  SyncResponse,
} from "./investors.schemas.js";
import { createInvestor, getInvestor, listInvestors, syncInvestors } from "./investors.service.js";
import { z } from "zod";

export const investorsRouter = router({
  create: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/investors/v1",
        tags: ["investors"],
        summary: "Create an investor, its investment account and bank accounts; registers the UCC with the exchange",
        description:
          "Answers 201 with the masked investor (status PENDING). Registration with the exchange is asynchronous: " +
          "watch `status` (PENDING -> REGISTERED | REJECTED) or the investor.* webhooks. The same PAN twice is 409 CONFLICT. " +
          "Send an Idempotency-Key header to make retries safe.",
        successDescription: "The investor was created (201).",
      },
    })
    .input(CreateInvestorRequest)
    .output(InvestorView)
    .mutation(async ({ ctx, input }) => {
      const result = await createInvestor(ctx, ctx.caller, input, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  get: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/investors/v1/{id}", tags: ["investors"], summary: "An investor, masked, with its accounts" } })
    .input(z.strictObject({ id: InvestorId }))
    .output(InvestorView)
    .query(({ ctx, input }) => getInvestor(ctx, ctx.caller, input.id)),

  list: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/investors/v1", tags: ["investors"], summary: "Your investors, newest first" } })
    .input(ListInvestorsQuery)
    .output(InvestorPage)
    .query(({ ctx, input }) => listInvestors(ctx, ctx.caller, input)),

  sync: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/investors/v1/sync",
        tags: ["investors"],
        summary: "Fetch the exchange's registration status of your PENDING investors (or one of them)",
      },
    })
    .input(SyncRequest)
    .output(SyncResponse)
    .mutation(({ ctx, input }) => syncInvestors(ctx, ctx.caller, input.investor_id)),
});
