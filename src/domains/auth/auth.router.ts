import { spendBudget } from "../../platform/lib/request-budget.js";
import type { TagDoc } from "../../platform/openapi/docs.js";
import { EXAMPLE_PLACEHOLDERS as P } from "../shared/docs.js";
import { publicProcedure, router } from "../shared/procedures.js";
import { TokenRequest, TokenResponse } from "./auth.schemas.js";

export const AUTH_TAG: TagDoc = {
  name: "auth",
  description: "Access tokens for API clients (OAuth 2.0 client credentials). Every other operation but the public link pages needs one.",
};

const token = { grant_type: "client_credentials", client_id: P.clientId, client_secret: P.clientSecret };

export const authRouter = router({
  token: publicProcedure
    .meta({
      openapi: { method: "POST", path: "/api/auth/v1/token", protect: false, contentTypes: ["application/json", "application/x-www-form-urlencoded"] },
      docs: {
        tag: AUTH_TAG,
        summary: "Issue an access token (OAuth 2.0 client credentials)",
        description:
          "Bad credentials answer 401 with the OAuth 2.0 body `{\"error\": \"invalid_client\"}`. After 10 failures in 5 minutes " +
          "for a client id or from an address, requests for it answer 429 `RATE_LIMITED` with `Retry-After`, even with the right " +
          "secret, until the window passes. A token request spends one request of the client's budget.",
        responses: {
          "401": {
            description:
              "Unknown client or wrong secret: check client_id and client_secret (the sandbox prints them at start-up). " +
              "OAuth 2.0 error body (RFC 6749 section 5.2), not the envelope.",
            schema: {
              type: "object",
              description: "OAuth 2.0 error body.",
              required: ["error"],
              properties: { error: { type: "string", enum: ["invalid_client"], description: "Always `invalid_client`." } },
            },
          },
          "415": {
            description:
              "The body is neither JSON nor a form (UNSUPPORTED_MEDIA_TYPE): send `Content-Type: application/json` or " +
              "`application/x-www-form-urlencoded`.",
          },
          "429": {
            description:
              "Too many failed token requests for this client id or from this address (RATE_LIMITED, until the window " +
              "passes, even with the right secret: check the credentials and wait `Retry-After` seconds), or the client's " +
              "request budget is spent.",
            headers: ["Retry-After"],
          },
        },
        examples: { "application/json": token, "application/x-www-form-urlencoded": token },
      },
    })
    .input(TokenRequest)
    .output(TokenResponse)
    .mutation(({ ctx, input }) =>
      ctx.auth.issueToken(input.client_id, input.client_secret, ctx.clientIp, (clientId) => spendBudget(ctx.budget, clientId, ctx.response.headers)),
    ),
});
