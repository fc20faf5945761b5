import { addressKey } from "../../platform/lib/address-key.js";
import { AppError } from "../../platform/lib/errors.js";
import { spendBudget, type RequestBudget } from "../../platform/lib/request-budget.js";
import type { Caller } from "./caller.js";

/**
 * What requests ask of authentication (the services' `auth`): the caller a bearer token stands for, and the
 * token endpoint. auth/auth.service.ts implements it; shared/ names only this interface, so the auth domain
 * depends on shared/ and never the other way round.
 */
export interface Authenticator {
  /**
   * Resolves an `Authorization` header to its caller, or throws 401. Unless the token is one it has seen valid,
   * it first spends one request of `gate` (which may throw 429) and gives it back when the token proves valid,
   * so only failed authentications cost their address anything.
   */
  authenticate(header: string | undefined, gate?: AuthenticationGate): Promise<Caller>;
  /**
   * OAuth 2.0 client credentials: checks them (401 invalid_client; 429 RATE_LIMITED while the client id or the
   * address has too many recent failures), then lets `admit` refuse or count the request (the token endpoint
   * spends one of the client's budget), then issues a token.
   */
  issueToken(clientId: string, clientSecret: string, address?: string, admit?: (clientId: string) => void): Promise<IssuedToken>;
}

/** The budget an authentication that may fail spends: the client address's (see admitCaller). */
export interface AuthenticationGate {
  /** Spends one request, or throws 429 RATE_LIMITED. */
  spend(): void;
  /** Gives the request back: the token was valid. */
  refund(): void;
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
 * response, the signed form's routes). A failed authentication spends one request of the client address's budget
 * (`addressBudget`, an IPv4 address or an IPv6 /64): beyond it, requests whose token is not known valid answer 429
 * before any database query, so a flood of made-up tokens cannot take the pool.
 */
export async function admitCaller(
  services: { auth: Authenticator; budget: RequestBudget; addressBudget: RequestBudget },
  request: { authorization: string | undefined; clientIp: string },
  headers: Record<string, string>,
): Promise<Caller> {
  const caller = await services.auth.authenticate(request.authorization, addressGate(services.addressBudget, request.clientIp));
  spendBudget(services.budget, caller.clientId, headers);
  return caller;
}

function addressGate(budget: RequestBudget, clientIp: string): AuthenticationGate {
  const key = `address:${addressKey(clientIp)}`;
  return {
    spend() {
      const verdict = budget.take(key);
      if (!verdict.allowed) {
        throw new AppError("RATE_LIMITED", `Too many failed authentications from this address; retry after ${verdict.headers["Retry-After"]} s`, {
          headers: verdict.headers,
        });
      }
    },
    refund: () => budget.refund(key),
  };
}
