import { createHash } from "node:crypto";

export interface StaticResponse {
  json: string;
  etag: string;
  /** Whether the procedure behind it needs a bearer token. */
  protect: boolean;
  /** The operation's path template (rest-routes.ts). */
  route: string;
}

/**
 * Serialized responses of `cache: "static"` procedures, keyed by path and query. The first request
 * runs the procedure (validation and all); repeats are answered from here after authentication.
 * Bounded: the oldest entry goes when it is full.
 */
export class StaticResponses {
  private readonly entries = new Map<string, StaticResponse>();

  constructor(private readonly maxEntries = 2_000) {}

  get(key: string): StaticResponse | undefined {
    return this.entries.get(key);
  }

  remember(key: string, json: string, protect: boolean, route: string): StaticResponse {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    const entry = { json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"`, protect, route };
    this.entries.set(key, entry);
    return entry;
  }
}
