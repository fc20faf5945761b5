import type { Resolver } from "../../platform/lib/resolver.js";
import { portProblem } from "./target-port-number.js";

/**
 * The public-address check for webhook targets: a target is delivered to only when every address it
 * names or resolves to is public unicast. The caller then connects to exactly the addresses returned
 * (see outbound.ts), so a second DNS answer cannot redirect the request.
 */

export type AddressVerdict = { public: true } | { public: false; reason: string };

export type TargetCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

// ---------------------------------------------------------------------------------------------------
// Parsing: any spelling of an IP literal to one normal form.

type Parsed = { version: 4; value: number } | { version: 6; value: bigint };

/**
 * The WHATWG URL host parser's IPv4 number: decimal, 0x hex or 0-prefixed octal. Returns null when the
 * part is not a number at all.
 */
function parseIpv4Number(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(digits)) {
    digits = digits.slice(2);
    radix = 16;
  } else if (digits.length > 1 && digits.startsWith("0")) {
    digits = digits.slice(1);
    radix = 8;
  }
  if (digits === "") return 0; // "0x" alone is zero in the URL standard
  const pattern = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return null;
  return Number.parseInt(digits, radix);
}

/**
 * IPv4 as the URL standard reads it: one to four parts, the last filling the remaining bytes
 * ("127.1", "2130706433", "0x7f.0.0.1"). A trailing dot is allowed. Null when not an IPv4 literal.
 */
function parseIpv4(input: string): number | null {
  const parts = input.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length === 0 || parts.length > 4 || parts.some((part) => part === "")) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const number = parseIpv4Number(part);
    if (number === null) return null;
    numbers.push(number);
  }
  const last = numbers.pop()!;
  if (numbers.some((number) => number > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  let value = last;
  numbers.forEach((number, index) => {
    value += number * 256 ** (3 - index);
  });
  return value;
}

/** RFC 4291 text forms, including "::" compression and a trailing dotted IPv4. Null when invalid. */
function parseIpv6(input: string): bigint | null {
  if (!/^[0-9a-f:.]+$/i.test(input)) return null;
  let text = input;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    const dotted = text.slice(lastColon + 1);
    // Only the strict dotted-quad form is allowed inside IPv6.
    if (!/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(dotted)) return null;
    const bytes = dotted.split(".").map(Number) as [number, number, number, number];
    tail = [bytes[0] * 256 + bytes[1], bytes[2] * 256 + bytes[3]];
    const prefix = text.slice(0, lastColon + 1);
    text = prefix.endsWith("::") ? prefix : prefix.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const toGroups = (half: string | undefined): number[] | null => {
    if (half === undefined || half === "") return [];
    const groups = half.split(":");
    if (groups.some((group) => !/^[0-9a-f]{1,4}$/i.test(group))) return null;
    return groups.map((group) => Number.parseInt(group, 16));
  };
  const head = toGroups(halves[0]);
  const rest = toGroups(halves[1]);
  if (head === null || rest === null) return null;
  const after = [...rest, ...tail];
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - after.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...after];
  } else {
    groups = [...head, ...after];
    if (groups.length !== 8) return null;
  }
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function parseAddress(host: string): Parsed | null {
  const trimmed = host.trim();
  if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
    const value = parseIpv6(trimmed.slice(1, -1));
    return value === null ? null : { version: 6, value };
  }
  if (trimmed.includes(":")) {
    const value = parseIpv6(trimmed);
    return value === null ? null : { version: 6, value };
  }
  const value = parseIpv4(trimmed);
  return value === null ? null : { version: 4, value };
}

