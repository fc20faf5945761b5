import { publicProcedure, router } from "../trpc/init.js";
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
        description: "Bad credentials answer 401 with the OAuth 2.0 body `{\"error\": \"invalid_client\"}`.",
        contentTypes: ["application/json", "application/x-www-form-urlencoded"],
      },
    })
    .input(TokenRequest)
    .output(TokenResponse)
    .mutation(({ ctx, input }) => ctx.auth.issueToken(input.client_id, input.client_secret)),
});
