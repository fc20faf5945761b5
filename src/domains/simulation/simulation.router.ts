import type { z } from "zod";
import { simulateBrokerChangeRejection } from "../broker-changes/broker-changes.simulation.js";
import { RefreshQuery, simulateHoldingsRefresh } from "../holdings/holdings.simulation.js";
import { simulateInvestorChange, simulateInvestorRegistration } from "../investors/investors.simulation.js";
import { simulateMandateRegistration } from "../mandates/mandates.simulation.js";
import { AllotQuery, OrderIdInput } from "../orders/orders.schemas.js";
import { simulateAllotment, simulateCancelRefusal, simulateNextInstallment, simulateOrderDecision } from "../orders/orders.simulation.js";
import { FailPaymentQuery } from "../payments/payments.schemas.js";
import { simulatePayment } from "../payments/payments.simulation.js";
import type { OperationDocs, TagDoc } from "../../platform/openapi/docs.js";
import { PATH_ID } from "../shared/docs.js";
import { router, sandboxProcedure } from "../shared/procedures.js";
import { SimulationResponse, SimulationTarget } from "./simulation.schemas.js";

type SandboxContext = Parameters<Parameters<typeof sandboxProcedure.query>[0]>[0]["ctx"];
type Target = z.infer<typeof SimulationTarget>;

export const SIMULATION_TAG: TagDoc = {
  name: "simulation (sandbox only)",
  description: "The exchange, bank, gateway and registrar's moves, on demand. 404 outside the sandbox.",
};

const SANDBOX_ONLY = "Outside the sandbox the simulation does not exist (NOT_FOUND): use the sandbox.";
const NOT_PENDING = (what: string) => `The ${what} is not PENDING (INVALID_STATE).`;

/** What a simulation move's docs say besides its tag and its 404 outside the sandbox. */
type MoveDocs = Pick<OperationDocs, "summary" | "description" | "conflict">;

const simulate = (path: string, docs: MoveDocs) => ({
  openapi: { method: "GET" as const, path: `/api/simulation${path}` as `/${string}` },
  docs: { tag: SIMULATION_TAG, notFound: SANDBOX_ONLY, ...docs },
});

/** A simulation move on one resource: GET, bearer, sandbox only, `{success, message, data}`. */
const move = (path: string, docs: MoveDocs, run: (ctx: SandboxContext, target: Target) => Promise<z.infer<typeof SimulationResponse>>) =>
  sandboxProcedure
    .meta(simulate(path, docs))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => run(ctx, input));

