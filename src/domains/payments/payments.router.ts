import type { TagDoc } from "../../platform/openapi/docs.js";
import { PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { ListPaymentsQuery, PaymentIdInput, PaymentPage, PaymentView } from "./payments.schemas.js";
import { getPayment, listPayments } from "./payments.service.js";

export const PAYMENTS_TAG: TagDoc = { name: "payments", description: "Payments of orders: UPI, net banking, mandate debit, cheque." };

export const paymentsRouter = router({
  get: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/payments/v1/{id}" },
      docs: {
        tag: PAYMENTS_TAG,
        summary: "A payment, masked",
        description: "One of your payments, masked (a UPI address as `a***@psp`, a cheque by its last 4 digits), with its failure code when it failed. " + PATH_ID,
      },
    })
    .input(PaymentIdInput)
    .output(PaymentView)
    .query(({ ctx, input }) => getPayment(ctx, ctx.caller, input.id)),

  list: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/payments/v1" },
      docs: {
        tag: PAYMENTS_TAG,
        summary: "Your payments, newest first",
        description:
          "Your payments, newest first, each as GET /api/payments/v1/{id} shows it, filtered by `order_id` and `status`; page with `limit` and `cursor`. " +
          "An order may have several payments (a failed one and a newer attempt). Another distributor's `order_id` answers an empty list.",
      },
    })
    .input(ListPaymentsQuery)
    .output(PaymentPage)
    .query(({ ctx, input }) => listPayments(ctx, ctx.caller, input)),
});
