import type { Db } from "../../platform/db/client.js";
import { AppError } from "../../platform/lib/errors.js";
import { constantTimeEqual, sha256Hex } from "../../platform/lib/crypto.js";
import { newSecret } from "../../platform/lib/ids.js";
import { Semaphore } from "../../platform/lib/semaphore.js";
import type { AuthenticationGate, Authenticator, IssuedToken } from "../shared/authenticator.js";
import type { Caller } from "../shared/caller.js";
import * as repo from "./auth.repo.js";
import { TokenFailureLimit, type FailureLimitSettings } from "./token-failures.js";
import { UnknownTokens } from "./unknown-tokens.js";

export const TOKEN_TTL_SECONDS = 3600;
/** How long a verified token is trusted without asking the database again. */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;
/** Look-ups of never-seen tokens waiting for a permit; more at once answer 503. */
const MAX_WAITING_LOOKUPS = 100;

export interface AuthOptions {
  /** Failed token requests allowed per client id and per address in a window (default 10 in 5 minutes). */
  tokenFailures?: FailureLimitSettings;
  /**
   * Token checks that may hold a pooled connection at once (default 1; see tokenChecksFor): client credentials at
   * the token endpoint, and, apart, look-ups of bearer tokens this process has never seen valid.
   */
  concurrentChecks?: number;
  now?: () => number;
}

/** An API client whose credentials were just verified. */
type VerifiedClient = repo.ClientRecord & { clientId: string };

const invalidClient = () => new AppError("UNAUTHORIZED", "invalid_client", { body: { error: "invalid_client" } });

const busy = () => new AppError("UNAVAILABLE", "Too many token checks at once; retry shortly", { headers: { "Retry-After": "1" } });

const unauthorized = (message: string, error = "invalid_token") =>
  new AppError("UNAUTHORIZED", message, { headers: { "WWW-Authenticate": `Bearer error="${error}"` } });

interface CachedCaller {
  caller: Caller;
  expiresAt: number;
  checkedAt: number;
}

/** OAuth 2.0 client credentials: issues opaque bearer tokens and resolves them to a distributor. */
export class AuthService implements Authenticator {
  private readonly cache = new Map<string, CachedCaller>();
  /**
   * The entries of `cache` by the Authorization header that last found them, so that a repeat skips the
   * token's SHA-256 (about half a microsecond a request). It holds raw tokens, so it is emptied 30 s
   * (CACHE_TTL_MS) after its first entry, whatever their age, and bounded like `cache`; an entry counts only
   * while the one it shares with `cache` does.
   */
  private readonly byHeader = new Map<string, CachedCaller>();
  private readonly lookups = new Map<string, Promise<Caller | null>>();
  /** Token hashes the database just said are not live: a repeat is refused without a query. */
  private readonly unknown: UnknownTokens;
  /**
   * Look-ups of tokens never seen valid here (made-up ones included) share a few connections, so that a flood of
   * them from many addresses cannot take the pool; a token seen valid is looked up without waiting.
   */
  private readonly strangers: Semaphore;

  private readonly now: () => number;
  private readonly failures: TokenFailureLimit;

  constructor(private readonly db: Db, options: AuthOptions = {}) {
    this.now = options.now ?? Date.now;
    this.failures = new TokenFailureLimit(db, options.tokenFailures ?? { limit: 10, windowMs: 300_000 }, this.now, options.concurrentChecks);
    this.unknown = new UnknownTokens(this.now);
    this.strangers = new Semaphore(options.concurrentChecks ?? 1, MAX_WAITING_LOOKUPS);
  }

  /**
   * Credentials in, token out: `admit` runs between the check and the issue (the token endpoint spends the
   * client's request budget there); callers inside the process pass none.
   */
  async issueToken(clientId: string, clientSecret: string, address = "unknown", admit?: (clientId: string) => void): Promise<IssuedToken> {
    const client = await this.verifyClient(clientId, clientSecret, address);
    admit?.(client.clientId);
    return this.issueTokenFor(client);
  }

  /**
   * Checks a client's credentials: 401 invalid_client when they are wrong, 429 RATE_LIMITED while
   * the client id or the address has too many recent failures (even for the right secret).
   */
  private async verifyClient(clientId: string, clientSecret: string, address: string): Promise<VerifiedClient> {
    const client = await this.failures.attempt(clientId, address, async (tx) => {
      const found = await repo.findActiveClient(tx, clientId);
      // Compare a hash even for an unknown client, so timing does not reveal which client ids exist.
      const presented = sha256Hex(clientSecret);
      const matches = constantTimeEqual(presented, found?.secretHash ?? sha256Hex(`unknown:${clientSecret}`));
      return found && matches ? { ...found, clientId } : null;
    });
    if (!client) throw invalidClient();
    return client;
  }

