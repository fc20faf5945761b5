import type { TagDoc } from "../../platform/openapi/docs.js";
import { authedProcedure, linkProcedure, router } from "../shared/procedures.js";
import { ConfirmedOrder, LinkPayment, PayLinkRequest, PublicLinkInput, PublicLinkView } from "./order-links.schemas.js";
import { confirmLink, getPublicLink, payLink } from "./order-links.service.js";

export const PUBLIC_LINKS_TAG: TagDoc = {
  name: "order links (public)",
  description: "The investor's side of an order link: no token, the link id is the capability; pay takes your token.",
};

/** The investor's side of an order link: the link id is the capability (pay also takes the distributor's bearer token). */
export const publicLinksRouter = router({
  get: linkProcedure
    .meta({
      openapi: { method: "GET", path: "/api/public/v1/order-links/{link_id}", protect: false },
      docs: {
        tag: PUBLIC_LINKS_TAG,
        summary: "The proposal behind a link, masked (no token)",
        description: "Unknown link: 404. Requests spend the budget of the client's address.",
      },
    })
    .input(PublicLinkInput)
    .output(PublicLinkView)
    .query(({ ctx, input }) => getPublicLink(ctx, input.link_id)),

  confirm: linkProcedure
    .meta({
      openapi: { method: "POST", path: "/api/public/v1/order-links/{link_id}/confirm", protect: false },
      docs: {
        tag: PUBLIC_LINKS_TAG,
        summary: "The investor confirms: the order is placed (no token, no body)",
        description:
          "Places the proposed order through the placement service (every rule checked now) and records the consent " +
          "(time, client address, user agent). 201 with the order; a repeat answers 200 with the same body. EXPIRED or " +
          "CANCELLED: 409 `INVALID_STATE`. A proposal that no longer passes: 400 with the details, the link stays ACTIVE.",
        created: "The order was placed (the link is CONFIRMED).",
        repeat: "The link was confirmed before: the same body as the first confirmation.",
        conflict:
          "The link is EXPIRED or CANCELLED (INVALID_STATE): ask the distributor for a new link; or its client_ref was taken by " +
          "another order meanwhile (CONFLICT).",
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
      openapi: { method: "POST", path: "/api/public/v1/order-links/{link_id}/pay" },
      docs: {
        tag: PUBLIC_LINKS_TAG,
        summary: "Pay a confirmed link's order once the exchange has accepted it (bearer)",
        description:
          "Modes: UPI (`vpa`), NETBANKING (`bank_account_id`, one of the investor's), MANDATE (`mandate_id`, a REGISTERED " +
          "mandate of the investor within its limit), CHEQUE (`cheque`). 201 with the payment; while one is PENDING it is " +
          "answered again (200); after FAILED a new attempt joins the same basket; after a capture 409. Before the order " +
          "is ACCEPTED: 409 `INVALID_STATE`. Another distributor's link: 404.",
        created: "A payment attempt was started: follow `payment_url` (UPI, net banking) or wait for the mandate debit or the cheque.",
        repeat: "A payment attempt is still PENDING: the same attempt again.",
        conflict:
          "The link's order is not ACCEPTED yet, or is paid already (INVALID_STATE): wait for the exchange's acceptance; nothing " +
          "to pay after a capture.",
        examples: { "application/json": { mode: "UPI", vpa: "meera@okexample" } },
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
