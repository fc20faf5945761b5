import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The `X-MF-Signature` scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with
 * the subscription secret; while a secret is being rotated, a second `v1` keyed with the replaced one follows. Receivers verify the raw body bytes, never a re-serialised JSON value.
 */

export type SignatureVerdict =
  | { valid: true; timestamp: number }
  | { valid: false; reason: "missing" | "malformed" | "expired" | "mismatch" };

export const DEFAULT_TOLERANCE_SECONDS = 300;

function assertInputs(rawBody: unknown, secret: unknown): asserts rawBody is string | Buffer {
  if (typeof rawBody !== "string" && !Buffer.isBuffer(rawBody)) {
    // The most common receiver bug: passing a parsed JSON body, whose re-serialisation differs.
    throw new TypeError("rawBody must be the raw request body as a string or Buffer, not a parsed value");
  }
  if (typeof secret !== "string" || secret === "") {
    // An unset secret must not turn into "anyone can sign with the empty key".
    throw new TypeError("secret must be a non-empty string");
  }
}

function hmacHex(rawBody: string | Buffer, secret: string, timestamp: number): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * The header value for `rawBody` signed at `timestamp` (unix seconds): one `v1` per secret, in the order
 * given (while a secret is being rotated: the new one, then the one it replaces).
 */
export function signPayload(rawBody: string | Buffer, secret: string | readonly string[], timestamp: number): string {
  // Anything but an array is one secret, so an unset one (`undefined` from the environment) is named as such.
  const secrets: readonly unknown[] = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0) throw new TypeError("at least one secret is needed");
  for (const one of secrets) assertInputs(rawBody, one);
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError("timestamp must be whole unix seconds");
  const keys = secrets as readonly string[]; // each one checked just above
  return [`t=${timestamp}`, ...keys.map((one) => `v1=${hmacHex(rawBody, one, timestamp)}`)].join(",");
}

type ParsedHeader = { timestamp: number; signatures: string[] };

/** Reads `t=...,v1=...[,v1=...]`; other schemes' entries are ignored so new ones can be added later. */
function parseHeader(header: string): ParsedHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const entry = part.trim();
    if (entry === "") continue;
    const separator = entry.indexOf("=");
    if (separator <= 0) return null;
    const key = entry.slice(0, separator).trim();
    const value = entry.slice(separator + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !/^\d{1,15}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-fA-F]+$/.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

/** Both sides are ASCII hex (the candidate passed the parser's check), so any byte encoding gives the same bytes. */
function sameHex(expected: string, candidate: string): boolean {
  const left = Buffer.from(expected);
  const right = Buffer.from(candidate);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Checks an `X-MF-Signature` header against the raw request body. Any one matching `v1` entry is enough
 * (several are sent while a secret is being rotated). The timestamp must be within `toleranceSeconds`
 * (default 300) of `now`, in either direction; it is checked after the signature, so "expired" is only
 * ever said of an authentic delivery.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  header: string | undefined | null,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): SignatureVerdict {
  assertInputs(rawBody, secret);
  if (header === undefined || header === null || header.trim() === "") return { valid: false, reason: "missing" };
  const parsed = parseHeader(header);
  if (parsed === null) return { valid: false, reason: "malformed" };

  const expected = hmacHex(rawBody, secret, parsed.timestamp);
  let matched = false;
  // Every entry is compared (no early exit), so timing does not reveal which one matched.
  for (const signature of parsed.signatures) matched = sameHex(expected, signature) || matched;
  if (!matched) return { valid: false, reason: "mismatch" };

  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - parsed.timestamp) > tolerance) return { valid: false, reason: "expired" };
  return { valid: true, timestamp: parsed.timestamp };
}

/** A valid header for `rawBody` signed now (or at `now`), for receivers' own tests. */
export function buildTestSignatureHeader(rawBody: string | Buffer, secret: string, now: number = Math.floor(Date.now() / 1000)): string {
  return signPayload(rawBody, secret, now);
}
