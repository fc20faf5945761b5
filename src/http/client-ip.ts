import { isIP } from "node:net";

/**
 * The client's address: the socket's peer, or with `trustedHops` proxies in front, the address the
 * outermost trusted proxy saw, read from the right of X-Forwarded-For (entries further left are
 * whatever the client sent, so never trusted). Without a socket (in-process requests) "unknown".
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustedHops: number): string {
  let address = socketAddress ? normalize(socketAddress) : "unknown";
  if (trustedHops === 0 || !forwardedFor) return address;
  const hops = forwardedFor.split(",");
  for (let i = 0; i < trustedHops && hops.length > 0; i++) {
    const candidate = normalize(hops.pop()!.trim());
    if (isIP(candidate) === 0) break;
    address = candidate;
  }
  return address;
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
