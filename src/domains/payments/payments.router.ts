import { authedProcedure, router } from "../shared/procedures.js";
import { PaymentIdInput, PaymentView } from "./payments.schemas.js";
import { getPayment } from "./payments.service.js";

export const paymentsRouter = router({
  get: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/payments/v1/{id}", tags: ["payments"], summary: "A payment, masked" } })
    .input(PaymentIdInput)
    .output(PaymentView)
    .query(({ ctx, input }) => getPayment(ctx, ctx.caller, input.id)),
});
