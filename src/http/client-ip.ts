import { isIP } from "node:net";

/**
 * The client's address: the socket's peer, or with `trustedHops` proxies in front, the address the
 * outermost trusted proxy saw, read from the right of X-Forwarded-For (entries further left are
 * whatever the client sent, so never trusted). With fewer entries than hops the leftmost counts, as
 * with Express's `trust proxy` set to a hop count; an entry that is no address (after dropping a
 * port and brackets) stops the walk at the one to its right. Without a socket (in-process requests)
 * "unknown".
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustedHops: number): string {
  let address = socketAddress ? normalize(socketAddress) : "unknown";
  if (trustedHops === 0 || !forwardedFor) return address;
  const hops = forwardedFor.split(",");
  for (let i = 0; i < trustedHops && hops.length > 0; i++) {
    const candidate = normalize(withoutPort(hops.pop()!.trim()));
    if (isIP(candidate) === 0) break;
    address = candidate;
  }
  return address;
}

const IPV4_WITH_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/;
const BRACKETED_IPV6 = /^\[([^\]]+)\](?::(\d{1,5}))?$/;

/** `1.2.3.4:5678` and `[2001:db8::1]:443` (or `[2001:db8::1]`) as the bare address; anything else as is. */
function withoutPort(entry: string): string {
  const match = IPV4_WITH_PORT.exec(entry) ?? BRACKETED_IPV6.exec(entry);
  if (!match || Number(match[2] ?? 0) > 65535) return entry;
  const host = match[1]!;
  // Brackets enclose IPv6 only; an IPv4 address in them is malformed.
  return entry.startsWith("[") && isIP(host) !== 6 ? entry : host;
}

/** The peer address of a request served by @hono/node-server (its bindings carry the Node request). */
export function socketAddress(bindings: unknown): string | undefined {
  return (bindings as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

/**
 * The key failures are counted under: an IPv4 address as is, an IPv6 address by its /64 prefix
 * (one subscriber usually holds a whole /64, so counting single addresses would not limit anyone).
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address);
  if (isIpv4Mapped(groups)) return ipv4Of(groups[6]!, groups[7]!);
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** ::ffff:a.b.c.d in any spelling (0:0:0:0:0:ffff:..., hex tail): an IPv4 client on a dual-stack path. */
function isIpv4Mapped(groups: string[]): boolean {
  return groups.slice(0, 5).every((group) => group === "0") && groups[5] === "ffff";
}

function ipv4Of(high: string, low: string): string {
  const [h, l] = [parseInt(high, 16), parseInt(low, 16)];
  return `${h >> 8}.${h & 255}.${l >> 8}.${l & 255}`;
}

function normalize(address: string): string {
  const lower = address.toLowerCase();
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
  return lower.startsWith("::ffff:") && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function expandIpv6(address: string): string[] {
  let text = address.split("%")[0]!.toLowerCase();
  // An embedded IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) becomes two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}
