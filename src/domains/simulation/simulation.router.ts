import type { z } from "zod";
import { simulateBrokerChangeRejection } from "../broker-changes/broker-changes.simulation.js";
import { RefreshQuery, simulateHoldingsRefresh } from "../holdings/holdings.simulation.js";
import { simulateInvestorRegistration } from "../investors/investors.simulation.js";
import { simulateMandateRegistration } from "../mandates/mandates.simulation.js";
import { AllotQuery, OrderIdInput } from "../orders/orders.schemas.js";
import { simulateAllotment, simulateCancelRefusal, simulateNextInstallment, simulateOrderDecision } from "../orders/orders.simulation.js";
import { FailPaymentQuery } from "../payments/payments.schemas.js";
import { simulatePayment } from "../payments/payments.simulation.js";
import { router, sandboxProcedure } from "../shared/procedures.js";
import { SimulationResponse, SimulationTarget } from "./simulation.schemas.js";

type SandboxContext = Parameters<Parameters<typeof sandboxProcedure.query>[0]>[0]["ctx"];
type Target = z.infer<typeof SimulationTarget>;

const simulate = (path: string, summary: string) => ({
  openapi: { method: "GET" as const, path: `/api/simulation${path}` as `/${string}`, tags: ["simulation (sandbox only)"], summary },
});

/** A simulation move on one resource: GET, bearer, sandbox only, `{success, message, data}`. */
const move = (path: string, summary: string, run: (ctx: SandboxContext, target: Target) => Promise<z.infer<typeof SimulationResponse>>) =>
  sandboxProcedure
    .meta(simulate(path, summary))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => run(ctx, input));

export const simulationRouter = router({
  registerInvestor: move("/investors/v1/{id}/register", "The exchange registers a PENDING investor's UCC", (ctx, t) =>
    simulateInvestorRegistration(ctx, ctx.caller, t.id, "REGISTERED", t.remark)),
  rejectInvestor: move("/investors/v1/{id}/reject", "The exchange rejects a PENDING investor's UCC", (ctx, t) =>
    simulateInvestorRegistration(ctx, ctx.caller, t.id, "REJECTED", t.remark)),
  registerMandate: move("/mandates/v1/{id}/register", "The bank approves a PENDING mandate", (ctx, t) =>
    simulateMandateRegistration(ctx, ctx.caller, t.id, "REGISTERED", t.remark)),
  rejectMandate: move("/mandates/v1/{id}/reject", "The bank declines a PENDING mandate", (ctx, t) =>
    simulateMandateRegistration(ctx, ctx.caller, t.id, "REJECTED", t.remark)),
  acceptOrder: move("/orders/v1/{id}/accept", "The exchange accepts a PENDING (held) order", (ctx, t) =>
    simulateOrderDecision(ctx, ctx.caller, t.id, "accept", t.remark)),
  rejectOrder: move("/orders/v1/{id}/reject", "The exchange rejects a PENDING (held) order", (ctx, t) =>
    simulateOrderDecision(ctx, ctx.caller, t.id, "reject", t.remark)),
  failOrder: move("/orders/v1/{id}/fail", "Dispatch of a PENDING order fails in transport", (ctx, t) =>
    simulateOrderDecision(ctx, ctx.caller, t.id, "fail", t.remark)),
  refuseCancelOrder: sandboxProcedure
    .meta({
      openapi: {
        ...simulate("/orders/v1/{id}/refuse-cancel", "The exchange refuses an ACCEPTED registration's cancellation (remark optional)").openapi,
        description:
          "For an ACCEPTED SIP, XSIP, STP or SWP registration. Its cancellation PENDING: it becomes REFUSED at once with the " +
          "remark (default `SANDBOX: CANCELLATION REFUSED BY SIMULATION`), the order stays ACCEPTED. No cancellation asked yet (or " +
          "one refused before): the next one asked is refused. Either way the sandbox's books keep the refusal, so later " +
          "cancellations of the order are refused too. 409 `INVALID_STATE` for an order that is not a registration (the exchange " +
          "does not cancel those at all) or not ACCEPTED (a CONFIRMED cancellation has made it CANCELLED).",
      },
    })
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateCancelRefusal(ctx, ctx.caller, input.id, input.remark)),
  capturePayment: move("/payments/v1/{id}/capture", "The gateway captures (settles) a PENDING payment", (ctx, t) =>
    simulatePayment(ctx, ctx.caller, t.id, "CAPTURED", t.remark)),
  failPayment: sandboxProcedure
    .meta(simulate("/payments/v1/{id}/fail", "A PENDING payment fails (failure_code optional, default bank_declined)"))
    .input(FailPaymentQuery)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulatePayment(ctx, ctx.caller, input.id, "FAILED", input.remark, input.failure_code)),
  refundPayment: move("/payments/v1/{id}/refund", "A CAPTURED payment is refunded", (ctx, t) =>
    simulatePayment(ctx, ctx.caller, t.id, "REFUNDED", t.remark)),

  allotOrder: sandboxProcedure
    .meta(simulate("/orders/v1/{id}/allot", "Allot an ACCEPTED order (units, nav, folio_no, allotment_date optional)"))
    .input(AllotQuery)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateAllotment(ctx, ctx.caller, input.id, input)),

  nextInstallment: sandboxProcedure
    .meta({
      openapi: {
        ...simulate("/orders/v1/{id}/next-installment", "Create a SIP, XSIP, STP or SWP registration's next installment now").openapi,
        description:
          "As the exchange does on the installment's due date: the child order is ACCEPTED with `parent_order_id`, " +
          "`installment_no` and the exchange number `<registration's>-<n>` (an XSIP installment is debited by its mandate). " +
          "`data` is the child order's id; allot it with `/allot`. 409 `INVALID_STATE` for an order that is not an " +
          "ACCEPTED registration, or one with no scheduled installment left.",
      },
    })
    .input(OrderIdInput)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateNextInstallment(ctx, ctx.caller, input.id)),

  // Broker change requests (beta): the registrar rejects a SUBMITTED request.
  rejectBrokerChange: move("/broker-changes/v1/{id}/reject", "The registrar rejects a SUBMITTED broker change request (beta)", (ctx, t) =>
    simulateBrokerChangeRejection(ctx, ctx.caller, t.id, t.remark)),

  // Holdings (issue 6): no resource id; `data` is the balance date of the sandbox feed.
  refreshHoldings: sandboxProcedure
    .meta(simulate("/holdings/v1/refresh", "Run the registrars' daily holdings refresh now (sandbox registrar feed, then import)"))
    .input(RefreshQuery)
    .output(SimulationResponse)
    .query(({ ctx }) => simulateHoldingsRefresh(ctx)),
});
