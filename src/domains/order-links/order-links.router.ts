import { authedProcedure, router } from "../shared/procedures.js";
import { CreateLinkRequest, LinkIdInput, LinkPage, LinkView, ListLinksQuery } from "./order-links.schemas.js";
import { cancelLink, createLink, getLink, listLinks } from "./order-links.service.js";

const TAGS = ["order links"];

/** The distributor's side of order links (bearer). The investor's side: public-links.router.ts. */
export const orderLinksRouter = router({
  create: authedProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/order-links/v1",
        tags: TAGS,
        summary: "Propose an order to an investor as a public link",
        description:
          "The body is an order request (everything `POST /api/orders/v1/` takes) plus `expires_in_hours`. The proposal is " +
          "checked with every placement rule that does not depend on time (same 400 details); start dates are checked " +
          "against today when the investor confirms. 201 with the link; send `url` to the investor's registered email or " +
          "mobile. A repeated client_ref with the same body answers the same link. Idempotency-Key is accepted.",
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
    .meta({ openapi: { method: "GET", path: "/api/order-links/v1/{id}", tags: TAGS, summary: "An order link" } })
    .input(LinkIdInput)
    .output(LinkView)
    .query(({ ctx, input }) => getLink(ctx, ctx.caller, input.id, ctx.origin)),

  list: authedProcedure
    .meta({ openapi: { method: "GET", path: "/api/order-links/v1", tags: TAGS, summary: "Your order links, newest first" } })
    .input(ListLinksQuery)
    .output(LinkPage)
    .query(({ ctx, input }) => listLinks(ctx, ctx.caller, input, ctx.origin)),

  cancel: authedProcedure
    .meta({ openapi: { method: "POST", path: "/api/order-links/v1/{id}/cancel", tags: TAGS, summary: "Cancel an ACTIVE order link" } })
    .input(LinkIdInput)
    .output(LinkView)
    .mutation(({ ctx, input }) => cancelLink(ctx, ctx.caller, input.id, ctx.origin)),
});