export const simulationRouter = router({
  registerInvestor: move(
    "/investors/v1/{id}/register",
    {
      summary: "The exchange registers a PENDING investor's UCC",
      description: "Sandbox only: the exchange registers a PENDING investor (event investor.registered). " + PATH_ID,
      conflict: NOT_PENDING("investor"),
    },
    (ctx, t) => simulateInvestorRegistration(ctx, ctx.caller, t.id, "REGISTERED", t.remark),
  ),
  rejectInvestor: move(
    "/investors/v1/{id}/reject",
    {
      summary: "The exchange rejects a PENDING investor's UCC",
      description: "Sandbox only: the exchange rejects a PENDING investor, with an optional remark (event investor.rejected). " + PATH_ID,
      conflict: NOT_PENDING("investor"),
    },
    (ctx, t) => simulateInvestorRegistration(ctx, ctx.caller, t.id, "REJECTED", t.remark),
  ),
  applyInvestorChange: move(
    "/investors/v1/{id}/apply-change",
    {
      summary: "The exchange applies a REGISTERED investor's pending change (UCC modification)",
      description:
        "Sandbox only: the exchange applies the investor's PENDING change: its details become the new ones, `pending_change.status` " +
        "APPLIED (event investor.updated). Answers the change's id. " + PATH_ID,
      conflict: "The investor has no PENDING change (INVALID_STATE).",
    },
    (ctx, t) => simulateInvestorChange(ctx, ctx.caller, t.id, "APPLIED", t.remark),
  ),
  rejectInvestorChange: move(
    "/investors/v1/{id}/reject-change",
    {
      summary: "The exchange rejects a REGISTERED investor's pending change (UCC modification)",
      description:
        "Sandbox only: the exchange refuses the investor's PENDING change, with an optional remark: the details stay as they were, " +
        "`pending_change.status` REJECTED (event investor.update_rejected). Answers the change's id. " + PATH_ID,
      conflict: "The investor has no PENDING change (INVALID_STATE).",
    },
    (ctx, t) => simulateInvestorChange(ctx, ctx.caller, t.id, "REJECTED", t.remark),
  ),
  registerMandate: move(
    "/mandates/v1/{id}/register",
    {
      summary: "The bank approves a PENDING mandate",
      description: "Sandbox only: the bank approves a PENDING mandate (event mandate.registered). " + PATH_ID,
      conflict: NOT_PENDING("mandate"),
    },
    (ctx, t) => simulateMandateRegistration(ctx, ctx.caller, t.id, "REGISTERED", t.remark),
  ),
  rejectMandate: move(
    "/mandates/v1/{id}/reject",
    {
      summary: "The bank declines a PENDING mandate",
      description: "Sandbox only: the bank declines a PENDING mandate, with an optional remark (event mandate.rejected). " + PATH_ID,
      conflict: NOT_PENDING("mandate"),
    },
    (ctx, t) => simulateMandateRegistration(ctx, ctx.caller, t.id, "REJECTED", t.remark),
  ),
  acceptOrder: move(
    "/orders/v1/{id}/accept",
    {
      summary: "The exchange accepts a PENDING (held) order",
      description: "Sandbox only: the exchange accepts a PENDING order held for simulation (event order.accepted). " + PATH_ID,
      conflict: NOT_PENDING("order"),
    },
    (ctx, t) => simulateOrderDecision(ctx, ctx.caller, t.id, "accept", t.remark),
  ),
  rejectOrder: move(
    "/orders/v1/{id}/reject",
    {
      summary: "The exchange rejects a PENDING (held) order",
      description: "Sandbox only: the exchange rejects a PENDING order held for simulation, with an optional remark (event order.rejected). " + PATH_ID,
      conflict: NOT_PENDING("order"),
    },
    (ctx, t) => simulateOrderDecision(ctx, ctx.caller, t.id, "reject", t.remark),
  ),
  failOrder: move(
    "/orders/v1/{id}/fail",
    {
      summary: "Dispatch of a PENDING order fails in transport",
      description: "Sandbox only: the order's dispatch fails in transport and the order ends FAILED (event order.failed). " + PATH_ID,
      conflict: NOT_PENDING("order"),
    },
    (ctx, t) => simulateOrderDecision(ctx, ctx.caller, t.id, "fail", t.remark),
  ),
  refuseCancelOrder: sandboxProcedure
    .meta(
      simulate("/orders/v1/{id}/refuse-cancel", {
        summary: "The exchange refuses an ACCEPTED registration's cancellation (remark optional)",
        description:
          "For an ACCEPTED SIP, XSIP, STP or SWP registration. Its cancellation PENDING: it becomes REFUSED at once with the " +
          "remark (default `SANDBOX: CANCELLATION REFUSED BY SIMULATION`), the order stays ACCEPTED. No cancellation asked yet (or " +
          "one refused before): the next one asked is refused. Either way the sandbox's books keep the refusal, so later " +
          "cancellations of the order are refused too. 409 `INVALID_STATE` for an order that is not a registration (the exchange " +
          "does not cancel those at all) or not ACCEPTED (a CONFIRMED cancellation has made it CANCELLED).",
        conflict:
          "The order is not a SIP, XSIP, STP or SWP registration, or not ACCEPTED (a confirmed cancellation has made it CANCELLED) (INVALID_STATE).",
      }),
    )
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateCancelRefusal(ctx, ctx.caller, input.id, input.remark)),
  capturePayment: move(
    "/payments/v1/{id}/capture",
    {
      summary: "The gateway captures (settles) a PENDING payment",
      description:
        "Sandbox only: the gateway captures a PENDING payment; the order's payment_status becomes PAID (event payment.captured). " + PATH_ID,
      conflict: NOT_PENDING("payment"),
    },
    (ctx, t) => simulatePayment(ctx, ctx.caller, t.id, "CAPTURED", t.remark),
  ),
  failPayment: sandboxProcedure
    .meta(
      simulate("/payments/v1/{id}/fail", {
        summary: "A PENDING payment fails (failure_code optional, default bank_declined)",
        description:
          "Sandbox only: a PENDING payment fails with `failure_code` (default bank_declined); a new attempt may follow (event payment.failed). " + PATH_ID,
        conflict: NOT_PENDING("payment"),
      }),
    )
    .input(FailPaymentQuery)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulatePayment(ctx, ctx.caller, input.id, "FAILED", input.remark, input.failure_code)),
  refundPayment: move(
    "/payments/v1/{id}/refund",
    {
      summary: "A CAPTURED payment is refunded",
      description: "Sandbox only: a CAPTURED payment is refunded (event payment.refunded). " + PATH_ID,
      conflict: "The payment is not CAPTURED (INVALID_STATE).",
    },
    (ctx, t) => simulatePayment(ctx, ctx.caller, t.id, "REFUNDED", t.remark),
  ),

  allotOrder: sandboxProcedure
    .meta(
      simulate("/orders/v1/{id}/allot", {
        summary: "Allot an ACCEPTED order (units, nav, folio_no, allotment_date optional)",
        description:
          "Sandbox only: allots an ACCEPTED order; units, nav, folio_no and allotment_date are optional (derived from the amount " +
          "and the scheme's NAV). Event order.allotted. " + PATH_ID,
        conflict: "The order is not ACCEPTED, or is a registration whose installments are allotted instead (INVALID_STATE).",
      }),
    )
    .input(AllotQuery)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateAllotment(ctx, ctx.caller, input.id, input)),

  nextInstallment: sandboxProcedure
    .meta(
      simulate("/orders/v1/{id}/next-installment", {
        summary: "Create a SIP, XSIP, STP or SWP registration's next installment now",
        description:
          "As the exchange does on the installment's due date: the child order is ACCEPTED with `parent_order_id`, " +
          "`installment_no` and the exchange number `<registration's>-<n>` (an XSIP installment is debited by its mandate). " +
          "`data` is the child order's id; allot it with `/allot`. 409 `INVALID_STATE` for an order that is not an " +
          "ACCEPTED registration, or one with no scheduled installment left.",
        conflict: "The order is not an ACCEPTED registration with an installment left, or its cancellation is pending (INVALID_STATE).",
      }),
    )
    .input(OrderIdInput)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateNextInstallment(ctx, ctx.caller, input.id)),

  // Broker change requests (beta): the registrar rejects a SUBMITTED request.
  rejectBrokerChange: move(
    "/broker-changes/v1/{id}/reject",
    {
      summary: "The registrar rejects a SUBMITTED broker change request (beta)",
      description:
        "Sandbox only: the registrar rejects a SUBMITTED broker change request, with an optional remark (event broker_change.rejected). " + PATH_ID,
      conflict: "The request is not SUBMITTED (INVALID_STATE).",
    },
    (ctx, t) => simulateBrokerChangeRejection(ctx, ctx.caller, t.id, t.remark),
  ),

  // Holdings (issue 6): no resource id; `data` is the balance date of the sandbox feed.
  refreshHoldings: sandboxProcedure
    .meta(
      simulate("/holdings/v1/refresh", {
        summary: "Run the registrars' daily holdings refresh now (sandbox registrar feed, then import)",
        description:
          "Sandbox only: runs the daily holdings refresh now for the caller (the sandbox registrar's feed of the caller's ARN, " +
          "then its import; the feed files are deleted afterwards) and answers what it imported for the caller only.",
      }),
    )
    .input(RefreshQuery)
    .output(SimulationResponse)
    .query(({ ctx }) => simulateHoldingsRefresh(ctx)),
});
