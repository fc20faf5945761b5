/**
 * A typed REST client of the service: the types are generated from openapi.json by openapi-typescript
 * (`npm run client:generate` rewrites ./openapi.d.ts; a test fails when it is stale) and the requests go
 * through openapi-fetch, so every path, parameter, body and answer is checked by the compiler.
 *
 *   const token = await fetchToken(base, clientId, clientSecret);
 *   const mf = createMfClient({ baseUrl: base, token });
 *   const { data, error, response } = await mf.POST("/api/orders/v1/", { body: {...}, headers: { "Idempotency-Key": "k1" } });
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./openapi.js";

export type { components, operations, paths } from "./openapi.js";
export type MfClient = Client<paths>;

export interface MfClientOptions {
  /** The service's base URL, such as `http://localhost:3000`. */
  baseUrl: string;
  /** A bearer token (`fetchToken`), or a function that answers the current one (refresh it before its 3600 s run out). */
  token?: string | (() => string | Promise<string>);
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export function createMfClient(options: MfClientOptions): MfClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const { token } = options;
  if (token !== undefined) {
    client.use({
      async onRequest({ request }) {
        request.headers.set("Authorization", `Bearer ${typeof token === "function" ? await token() : token}`);
        return request;
      },
    });
  }
  return client;
}

/** Exchanges API client credentials for a bearer token (OAuth 2.0 client credentials); throws on any refusal. */
export async function fetchToken(baseUrl: string, clientId: string, clientSecret: string, fetchImpl = globalThis.fetch): Promise<string> {
  const { data, response } = await createMfClient({ baseUrl, fetch: fetchImpl }).POST("/api/auth/v1/token", {
    body: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
  if (!data) throw new Error(`token request refused: HTTP ${response.status}`);
  return data.access_token;
}
