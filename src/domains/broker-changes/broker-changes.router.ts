import { authedProcedure, router } from "../shared/procedures.js";
import { BrokerChangeIdInput, BrokerChangePage, BrokerChangeView, CreateBrokerChangeRequest, ListBrokerChangesQuery } from "./broker-changes.schemas.js";
import { createBrokerChange, getBrokerChange, listBrokerChanges } from "./broker-changes.service.js";

const TAGS = ["broker changes (beta)"];

/** Broker change requests (beta). The form upload and download are binary, mounted on Hono (http/). */
export const brokerChangesRouter = router({
  create: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/broker-changes/v1",
        tags: TAGS,
        summary: "Ask the registrar to move an investor's folio under your ARN (beta)",
        description:
          "`investor_id` must be one of your investors and `amc_code` an AMC of the scheme master (400 on the field otherwise). " +
          "WET_SIGNATURE answers PENDING_DOCUMENT: upload the investor's signed form to `POST /api/broker-changes/v1/{id}/image`. " +
          "TWO_FA (with `two_fa_channel`) is SUBMITTED at once: the registrar confirms with the investor. `broker_code` is your ARN. " +
          "Events: `broker_change.submitted`, `broker_change.rejected`. Idempotency-Key is accepted.",
      },
    })
    .input(CreateBrokerChangeRequest)
    .output(BrokerChangeView)
    .mutation(async ({ ctx, input }) => {
      const result = await createBrokerChange(ctx, ctx.caller, input, { idempotencyKey: ctx.idempotencyKey });
      ctx.response.status = result.status;
      return result.body;
    }),

  get: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/broker-changes/v1/{id}", tags: TAGS, summary: "A broker change request (beta)" } })
    .input(BrokerChangeIdInput)
    .output(BrokerChangeView)
    .query(({ ctx, input }) => getBrokerChange(ctx, ctx.caller, input.id)),

  list: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/broker-changes/v1", tags: TAGS, summary: "Your broker change requests, newest first (beta)" } })
    .input(ListBrokerChangesQuery)
    .output(BrokerChangePage)
    .query(({ ctx, input }) => listBrokerChanges(ctx, ctx.caller, input)),
});
