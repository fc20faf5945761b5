import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

function encodeBase32(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * A prefixed, time-ordered id (48-bit milliseconds + 80 random bits, like a ULID), so ids sort by
 * creation and make stable pagination cursors: `dst_01jq...`.
 */
export function newId(prefix: string, now = Date.now()): string {
  const bytes = new Uint8Array(16);
  let time = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes.set(randomBytes(10), 6);
  return `${prefix}_${encodeBase32(bytes)}`;
}

/** The smallest id newId can make with `prefix` at `time` or later: a bound for "ids made since" over an id index. */
export function idFloor(prefix: string, time: number): string {
  const bytes = new Uint8Array(16);
  let rest = time;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return `${prefix}_${encodeBase32(bytes)}`;
}

/** A prefixed id with 160 random bits and no timestamp, for ids that act as capabilities (links). */
export function newSecretId(prefix: string): string {
  return `${prefix}_${encodeBase32(randomBytes(20))}`;
}

/** A random credential string (256 bits, URL-safe). */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString("base64url")}`;
}
