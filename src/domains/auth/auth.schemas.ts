import { z } from "zod";

export const TokenRequest = z
  .strictObject({
    grant_type: z.literal("client_credentials").describe("Always `client_credentials`."),
    client_id: z.string().min(1).max(128).describe("The API client id issued to the distributor."),
    client_secret: z.string().min(1).max(256).describe("The API client secret (shown once at creation)."),
    scope: z.string().max(256).optional().describe("Accepted for OAuth 2.0 compatibility; ignored."),
  })
  .describe("OAuth 2.0 client-credentials grant. Send as JSON or application/x-www-form-urlencoded; HTTP Basic client authentication is also accepted.");

export const TokenResponse = z.object({
  access_token: z.string().describe("Opaque bearer token. Send as `Authorization: Bearer <token>`."),
  token_type: z.literal("Bearer").describe("Always `Bearer`."),
  expires_in: z.number().int().describe("Lifetime in seconds (3600)."),
});
