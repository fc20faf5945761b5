/**
 * Deterministic values for the generated data: ids in the service's own format (a prefix, 48-bit milliseconds,
 * 80 more bits; see src/platform/lib/ids.ts newId) made from a row's time and number instead of random bytes,
 * so a delivery can name its event's id without the generator keeping 50M ids in memory; made-up PANs; and
 * an integer hash standing in for a random number generator (the same scale always gives the same data).
 */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

export function idAt(prefix: string, timeMs: number, n: number): string {
  const bytes = new Uint8Array(16);
  let time = timeMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  let rest = n;
  for (let i = 15; i >= 6; i--) {
    bytes[i] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += CROCKFORD[(buffer << (5 - bits)) & 31];
  return `${prefix}_${out}`;
}

/** A well-mixed 32-bit hash of (n, salt), in [0, 1). */
export function unit(n: number, salt: number): number {
  let h = (Math.imul(n ^ (n >>> 16), 0x45d9f3b) + Math.imul(salt + 1, 0x9e3779b1)) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h ^= h >>> 16;
  h = Math.imul(h ^ (n / 4294967296), 0x27d4eb2d);
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/** A distinct, well-formed, made-up individual PAN for each n (bench/holdings-lookup.ts and bench/hot-reads.ts send them too). */
export function panOf(n: number): string {
  const l = (k: number) => LETTERS[Math.floor(k) % 26]!;
  return `${l(n)}${l(n / 26)}${l(n / 676)}P${l(n / 17576)}${1000 + (Math.floor(n / 456976) % 9000)}${l(n * 7)}`;
}

/** A timestamp's text for COPY (UTC, milliseconds). */
export const stamp = (ms: number): string => new Date(ms).toISOString();
/** A date's text for COPY (its UTC day; the generator's dates are business dates already). */
export const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
