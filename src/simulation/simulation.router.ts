import { router, sandboxProcedure } from "../trpc/init.js";
import { simulateInvestorRegistration } from "../investors/investors.simulation.js";
import { simulateMandateRegistration } from "../mandates/mandates.simulation.js";
import { AllotQuery } from "../orders/orders.schemas.js";
import { simulateAllotment, simulateOrderDecision } from "../orders/orders.simulation.js";
import { SimulationResponse, SimulationTarget } from "./simulation.schemas.js";

const simulate = (path: string, summary: string) => ({
  openapi: { method: "GET" as const, path: `/api/simulation${path}` as `/${string}`, tags: ["simulation (sandbox only)"], summary },
});

export const simulationRouter = router({
  registerInvestor: sandboxProcedure
    .meta(simulate("/investors/v1/{id}/register", "The exchange registers a PENDING investor's UCC"))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateInvestorRegistration(ctx, ctx.caller, input.id, "REGISTERED", input.remark)),

  rejectInvestor: sandboxProcedure
    .meta(simulate("/investors/v1/{id}/reject", "The exchange rejects a PENDING investor's UCC"))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateInvestorRegistration(ctx, ctx.caller, input.id, "REJECTED", input.remark)),

  registerMandate: sandboxProcedure
    .meta(simulate("/mandates/v1/{id}/register", "The bank approves a PENDING mandate"))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateMandateRegistration(ctx, ctx.caller, input.id, "REGISTERED", input.remark)),

  rejectMandate: sandboxProcedure
    .meta(simulate("/mandates/v1/{id}/reject", "The bank declines a PENDING mandate"))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateMandateRegistration(ctx, ctx.caller, input.id, "REJECTED", input.remark)),

  acceptOrder: sandboxProcedure
    .meta(simulate("/orders/v1/{id}/accept", "The exchange accepts a PENDING (held) order"))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateOrderDecision(ctx, ctx.caller, input.id, "accept", input.remark)),

  rejectOrder: sandboxProcedure
    .meta(simulate("/orders/v1/{id}/reject", "The exchange rejects a PENDING (held) order"))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateOrderDecision(ctx, ctx.caller, input.id, "reject", input.remark)),

  failOrder: sandboxProcedure
    .meta(simulate("/orders/v1/{id}/fail", "Dispatch of a PENDING order fails in transport"))
    .input(SimulationTarget)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateOrderDecision(ctx, ctx.caller, input.id, "fail", input.remark)),

  allotOrder: sandboxProcedure
    .meta(simulate("/orders/v1/{id}/allot", "Allot an ACCEPTED order (units, nav, folio_no, allotment_date optional)"))
    .input(AllotQuery)
    .output(SimulationResponse)
    .query(({ ctx, input }) => simulateAllotment(ctx, ctx.caller, input.id, input)),
});
