import type { TagDoc } from "../../platform/openapi/docs.js";
import { EXAMPLE_PLACEHOLDERS as P, IDEMPOTENCY_CONFLICT, PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { BrokerChangeIdInput, BrokerChangePage, BrokerChangeView, CreateBrokerChangeRequest, ListBrokerChangesQuery } from "./broker-changes.schemas.js";
import { createBrokerChange, getBrokerChange, listBrokerChanges } from "./broker-changes.service.js";

export const BROKER_CHANGES_TAG: TagDoc = {
  name: "broker changes (beta)",
  description: "Requests to move an investor's existing folio under your ARN, with a signed form or the registrar's 2FA.",
};

/** Broker change requests (beta). The form upload and download are binary, mounted on Hono (signed-form.docs.ts). */
export const brokerChangesRouter = router({
  create: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/broker-changes/v1" },
      docs: {
        tag: BROKER_CHANGES_TAG,
        summary: "Ask the registrar to move an investor's folio under your ARN (beta)",
        description:
          "`investor_id` must be one of your investors and `amc_code` an AMC of the scheme master (400 on the field otherwise). " +
          "WET_SIGNATURE answers PENDING_DOCUMENT: upload the investor's signed form to `POST /api/broker-changes/v1/{id}/image`. " +
          "TWO_FA (with `two_fa_channel`) is SUBMITTED at once: the registrar confirms with the investor. `broker_code` is your ARN. " +
          "Events: `broker_change.submitted`, `broker_change.rejected`. Idempotency-Key is accepted.",
        created:
          "The request was created: PENDING_DOCUMENT for WET_SIGNATURE (upload the signed form next), SUBMITTED for TWO_FA. " +
          "A repeat with the same Idempotency-Key answers the same 201.",
        conflict: `Conflict: ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: {
          "application/json": {
            investor_id: P.investorId,
            amc_code: "ADITYA_BIRLA_SUN_LIFE",
            folio_no: "1029384756",
            auth_mode: "TWO_FA",
            two_fa_channel: "EMAIL",
            client_ref: "example-broker-change-1",
          },
        },
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
    .meta({
      openapi: { method: "GET", path: "/api/broker-changes/v1/{id}" },
      docs: {
        tag: BROKER_CHANGES_TAG,
        summary: "A broker change request (beta)",
        description: "One of your broker change requests, with its document's metadata once uploaded. " + PATH_ID,
      },
    })
    .input(BrokerChangeIdInput)
    .output(BrokerChangeView)
    .query(({ ctx, input }) => getBrokerChange(ctx, ctx.caller, input.id)),

  list: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/broker-changes/v1" },
      docs: {
        tag: BROKER_CHANGES_TAG,
        summary: "Your broker change requests, newest first (beta)",
        description: "Your broker change requests, newest first, filtered by `status` and `investor_id`; page with `limit` and `cursor`.",
      },
    })
    .input(ListBrokerChangesQuery)
    .output(BrokerChangePage)
    .query(({ ctx, input }) => listBrokerChanges(ctx, ctx.caller, input)),
});
