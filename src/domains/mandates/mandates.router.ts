import { authedProcedure, router } from "../shared/procedures.js";
import { CreateMandateRequest, MandateId, MandateView } from "./mandates.schemas.js";
import { cancelMandate, createMandate, getMandate } from "./mandates.service.js";

export const mandatesRouter = router({
  create: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/mandates/v1",
        tags: ["mandates"],
        summary: "Create a mandate on a REGISTERED investor's bank account; registers it with the exchange",
        description: "Answers 201 (status PENDING -> REGISTERED | REJECTED). Send an Idempotency-Key header to make retries safe.",
      },
    })
    .input(CreateMandateRequest)
    .output(MandateView)
    .mutation(async ({ ctx, input }) => {
      const result = await createMandate(ctx, ctx.caller, input, ctx.idempotencyKey);
      ctx.response.status = result.status;
      return result.body;
    }),

  get: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/mandates/v1/{id}", tags: ["mandates"], summary: "A mandate" } })
    .input(MandateId)
    .output(MandateView)
    .query(({ ctx, input }) => getMandate(ctx, ctx.caller, input.id, ctx.origin)),

  cancel: authedProcedure
    .meta({ openapi: { method: "POST", path: "/api/mandates/v1/{id}/cancel", tags: ["mandates"], summary: "Cancel a REGISTERED mandate" } })
    .input(MandateId)
    .output(MandateView)
    .mutation(({ ctx, input }) => cancelMandate(ctx, ctx.caller, input.id, ctx.origin)),
});
