import type { TagDoc } from "../../platform/openapi/docs.js";
import { PLACE_ORDER_EXAMPLE } from "../orders/orders.router.js";
import { IDEMPOTENCY_CONFLICT, PATH_ID } from "../shared/docs.js";
import { authedProcedure, router } from "../shared/procedures.js";
import { CreateLinkRequest, LinkIdInput, LinkPage, LinkView, ListLinksQuery } from "./order-links.schemas.js";
import { cancelLink, createLink, getLink, listLinks } from "./order-links.service.js";

export const ORDER_LINKS_TAG: TagDoc = {
  name: "order links",
  description: "Proposals sent to investors as a link: they confirm (and pay) on a hosted page without an account.",
};

/** The distributor's side of order links (bearer). The investor's side: public-links.router.ts. */
export const orderLinksRouter = router({
  create: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/order-links/v1" },
      docs: {
        tag: ORDER_LINKS_TAG,
        summary: "Propose an order to an investor as a public link",
        description:
          "The body is an order request (everything `POST /api/orders/v1/` takes) plus `expires_in_hours`. The proposal is " +
          "checked with every placement rule that does not depend on time (same 400 details); start dates are checked " +
          "against today when the investor confirms. 201 with the link; send `url` to the investor's registered email or " +
          "mobile. A repeated client_ref with the same body answers the same link. Idempotency-Key is accepted.",
        created: "The link was created (ACTIVE): send its `url` to the investor. A repeated client_ref or Idempotency-Key with the same body answers the same 201.",
        notFound: "The investment account is unknown or another distributor's (NOT_FOUND): check `investment_account_id`.",
        conflict: `Conflict: \`client_ref\` already names another link or order with a different body (CONFLICT: use a new client_ref), or ${IDEMPOTENCY_CONFLICT}.`,
        idempotent: true,
        examples: { "application/json": { ...PLACE_ORDER_EXAMPLE, client_ref: "example-link-1", expires_in_hours: 72 } },
      },
    })
    .input(CreateLinkRequest)
    .output(LinkView)
    .mutation(async ({ ctx, input }) => {
      const result = await createLink(ctx, ctx.caller, input, { idempotencyKey: ctx.idempotencyKey, origin: ctx.origin });
      ctx.response.status = result.status;
      return result.body;
    }),

  get: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/order-links/v1/{id}" },
      docs: {
        tag: ORDER_LINKS_TAG,
        summary: "An order link",
        description: "One of your order links: the proposal, its status, and once confirmed the order's status and latest payment. " + PATH_ID,
      },
    })
    .input(LinkIdInput)
    .output(LinkView)
    .query(({ ctx, input }) => getLink(ctx, ctx.caller, input.id, ctx.origin)),

  list: authedProcedure
    .meta({
      openapi: { method: "GET", path: "/api/order-links/v1" },
      docs: {
        tag: ORDER_LINKS_TAG,
        summary: "Your order links, newest first",
        description: "Your order links, newest first, filtered by `status`; page with `limit` and `cursor`.",
      },
    })
    .input(ListLinksQuery)
    .output(LinkPage)
    .query(({ ctx, input }) => listLinks(ctx, ctx.caller, input, ctx.origin)),

  cancel: authedProcedure
    .meta({
      openapi: { method: "POST", path: "/api/order-links/v1/{id}/cancel" },
      docs: {
        tag: ORDER_LINKS_TAG,
        summary: "Cancel an ACTIVE order link",
        description: "Cancels an ACTIVE link: the investor can no longer confirm it. " + PATH_ID,
        conflict: "The link is not ACTIVE (INVALID_STATE): a confirmed, expired or cancelled link cannot be cancelled.",
      },
    })
    .input(LinkIdInput)
    .output(LinkView)
    .mutation(({ ctx, input }) => cancelLink(ctx, ctx.caller, input.id, ctx.origin)),
});
