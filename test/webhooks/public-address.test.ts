import { describe, expect, it } from "vitest";
import { addressVerdict, checkTarget, parseHostLiteral } from "../../src/domains/webhooks/public-address.js";
import { systemResolver, type Resolver } from "../../src/platform/lib/resolver.js";
import { httpsPort, isAllowedWebhookPort, portProblem } from "../../src/domains/webhooks/target-port-number.js";

/** A resolver over a fixed table; names not in it fail like getaddrinfo does. */
function fakeResolver(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const answer = table[hostname];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return answer;
  };
  return Object.assign(resolve, { asked });
}

const resolver = fakeResolver({
  "internal.example.com": ["10.0.0.5"],
  "mixed.example.com": ["93.184.215.14", "192.168.1.20"],
  "mixed6.example.com": ["2606:4700:4700::1111", "fd12:3456::1"],
  "mapped.example.com": ["::ffff:127.0.0.1"],
  "empty.example.com": [],
  "hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "hooks.localhost": ["127.0.0.1"],
  localhost: ["::1", "127.0.0.1"],
});

const strict = { allowPrivate: false, resolve: resolver };

describe("parseHostLiteral", () => {
  it.each([
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["4294967295", "255.255.255.255"],
    ["8.8.8.8", "8.8.8.8"],
    ["[::ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["[::ffff:7f00:1]", "::ffff:7f00:1"],
    ["[0:0:0:0:0:ffff:127.0.0.1]", "::ffff:7f00:1"],
    ["::ffff:127.0.0.1", "::ffff:7f00:1"],
    ["[FE80:0:0:0:0:0:0:1]", "fe80::1"],
    ["[0:0:0:0:0:0:0:0]", "::"],
    ["[1:0:0:2:0:0:0:3]", "1:0:0:2::3"],
    ["[1:0:0:2:0:0:3:4]", "1::2:0:0:3:4"],
    ["[2606:4700:4700:0:0:0:0:1111]", "2606:4700:4700::1111"],
    ["[1:2:3:4:5:6:7::]", "1:2:3:4:5:6:7:0"],
  ])("%s is the address %s", (host, expected) => {
    expect(parseHostLiteral(host)).toBe(expected);
  });

  it.each(["example.com", "localhost", "1.2.3.4.5", "256.1.1.1", "4294967296", "09.1.1.1", "[1::2::3]", "[::ffff:1.2.3]", "[1:2:3:4:5:6:7:8:9]", "0x7f.example.com", ""])(
    "%j is not an IP literal",
    (host) => {
      expect(parseHostLiteral(host)).toBeNull();
    },
  );

  it("reads every spelling the way the WHATWG URL parser does", () => {
    const spellings = ["2130706433", "0x7f.1", "0177.0.0.1", "127.1", "0x7f000001", "017700000001", "0", "10.0.258", "0xa.0x0.0x1.0x2", "[::ffff:10.0.0.1]", "[0:0::1]", "[2001:DB8::0:1]"];
    for (const host of spellings) {
      const hostname = new URL(`https://${host}/`).hostname.replace(/^\[(.*)\]$/, "$1");
      expect(parseHostLiteral(host), host).toBe(hostname);
    }
  });
});

describe("addressVerdict", () => {
  it.each([
    ["0.1.2.3", "unspecified"],
    ["10.255.255.255", "private"],
    ["100.64.0.0", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["127.255.0.1", "loopback"],
    ["169.254.169.254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["172.16.0.0", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "documentation"],
    ["192.88.99.1", "6to4 relay"],
    ["192.168.0.1", "private"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.255", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fec0::1", "site-local"],
    ["fc00::1", "unique-local"],
    ["fdff:ffff::1", "unique-local"],
    ["fd00:ec2::254", "metadata"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["100::1", "discard"],
    ["2001::1", "Teredo"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2001:2::1", "IETF special-purpose"],
    ["2001:1ff::1", "IETF special-purpose"],
    ["3fff::1", "documentation"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:a9fe:a9fe", "IPv4-mapped metadata"],
    ["::127.0.0.1", "IPv4-compatible loopback"],
    ["64:ff9b::10.1.2.3", "NAT64 private"],
    ["64:ff9b:1::8.8.8.8", "local-use NAT64"],
    ["2002:c0a8:101::1", "6to4 private"],
    ["4000::1", "reserved"],
    ["1::1", "reserved"],
    ["not-an-ip", "not an IP address"],
  ])("refuses %s (%s)", (ip, reason) => {
    expect(addressVerdict(ip)).toEqual({ public: false, reason });
  });

  it.each(["8.8.8.8", "1.1.1.1", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0", "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255", "169.253.255.255", "2606:4700:4700::1111", "2001:200::1", "2001:db7:ffff::1", "2002:808:808::1", "64:ff9b::808:808", "::ffff:8.8.8.8", "3fff:1000::1", "2c0f:fb50::1"])(
    "accepts %s",
    (ip) => {
      expect(addressVerdict(ip)).toEqual({ public: true });
    },
  );
});

describe("checkTarget refuses", () => {
  it.each([
    ["http://8.8.8.8/hook", "url must use https"],
    ["ftp://example.com/", "url must use https"],
    ["not a url", "url is not a valid absolute URL"],
    ["https://user:pass@hooks.example.com/", "url must not carry credentials"],
    ["https://user@hooks.example.com/", "url must not carry credentials"],
    ["https://localhost/hook", "url host localhost is a loopback name; webhook targets must be public"],
    ["https://LOCALHOST./hook", "url host localhost. is a loopback name; webhook targets must be public"],
    ["https://foo.localhost/hook", "url host foo.localhost is a loopback name; webhook targets must be public"],
    ["https://metadata.google.internal/", "url host metadata.google.internal is a private-use name (.internal); webhook targets must be public"],
    ["https://printer.local/", "url host printer.local is a private-use name (.local); webhook targets must be public"],
    ["https://router.home.arpa/", "url host router.home.arpa is a private-use name (.home.arpa); webhook targets must be public"],
    ["https://intranet/", "url host intranet is not a fully qualified domain name"],
    ["https://127.0.0.1/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://127.1/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://2130706433/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://0x7f000001/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://0177.0.0.1/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://0x7f.0.0.1/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://017700000001/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://%31%32%37.0.0.1/", "url host is 127.0.0.1, a loopback address; webhook targets must be public"],
    ["https://10.0.0.1/", "url host is 10.0.0.1, a private address; webhook targets must be public"],
    ["https://172.16.5.4/", "url host is 172.16.5.4, a private address; webhook targets must be public"],
    ["https://192.168.1.1/", "url host is 192.168.1.1, a private address; webhook targets must be public"],
    ["https://100.64.0.1/", "url host is 100.64.0.1, a carrier-grade NAT address; webhook targets must be public"],
    ["https://169.254.169.254/latest/meta-data/", "url host is 169.254.169.254, a metadata address; webhook targets must be public"],
    ["https://169.254.10.10/", "url host is 169.254.10.10, a link-local address; webhook targets must be public"],
    ["https://0.0.0.0/", "url host is 0.0.0.0, an unspecified address; webhook targets must be public"],
    ["https://0/", "url host is 0.0.0.0, an unspecified address; webhook targets must be public"],
    ["https://[::1]/", "url host is ::1, a loopback address; webhook targets must be public"],
    ["https://[::]/", "url host is ::, an unspecified address; webhook targets must be public"],
    ["https://[::ffff:127.0.0.1]/", "url host is ::ffff:7f00:1, an IPv4-mapped loopback address; webhook targets must be public"],
    ["https://[::ffff:7f00:1]/", "url host is ::ffff:7f00:1, an IPv4-mapped loopback address; webhook targets must be public"],
    ["https://[0:0:0:0:0:ffff:127.0.0.1]/", "url host is ::ffff:7f00:1, an IPv4-mapped loopback address; webhook targets must be public"],
    ["https://[::ffff:10.0.0.1]/", "url host is ::ffff:a00:1, an IPv4-mapped private address; webhook targets must be public"],
    ["https://[64:ff9b::7f00:1]/", "url host is 64:ff9b::7f00:1, a NAT64 loopback address; webhook targets must be public"],
    ["https://[2002:7f00:1::]/", "url host is 2002:7f00:1::, a 6to4 loopback address; webhook targets must be public"],
    ["https://[fe80::1]/", "url host is fe80::1, a link-local address; webhook targets must be public"],
    ["https://[fc00::1]/", "url host is fc00::1, a unique-local address; webhook targets must be public"],
    ["https://[fd00:ec2::254]/", "url host is fd00:ec2::254, a metadata address; webhook targets must be public"],
    ["https://[ff02::1]/", "url host is ff02::1, a multicast address; webhook targets must be public"],
    ["https://[2001:db8::1]/", "url host is 2001:db8::1, a documentation address; webhook targets must be public"],
    ["https://[2001::1]/", "url host is 2001::1, a Teredo address; webhook targets must be public"],
    ["https://224.0.0.1/", "url host is 224.0.0.1, a multicast address; webhook targets must be public"],
    ["https://240.0.0.1/", "url host is 240.0.0.1, a reserved address; webhook targets must be public"],
    ["https://255.255.255.255/", "url host is 255.255.255.255, a broadcast address; webhook targets must be public"],
    ["https://198.18.0.1/", "url host is 198.18.0.1, a benchmarking address; webhook targets must be public"],
    ["https://internal.example.com/", "url host internal.example.com resolves to 10.0.0.5, a private address; webhook targets must be public"],
    ["https://mixed.example.com/", "url host mixed.example.com resolves to 192.168.1.20, a private address; webhook targets must be public"],
    ["https://mixed6.example.com/", "url host mixed6.example.com resolves to fd12:3456::1, a unique-local address; webhook targets must be public"],
    ["https://mapped.example.com/", "url host mapped.example.com resolves to ::ffff:7f00:1, an IPv4-mapped loopback address; webhook targets must be public"],
    ["https://nowhere.example.com/", "url host nowhere.example.com does not resolve (ENOTFOUND)"],
    ["https://empty.example.com/", "url host empty.example.com does not resolve"],
  ])("%s", async (url, reason) => {
    expect(await checkTarget(url, strict)).toEqual({ ok: false, reason });
  });

  it("refuses loopback and special-use names without asking the resolver", async () => {
    const spy = fakeResolver({ localhost: ["8.8.8.8"], "a.localhost": ["8.8.8.8"], "metadata.google.internal": ["8.8.8.8"] });
    for (const url of ["https://localhost/", "https://a.localhost/", "https://metadata.google.internal/", "https://127.0.0.1/"]) {
      expect((await checkTarget(url, { allowPrivate: false, resolve: spy })).ok).toBe(false);
    }
    expect(spy.asked).toEqual([]);
  });

  it("reports a resolver failure without a code by its message", async () => {
    const failing: Resolver = async () => {
      throw new Error("resolver exploded");
    };
    expect(await checkTarget("https://hooks.example.com/", { allowPrivate: false, resolve: failing })).toEqual({
      ok: false,
      reason: "url host hooks.example.com does not resolve (resolver exploded)",
    });
  });

  it("refuses a resolver answer that is not an address", async () => {
    const odd: Resolver = async () => ["93.184.215.14", "banana"];
    expect(await checkTarget("https://hooks.example.com/", { allowPrivate: false, resolve: odd })).toEqual({
      ok: false,
      reason: "url host hooks.example.com resolves to banana, which is not an IP address",
    });
  });
});

describe("checkTarget accepts", () => {
  it("a public IPv4 literal, pinned to itself", async () => {
    const result = await checkTarget("https://8.8.8.8/hooks?x=1", strict);
    expect(result).toEqual({ ok: true, url: new URL("https://8.8.8.8/hooks?x=1"), addresses: ["8.8.8.8"] });
  });

  it("a public IPv6 literal, normalized", async () => {
    const result = await checkTarget("https://[2606:4700:4700:0:0:0:0:1111]:8443/h", strict);
    expect(result.ok && result.addresses).toEqual(["2606:4700:4700::1111"]);
    expect(result.ok && result.url.host).toBe("[2606:4700:4700::1111]:8443");
  });

  it("a name whose every address (IPv4 and IPv6) is public, keeping the resolver's order", async () => {
    const result = await checkTarget("https://hooks.example.com/mf?tenant=7#section", strict);
    expect(result).toEqual({
      ok: true,
      url: new URL("https://hooks.example.com/mf?tenant=7"),
      addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
    });
    expect(result.ok && result.url.href).toBe("https://hooks.example.com/mf?tenant=7");
  });

  it("de-duplicates repeated answers and normalizes their spelling", async () => {
    const repeat: Resolver = async () => ["93.184.215.14", "2606:4700:4700:0::1111", "93.184.215.14"];
    const result = await checkTarget("https://hooks.example.com/", { allowPrivate: false, resolve: repeat });
    expect(result.ok && result.addresses).toEqual(["93.184.215.14", "2606:4700:4700::1111"]);
  });
});

describe("checkTarget with allowPrivate (WEBHOOK_ALLOW_PRIVATE_TARGETS=1)", () => {
  const development = { allowPrivate: true, resolve: resolver };

  it("lets loopback receivers through", async () => {
    expect(await checkTarget("https://localhost:8443/hook", development)).toEqual({
      ok: true,
      url: new URL("https://localhost:8443/hook"),
      addresses: ["::1", "127.0.0.1"],
    });
    expect(await checkTarget("https://hooks.localhost/", development)).toMatchObject({ ok: true, addresses: ["127.0.0.1"] });
    expect(await checkTarget("https://127.0.0.1:8443/", development)).toMatchObject({ ok: true, addresses: ["127.0.0.1"] });
    expect(await checkTarget("https://[::1]:8443/", development)).toMatchObject({ ok: true, addresses: ["::1"] });
    expect(await checkTarget("https://internal.example.com/", development)).toMatchObject({ ok: true, addresses: ["10.0.0.5"] });
  });

  it("still demands https, no credentials and a resolvable name", async () => {
    expect(await checkTarget("http://localhost:8443/hook", development)).toEqual({ ok: false, reason: "url must use https" });
    expect(await checkTarget("http://127.0.0.1/", development)).toEqual({ ok: false, reason: "url must use https" });
    expect(await checkTarget("https://a:b@localhost/", development)).toEqual({ ok: false, reason: "url must not carry credentials" });
    expect(await checkTarget("https://nowhere.example.com/", development)).toEqual({
      ok: false,
      reason: "url host nowhere.example.com does not resolve (ENOTFOUND)",
    });
  });
});

describe("the port rule (https on 443 or 1024-65535)", () => {
  it.each([443, 1024, 1025, 3000, 5431, 5433, 8443, 65534, 65535])("allows %i", (port) => {
    expect(isAllowedWebhookPort(port)).toBe(true);
  });

  it.each([0, 1, 22, 25, 80, 442, 444, 1023, 65536, -443, 1024.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses %d", (port) => {
    expect(isAllowedWebhookPort(port)).toBe(false);
  });

  it.each([2375, 2376, 2379, 2380, 3306, 5432, 5672, 6379, 9092, 9200, 9300, 11211, 27017])("refuses the infrastructure port %i", (port) => {
    expect(isAllowedWebhookPort(port)).toBe(false);
  });

  it("reads a URL's port, 443 when none is written", () => {
    expect(httpsPort(new URL("https://hooks.example.com/"))).toBe(443);
    expect(httpsPort(new URL("https://hooks.example.com:443/"))).toBe(443);
    expect(httpsPort(new URL("https://hooks.example.com:8443/"))).toBe(8443);
    expect(httpsPort(new URL("https://hooks.example.com:0/"))).toBe(0);
    expect(portProblem(new URL("https://hooks.example.com:8443/"))).toBeNull();
    expect(portProblem(new URL("https://hooks.example.com:22/"))).toBe("url port 22 is not allowed; webhook targets use port 443 or 1024-65535, except the ports of databases and other infrastructure");
  });

  it.each([
    ["https://8.8.8.8:22/hook", 22],
    ["https://8.8.8.8:25/hook", 25],
    ["https://8.8.8.8:0/hook", 0],
    ["https://8.8.8.8:80/hook", 80],
    ["https://8.8.8.8:1023/hook", 1023],
    ["https://8.8.8.8:5432/hook", 5432],
    ["https://hooks.example.com:6379/hook", 6379],
    ["https://hooks.example.com:22/hook", 22],
    ["https://[2606:4700:4700::1111]:25/", 25],
  ])("checkTarget refuses %s on a public address", async (url, port) => {
    expect(await checkTarget(url, strict)).toEqual({ ok: false, reason: `url port ${port} is not allowed; webhook targets use port 443 or 1024-65535, except the ports of databases and other infrastructure` });
  });

  it("checkTarget accepts 443 written or not, and high ports, on a public address", async () => {
    for (const url of ["https://8.8.8.8/", "https://8.8.8.8:443/", "https://8.8.8.8:1024/", "https://8.8.8.8:5433/", "https://hooks.example.com:65535/"]) {
      expect(await checkTarget(url, strict)).toMatchObject({ ok: true });
    }
  });

  it("applies with allowPrivate too: loopback receivers on high ports pass, low ports do not", async () => {
    const development = { allowPrivate: true, resolve: resolver };
    expect(await checkTarget("https://127.0.0.1:40123/hook", development)).toMatchObject({ ok: true, addresses: ["127.0.0.1"] });
    expect(await checkTarget("https://localhost:22/", development)).toEqual({ ok: false, reason: "url port 22 is not allowed; webhook targets use port 443 or 1024-65535, except the ports of databases and other infrastructure" });
  });

  it("is judged before any DNS question", async () => {
    const spy = fakeResolver({ "hooks.example.com": ["93.184.215.14"] });
    expect((await checkTarget("https://hooks.example.com:25/", { allowPrivate: false, resolve: spy })).ok).toBe(false);
    expect(spy.asked).toEqual([]);
  });
});

describe("systemResolver", () => {
  it("answers addresses from the system's resolver without any network (localhost)", async () => {
    const addresses = await systemResolver("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) expect(addressVerdict(address)).toEqual({ public: false, reason: "loopback" });
  });

  it("answers an IP literal as itself", async () => {
    expect(await systemResolver("127.0.0.1")).toEqual(["127.0.0.1"]);
  });
});
