import { describe, expect, it } from "vitest";
import { clientAddress } from "../../src/platform/http/client-ip.js";
import { addressKey } from "../../src/platform/lib/address-key.js";

describe("the client's address", () => {
  it("is the socket's peer unless proxies are trusted, never what the client wrote in X-Forwarded-For", () => {
    expect(clientAddress("203.0.113.5", "198.51.100.1", 0)).toBe("203.0.113.5");
    expect(clientAddress("::ffff:203.0.113.5", undefined, 0)).toBe("203.0.113.5");
    expect(clientAddress(undefined, undefined, 0)).toBe("unknown");
  });

  it("with n trusted proxies is the n-th address from the right of X-Forwarded-For", () => {
    expect(clientAddress("10.0.0.2", "198.51.100.1, 203.0.113.7", 1)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.2", "198.51.100.1, 203.0.113.7, 10.0.0.1", 2)).toBe("203.0.113.7");
    // Fewer entries than proxies: the leftmost there is, as Express's `trust proxy` with a hop count
    // answers; a malformed entry stops the walk.
    expect(clientAddress("10.0.0.2", "203.0.113.7", 3)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.2", "203.0.113.7, 10.0.0.1", 3)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.2", "not-an-ip, 203.0.113.7", 2)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.2", "garbage", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "2001:DB8::1", 1)).toBe("2001:db8::1");
  });

  it("reads X-Forwarded-For entries with a port or in brackets, as some proxies write them", () => {
    expect(clientAddress("10.0.0.2", "1.2.3.4:5678", 1)).toBe("1.2.3.4");
    expect(clientAddress("10.0.0.2", "[2001:db8::1]:443", 1)).toBe("2001:db8::1");
    expect(clientAddress("10.0.0.2", "[2001:DB8::1]", 1)).toBe("2001:db8::1");
    expect(clientAddress("10.0.0.2", "198.51.100.1:1000, 203.0.113.7:443, [2001:db8::9]:8443", 2)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.2", "[::ffff:1.2.3.4]:80", 1)).toBe("1.2.3.4");
    // Still no address: the walk stops there.
    expect(clientAddress("10.0.0.2", "1.2.3.4:", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "[1.2.3.4]:80", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "1.2.3.4:99999", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "[2001:db8::1", 1)).toBe("10.0.0.2");
  });
});

describe("the key failures are counted under", () => {
  it("is an IPv4 address itself, and an IPv6 address's /64", () => {
    expect(addressKey("203.0.113.5")).toBe("203.0.113.5");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002::9")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("unknown")).toBe("unknown");
  });

  it("is the IPv4 address of an IPv4-mapped IPv6 address, however written", () => {
    expect(addressKey("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(addressKey("0:0:0:0:0:ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(addressKey("0:0:0:0:0:FFFF:0102:0304")).toBe("1.2.3.4");
    expect(addressKey("::ffff:c000:0201")).toBe("192.0.2.1");
    // Not mapped: the IPv4-compatible and NAT64 forms stay IPv6.
    expect(addressKey("::1.2.3.4")).toBe("0:0:0:0::/64");
  });
});
