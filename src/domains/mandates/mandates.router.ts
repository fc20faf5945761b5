import type { TagDoc } from "../../platform/openapi/docs.js";
import { EXAMPLE_PLACEHOLDERS as P, FAR_DATE, IDEMPOTENCY_CONFLICT, PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { CreateMandateRequest, ListMandatesQuery, MandateId, MandatePage, MandateView } from "./mandates.schemas.js";
import { cancelMandate, createMandate, getMandate, listMandates } from "./mandates.service.js";

export const MANDATES_TAG: TagDoc = { name: "mandates", description: "Bank mandates (e-NACH or physical) that SIPs and mandate payments debit." };

export const mandatesRouter = router({
  create: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/mandates/v1" },
      docs: {
        tag: MANDATES_TAG,
        summary: "Create a mandate on a REGISTERED investor's bank account; registers it with the exchange",
        description: "Answers 201 (status PENDING -> REGISTERED | REJECTED). Send an Idempotency-Key header to make retries safe.",
        created: "The mandate was created (status PENDING) and is being registered with the exchange. A repeat with the same Idempotency-Key answers the same 201.",
        notFound: "`investor_id` is unknown or another distributor's (NOT_FOUND): check the id.",
        conflict: `The investor is not REGISTERED yet (INVALID_STATE: wait for investor.registered, or sync it), or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: {
          "application/json": {
            investor_id: P.investorId,
            bank_account_id: P.bankAccountId,
            mandate_type: "ENACH",
            amount_limit: 50000,
            start_date: FAR_DATE,
            client_ref: "example-mandate-1",
          },
        },
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
    .meta({
      openapi: { method: "GET", path: "/api/mandates/v1/{id}" },
      docs: { tag: MANDATES_TAG, summary: "A mandate", description: "One of your mandates, with its status and the exchange's remark. " + PATH_ID },
    })
    .input(MandateId)
    .output(MandateView)
    .query(({ ctx, input }) => getMandate(ctx, ctx.caller, input.id, ctx.origin)),

  list: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/mandates/v1" },
      docs: {
        tag: MANDATES_TAG,
        summary: "Your mandates, newest first",
        description:
          "Your mandates, newest first, each as GET /api/mandates/v1/{id} shows it, filtered by `investor_id` and `status`; page with `limit` and `cursor`. " +
          "Another distributor's `investor_id` answers an empty list.",
      },
    })
    .input(ListMandatesQuery)
    .output(MandatePage)
    .query(({ ctx, input }) => listMandates(ctx, ctx.caller, input, ctx.origin)),

  cancel: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/mandates/v1/{id}/cancel" },
      docs: {
        tag: MANDATES_TAG,
        summary: "Cancel a REGISTERED mandate",
        description: "Cancels a REGISTERED mandate: it takes no new orders; orders already placed keep it. " + PATH_ID,
        conflict: "The mandate is not REGISTERED (INVALID_STATE): only a REGISTERED mandate can be cancelled.",
      },
    })
    .input(MandateId)
    .output(MandateView)
    .mutation(({ ctx, input }) => cancelMandate(ctx, ctx.caller, input.id, ctx.origin)),
});
