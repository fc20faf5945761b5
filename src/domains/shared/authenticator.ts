import { spendBudget, type RequestBudget } from "../../platform/lib/request-budget.js";
import type { Caller } from "./caller.js";

/**
 * What requests ask of authentication (the services' `auth`): the caller a bearer token stands for, and the
 * token endpoint. auth/auth.service.ts implements it; shared/ names only this interface, so the auth domain
 * depends on shared/ and never the other way round.
 */
export interface Authenticator {
  /** Resolves an `Authorization` header to its caller, or throws 401. */
  authenticate(header: string | undefined): Promise<Caller>;
  /**
   * OAuth 2.0 client credentials: checks them (401 invalid_client; 429 RATE_LIMITED while the client id or the
   * address has too many recent failures), then lets `admit` refuse or count the request (the token endpoint
   * spends one of the client's budget), then issues a token.
   */
  issueToken(clientId: string, clientSecret: string, address?: string, admit?: (clientId: string) => void): Promise<IssuedToken>;
}

/** An issued bearer token, as the token endpoint answers it. */
export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
}

/**
 * The caller of an authenticated request, with one request of its API client's budget spent (RateLimit-* headers
 * written on `headers`; 401 or 429 thrown): what every bearer-token path does first (procedures, a repeated static
 * response, the signed form's routes).
 */
export async function admitCaller(services: { auth: Authenticator; budget: RequestBudget }, authorization: string | undefined, headers: Record<string, string>): Promise<Caller> {
  const caller = await services.auth.authenticate(authorization);
  spendBudget(services.budget, caller.clientId, headers);
  return caller;
}
