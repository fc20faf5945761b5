import type { TagDoc } from "../../platform/openapi/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { ReconciliationQuery, ReconciliationView } from "./reconciliations.schemas.js";
import { distributorReconciliation } from "./reconciliations.service.js";

export const RECONCILIATIONS_TAG: TagDoc = {
  name: "reconciliations",
  description: "The daily comparison of your orders with the exchange's order status report and allotment statement.",
};

export const reconciliationsRouter = router({
  get: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/reconciliations/v1" },
      docs: {
        tag: RECONCILIATIONS_TAG,
        summary: "Your orders' differences with the exchange on a day",
        description:
          "Every evening (21:30 India) the service compares the previous business day's orders with the exchange's order status " +
          "report and allotment statement. This answers your mismatches of `date` and their counts; a date not reconciled yet is " +
          "200 with status NOT_RUN and no mismatches. Each mismatch was also sent as the event `reconciliation.mismatch`. An " +
          "allotment the service had missed is applied (`fixed`: the order is ALLOTTED, with `order.allotted`).",
      },
    })
    .input(ReconciliationQuery)
    .output(ReconciliationView)
    .query(({ ctx, input }) => distributorReconciliation(ctx, ctx.caller, input.date)),
});