function formatIpv4(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

/** Compressed lowercase form, as the URL standard and RFC 5952 write it (longest zero run of 2+). */
function formatIpv6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, index) => Number((value >> BigInt((7 - index) * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; start++) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === 0) length++;
    if (length > bestLength) {
      bestStart = start;
      bestLength = length;
    }
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

function format(address: Parsed): string {
  return address.version === 4 ? formatIpv4(address.value) : formatIpv6(address.value);
}

/**
 * The normalized address when `host` is an IP literal in any spelling (IPv4 in the URL standard's
 * decimal/octal/hex/short forms, IPv6 with or without brackets), else null: a DNS name.
 */
export function parseHostLiteral(host: string): string | null {
  const parsed = parseAddress(host);
  return parsed === null ? null : format(parsed);
}

// ---------------------------------------------------------------------------------------------------
// Judging: exact prefix matches, most specific first.

type Ipv4Range = { base: number; bits: number; reason: string };
type Ipv6Range = { base: bigint; bits: number; reason: string };

function ipv4Range(cidr: string, reason: string): Ipv4Range {
  const [base, bits] = cidr.split("/");
  return { base: parseIpv4(base!)!, bits: Number(bits), reason };
}

function ipv6Range(cidr: string, reason: string): Ipv6Range {
  const [base, bits] = cidr.split("/");
  return { base: parseIpv6(base!)!, bits: Number(bits), reason };
}

const IPV4_REFUSED: Ipv4Range[] = [
  ipv4Range("169.254.169.254/32", "metadata"),
  ipv4Range("168.63.129.16/32", "metadata"), // Azure's host endpoint, reachable from every VM
  ipv4Range("255.255.255.255/32", "broadcast"),
  ipv4Range("192.0.0.0/24", "reserved"),
  ipv4Range("192.0.2.0/24", "documentation"),
  ipv4Range("192.88.99.0/24", "6to4 relay"),
  ipv4Range("198.51.100.0/24", "documentation"),
  ipv4Range("203.0.113.0/24", "documentation"),
  ipv4Range("169.254.0.0/16", "link-local"),
  ipv4Range("192.168.0.0/16", "private"),
  ipv4Range("198.18.0.0/15", "benchmarking"),
  ipv4Range("172.16.0.0/12", "private"),
  ipv4Range("100.64.0.0/10", "carrier-grade NAT"),
  ipv4Range("0.0.0.0/8", "unspecified"),
  ipv4Range("10.0.0.0/8", "private"),
  ipv4Range("127.0.0.0/8", "loopback"),
  ipv4Range("224.0.0.0/4", "multicast"),
  ipv4Range("240.0.0.0/4", "reserved"),
];

const IPV6_REFUSED: Ipv6Range[] = [
  ipv6Range("::/128", "unspecified"),
  ipv6Range("::1/128", "loopback"),
  ipv6Range("fd00:ec2::254/128", "metadata"), // AWS's IPv6 instance metadata endpoint
  ipv6Range("100::/64", "discard"),
  ipv6Range("64:ff9b:1::/48", "local-use NAT64"),
  ipv6Range("2001::/32", "Teredo"),
  ipv6Range("2001:db8::/32", "documentation"),
  ipv6Range("2001::/23", "IETF special-purpose"),
  ipv6Range("3fff::/20", "documentation"),
  ipv6Range("fe80::/10", "link-local"),
  ipv6Range("fec0::/10", "site-local"),
  ipv6Range("fc00::/7", "unique-local"),
  ipv6Range("ff00::/8", "multicast"),
];

function inIpv4Range(value: number, range: Ipv4Range): boolean {
  const size = 2 ** (32 - range.bits);
  return Math.floor(value / size) === Math.floor(range.base / size);
}

function inIpv6Range(value: bigint, range: Ipv6Range): boolean {
  const shift = BigInt(128 - range.bits);
  return value >> shift === range.base >> shift;
}

function judgeIpv4(value: number): AddressVerdict {
  const range = IPV4_REFUSED.find((candidate) => inIpv4Range(value, candidate));
  return range ? { public: false, reason: range.reason } : { public: true };
}

/** IPv6 forms that carry an IPv4 address the packet ends up at: judged by that address. */
const IPV4_CARRIERS: { range: Ipv6Range; embedded: (value: bigint) => number }[] = [
  { range: ipv6Range("::ffff:0:0/96", "IPv4-mapped"), embedded: (value) => Number(value & 0xffffffffn) },
  { range: ipv6Range("64:ff9b::/96", "NAT64"), embedded: (value) => Number(value & 0xffffffffn) },
  { range: ipv6Range("2002::/16", "6to4"), embedded: (value) => Number((value >> 80n) & 0xffffffffn) },
  // Deprecated IPv4-compatible form; "::" and "::1" are judged as themselves before this applies.
  { range: ipv6Range("::/96", "IPv4-compatible"), embedded: (value) => Number(value & 0xffffffffn) },
];

const GLOBAL_UNICAST = ipv6Range("2000::/3", "global unicast");

function judgeIpv6(value: bigint): AddressVerdict {
  if (value === 0n || value === 1n) return judgeListedIpv6(value);
  for (const carrier of IPV4_CARRIERS) {
    if (!inIpv6Range(value, carrier.range)) continue;
    const inner = judgeIpv4(carrier.embedded(value));
    return inner.public ? inner : { public: false, reason: `${carrier.range.reason} ${inner.reason}` };
  }
  const listed = judgeListedIpv6(value);
  if (!listed.public) return listed;
  // Everything outside 2000::/3 is unallocated or special-purpose (RFC 4291, IANA registry).
  return inIpv6Range(value, GLOBAL_UNICAST) ? listed : { public: false, reason: "reserved" };
}

function judgeListedIpv6(value: bigint): AddressVerdict {
  const range = IPV6_REFUSED.find((candidate) => inIpv6Range(value, candidate));
  return range ? { public: false, reason: range.reason } : { public: true };
}

/** Whether an IPv4 or IPv6 literal is a public unicast address; if not, a short reason ("loopback"). */
export function addressVerdict(ip: string): AddressVerdict {
  const parsed = parseAddress(ip);
  if (parsed === null) return { public: false, reason: "not an IP address" };
  return parsed.version === 4 ? judgeIpv4(parsed.value) : judgeIpv6(parsed.value);
}

// ---------------------------------------------------------------------------------------------------
// The target check.

/** Special-use names that never lead to a public receiver (RFC 6761, RFC 6762, RFC 8375, ICANN .internal). */
const PRIVATE_NAME_SUFFIXES = ["localhost", "internal", "local", "home.arpa"];

function withArticle(reason: string): string {
  return /^(?:[aeio]|un(?!i)|IPv|IETF)/i.test(reason) ? `an ${reason}` : `a ${reason}`;
}

function refusedAddress(subject: string, address: string, reason: string): TargetCheck {
  return { ok: false, reason: `${subject} ${address}, ${withArticle(reason)} address; webhook targets must be public` };
}

function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Decides whether `rawUrl` may receive webhooks: https, no credentials, port 443 or 1024-65535 (not an infrastructure port), and
 * every address public (unless `allowPrivate`, the development switch, which still demands all the
 * rest).
 * The fragment is dropped from the returned URL; it is never sent anyway.
 */
export async function checkTarget(
  rawUrl: string,
  options: { allowPrivate: boolean; resolve: Resolver },
): Promise<TargetCheck> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: "url is not a valid absolute URL" };
  }
  if (url.protocol !== "https:") return { ok: false, reason: "url must use https" };
  if (url.username !== "" || url.password !== "") return { ok: false, reason: "url must not carry credentials" };
  const badPort = portProblem(url);
  if (badPort !== null) return { ok: false, reason: badPort };
  url.hash = "";

  const host = url.hostname;
  const literal = parseHostLiteral(host);
  if (literal !== null) {
    const verdict = addressVerdict(literal);
    if (!verdict.public && !options.allowPrivate) return refusedAddress("url host is", literal, verdict.reason);
    return { ok: true, url, addresses: [literal] };
  }

  const name = host.replace(/\.$/, "");
  if (!options.allowPrivate) {
    const suffix = PRIVATE_NAME_SUFFIXES.find((candidate) => name === candidate || name.endsWith(`.${candidate}`));
    if (suffix === "localhost") return { ok: false, reason: `url host ${host} is a loopback name; webhook targets must be public` };
    if (suffix) return { ok: false, reason: `url host ${host} is a private-use name (.${suffix}); webhook targets must be public` };
    // A single label is completed by the resolver's search domains, i.e. the local network's names.
    if (!name.includes(".")) return { ok: false, reason: `url host ${host} is not a fully qualified domain name` };
  }

  let answers: string[];
  try {
    answers = await options.resolve(host);
  } catch (error) {
    return { ok: false, reason: `url host ${host} does not resolve (${describeError(error)})` };
  }
  if (answers.length === 0) return { ok: false, reason: `url host ${host} does not resolve` };

  const addresses: string[] = [];
  for (const answer of answers) {
    const address = parseHostLiteral(answer);
    if (address === null) return { ok: false, reason: `url host ${host} resolves to ${answer}, which is not an IP address` };
    const verdict = addressVerdict(address);
    if (!verdict.public && !options.allowPrivate) return refusedAddress(`url host ${host} resolves to`, address, verdict.reason);
    if (!addresses.includes(address)) addresses.push(address);
  }
  return { ok: true, url, addresses };
}
