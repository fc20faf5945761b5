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

/** The client address of a request served by @hono/node-server, `trustedHops` proxies (MF_TRUST_PROXY) in front. */
export function requestClientAddress(c: { env: unknown; req: { header(name: string): string | undefined } }, trustedHops: number): string {
  return clientAddress(socketAddress(c.env), trustedHops > 0 ? c.req.header("x-forwarded-for") : undefined, trustedHops);
}

/** The peer address of a request served by @hono/node-server (its bindings carry the Node request). */
export function socketAddress(bindings: unknown): string | undefined {
  return (bindings as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

function normalize(address: string): string {
  const lower = address.toLowerCase();
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
  return lower.startsWith("::ffff:") && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}
