/** How long a token hash the database did not know is refused from memory. */
export const UNKNOWN_TOKEN_TTL_MS = 60_000;
export const MAX_UNKNOWN_TOKENS = 10_000;

/**
 * Token hashes the database has just answered "no live token" for, so that a client repeating a made-up
 * (or expired, or revoked) token costs no query: a small map in insertion order, each entry kept 60 s,
 * the oldest dropped when it holds 10,000. An expired or revoked token never becomes valid again, and a
 * made-up one would have to be issued later, which 256 random bits rule out (the issuer forgets the hash
 * anyway); so an entry can only ever save a query, never refuse a valid token.
 */
export class UnknownTokens {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  has(tokenHash: string): boolean {
    const until = this.until.get(tokenHash);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(tokenHash);
    return false;
  }

  remember(tokenHash: string): void {
    this.until.delete(tokenHash);
    if (this.until.size >= MAX_UNKNOWN_TOKENS) this.until.delete(this.until.keys().next().value!);
    this.until.set(tokenHash, this.now() + UNKNOWN_TOKEN_TTL_MS);
  }

  forget(tokenHash: string): void {
    this.until.delete(tokenHash);
  }
}
