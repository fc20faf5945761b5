import { isIP } from "node:net";

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
