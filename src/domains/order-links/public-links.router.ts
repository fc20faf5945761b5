import { authedProcedure, linkProcedure, router } from "../shared/procedures.js";
import { ConfirmedOrder, LinkPayment, PayLinkRequest, PublicLinkInput, PublicLinkView } from "./order-links.schemas.js";
import { confirmLink, getPublicLink, payLink } from "./order-links.service.js";

const TAGS = ["order links (public)"];

/** The investor's side of an order link: the link id is the capability (pay also takes the distributor's bearer token). */
export const publicLinksRouter = router({
  get: linkProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/api/public/v1/order-links/{link_id}",
        tags: TAGS,
        summary: "The proposal behind a link, masked (no token)",
        protect: false,
        description: "Unknown link: 404. Requests spend the budget of the client's address.",
      },
    })
    .input(PublicLinkInput)
    .output(PublicLinkView)
    .query(({ ctx, input }) => getPublicLink(ctx, input.link_id)),

  confirm: linkProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/public/v1/order-links/{link_id}/confirm",
        tags: TAGS,
        summary: "The investor confirms: the order is placed (no token, no body)",
        protect: false,
        description:
          "Places the proposed order through the placement service (every rule checked now) and records the consent " +
          "(time, client address, user agent). 201 with the order; a repeat answers 200 with the same body. EXPIRED or " +
          "CANCELLED: 409 `INVALID_STATE`. A proposal that no longer passes: 400 with the details, the link stays ACTIVE.",
      },
    })
    .input(PublicLinkInput)
    .output(ConfirmedOrder)
    .mutation(async ({ ctx, input }) => {
      const result = await confirmLink(ctx, input.link_id, { ip: ctx.clientIp, userAgent: ctx.userAgent, origin: ctx.origin });
      ctx.response.status = result.status;
      return result.body;
    }),

  pay: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/public/v1/order-links/{link_id}/pay",
        tags: TAGS,
        summary: "Pay a confirmed link's order once the exchange has accepted it (bearer)",
        description:
          "Modes: UPI (`vpa`), NETBANKING (`bank_account_id`, one of the investor's), MANDATE (`mandate_id`, a REGISTERED " +
          "mandate of the investor within its limit), CHEQUE (`cheque`). 201 with the payment; while one is PENDING it is " +
          "answered again (200); after FAILED a new attempt joins the same basket; after a capture 409. Before the order " +
          "is ACCEPTED: 409 `INVALID_STATE`. Another distributor's link: 404.",
      },
    })
    .input(PayLinkRequest)
    .output(LinkPayment)
    .mutation(async ({ ctx, input }) => {
      const { link_id: linkId, ...choice } = input;
      const result = await payLink(ctx, linkId, choice, { caller: ctx.caller, origin: ctx.origin });
      ctx.response.status = result.status;
      return result.body;
    }),
});
