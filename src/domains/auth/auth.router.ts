import { spendBudget } from "../../platform/lib/request-budget.js";
import { publicProcedure, router } from "../shared/procedures.js";
import { TokenRequest, TokenResponse } from "./auth.schemas.js";

export const authRouter = router({
  token: publicProcedure
    .meta({
      openapi: {
        method: "POST",
        path: "/api/auth/v1/token",
        protect: false,
        tags: ["auth"],
        summary: "Issue an access token (OAuth 2.0 client credentials)",
        description:
          "Bad credentials answer 401 with the OAuth 2.0 body `{\"error\": \"invalid_client\"}`. After 10 failures in 5 minutes " +
          "for a client id or from an address, requests for it answer 429 `RATE_LIMITED` with `Retry-After`, even with the right " +
          "secret, until the window passes. A token request spends one request of the client's budget.",
        contentTypes: ["application/json", "application/x-www-form-urlencoded"],
      },
    })
    .input(TokenRequest)
    .output(TokenResponse)
    .mutation(({ ctx, input }) =>
      ctx.auth.issueToken(input.client_id, input.client_secret, ctx.clientIp, (clientId) => spendBudget(ctx.budget, clientId, ctx.response.headers)),
    ),
});