  private async issueTokenFor(client: VerifiedClient): Promise<IssuedToken> {
    const accessToken = newSecret("mfat");
    const tokenHash = sha256Hex(accessToken);
    // 256 random bits: a hash remembered as unknown is never issued in practice; forgetting it costs nothing.
    this.unknown.forget(tokenHash);
    const now = this.now();
    const expiresAt = now + TOKEN_TTL_SECONDS * 1000;
    await repo.insertToken(this.db, { tokenHash, apiClientId: client.id, distributorId: client.distributorId, expiresAt: new Date(expiresAt) });
    // Known as issued, never as checked: its first request still asks the database (a revocation counts at
    // once), but not the address's budget (see authenticate), so a flood from its address does not refuse it.
    this.remember(tokenHash, { caller: { distributorId: client.distributorId, clientId: client.clientId }, expiresAt, checkedAt: -Infinity });
    return { access_token: accessToken, token_type: "Bearer", expires_in: TOKEN_TTL_SECONDS };
  }

  /**
   * Resolves an `Authorization` header to its caller, or throws 401. A token checked valid within 30 s is
   * answered from memory; any other header first spends one request of `gate` (429 beyond it), given back
   * when the token proves valid. A token seen valid before (its entry lapsed) does not need the gate, and
   * a hash the database has just called unknown is refused without asking again.
   */
  async authenticate(header: string | undefined, gate?: AuthenticationGate): Promise<Caller> {
    if (!header) {
      gate?.spend();
      throw unauthorized("A bearer token is required (Authorization: Bearer <token>)", "invalid_request");
    }
    const recent = this.byHeader.get(header);
    if (recent) {
      const now = this.now();
      if (recent.expiresAt > now && now - recent.checkedAt < CACHE_TTL_MS) return recent.caller;
    }
    const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
    if (!match?.[1]) {
      gate?.spend();
      throw unauthorized("The Authorization header must be 'Bearer <token>'", "invalid_request");
    }

    const tokenHash = sha256Hex(match[1]);
    const now = this.now();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.expiresAt > now && now - cached.checkedAt < CACHE_TTL_MS) {
      this.rememberHeader(header, cached);
      return cached.caller;
    }

    const gated = cached === undefined ? gate : undefined;
    gated?.spend();
    const caller = this.unknown.has(tokenHash) ? null : await this.lookUp(tokenHash, now, cached !== undefined);
    if (!caller) throw unauthorized("The access token is invalid or has expired: get a new one from POST /api/auth/v1/token");
    gated?.refund();
    return caller;
  }

  private rememberHeader(header: string, entry: CachedCaller): void {
    if (this.byHeader.size === 0) setTimeout(() => this.byHeader.clear(), CACHE_TTL_MS).unref();
    if (this.byHeader.size < CACHE_MAX_ENTRIES) this.byHeader.set(header, entry);
  }

  /**
   * One database look-up per token at a time: requests that miss the cache together (every
   * connection of a busy client when its entry lapses) wait for the same answer.
   */
  private lookUp(tokenHash: string, now: number, seenValid: boolean): Promise<Caller | null> {
    const pending = this.lookups.get(tokenHash);
    if (pending) return pending;
    const lookup = seenValid ? this.findCaller(tokenHash, now) : this.strangers.run(() => this.findCaller(tokenHash, now), busy);
    this.lookups.set(tokenHash, lookup);
    const forget = () => {
      if (this.lookups.get(tokenHash) === lookup) this.lookups.delete(tokenHash);
    };
    lookup.then(forget, forget);
    return lookup;
  }

  private async findCaller(tokenHash: string, now: number): Promise<Caller | null> {
    const token = await repo.findLiveToken(this.db, tokenHash, new Date(now));
    if (!token) {
      this.cache.delete(tokenHash);
      this.unknown.remember(tokenHash);
      return null;
    }
    const caller = { distributorId: token.distributorId, clientId: token.apiClient.clientId };
    this.remember(tokenHash, { caller, expiresAt: token.expiresAt.getTime(), checkedAt: now });
    return caller;
  }

  private remember(tokenHash: string, entry: CachedCaller): void {
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(tokenHash, entry);
  }
}
