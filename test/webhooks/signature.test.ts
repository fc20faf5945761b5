import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildTestSignatureHeader, signPayload, verifyWebhookSignature } from "../../src/domains/webhooks/signature.js";

const secret = "whsec_test_5Jb0rXq2";
const body = '{"success":true,"data":{"order_id":"ord_01k0","status":"ACCEPTED","provider_remark":"ORDER CONFIRMED ₹"}}';
const now = 1_767_225_600; // 2026-01-01T00:00:00Z

/** The scheme written out independently of the module: HMAC-SHA256 over "<t>.<raw body>", hex. */
function referenceSignature(rawBody: Buffer, key: string, timestamp: number): string {
  const hmac = createHmac("sha256", Buffer.from(key, "utf8"));
  hmac.update(Buffer.concat([Buffer.from(String(timestamp), "ascii"), Buffer.from([0x2e]), rawBody]));
  return hmac.digest("hex");
}

/**
 * The header for `body` at `now`, built without the module: a signer that throws then fails the tests that
 * use it instead of the file's collection (which a test runner may not count as a failed test).
 */
const signature = referenceSignature(Buffer.from(body, "utf8"), secret, now);
const header = `t=${now},v1=${signature}`;

describe("signPayload", () => {
  it("agrees byte for byte with an independent implementation of the scheme", () => {
    const header = signPayload(body, secret, now);
    expect(header).toBe(`t=${now},v1=${referenceSignature(Buffer.from(body, "utf8"), secret, now)}`);
    expect(header).toMatch(/^t=1767225600,v1=[0-9a-f]{64}$/);
  });

  it("signs a Buffer exactly like the same bytes as a string, and binary bytes as they are", () => {
    expect(signPayload(Buffer.from(body, "utf8"), secret, now)).toBe(signPayload(body, secret, now));
    const binary = Buffer.from([0xff, 0x00, 0xfe, 0x0a]);
    expect(signPayload(binary, secret, now)).toBe(`t=${now},v1=${referenceSignature(binary, secret, now)}`);
  });

  it("signs with several secrets (a rotation's overlap): one v1 each, in the order given, each verifiable alone", () => {
    const previous = "whsec_previous_Qm9";
    const header = signPayload(body, [secret, previous], now);
    const raw = Buffer.from(body, "utf8");
    expect(header).toBe(`t=${now},v1=${referenceSignature(raw, secret, now)},v1=${referenceSignature(raw, previous, now)}`);
    expect(signPayload(body, [secret], now)).toBe(signPayload(body, secret, now));
    expect(verifyWebhookSignature(body, header, secret, { now })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, header, previous, { now })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, header, "whsec_neither", { now })).toEqual({ valid: false, reason: "mismatch" });
    expect(() => signPayload(body, [], now)).toThrow(/secret/);
    expect(() => signPayload(body, [secret, ""], now)).toThrow(/secret/);
  });

  it("refuses a parsed body, an empty secret and a non-integer timestamp", () => {
    expect(() => signPayload(JSON.parse(body) as string, secret, now)).toThrow(/raw request body/);
    expect(() => signPayload(body, "", now)).toThrow(/secret/);
    expect(() => signPayload(body, secret, 1.5)).toThrow(/timestamp/);
  });

  it("names what is wrong: the body, a secret that is not a string, no secret, the timestamp", () => {
    expect(() => signPayload({ order_id: "ord_01k0" } as unknown as string, secret, now)).toThrow(
      new TypeError("rawBody must be the raw request body as a string or Buffer, not a parsed value"),
    );
    for (const notAString of [undefined, 42, Buffer.from(secret)]) {
      expect(() => signPayload(body, notAString as unknown as string, now)).toThrow(new TypeError("secret must be a non-empty string"));
      expect(() => signPayload(body, [secret, notAString as unknown as string], now)).toThrow(new TypeError("secret must be a non-empty string"));
    }
    expect(() => signPayload(body, [], now)).toThrow(new TypeError("at least one secret is needed"));
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1, 1767225600.5]) {
      expect(() => signPayload(body, secret, bad)).toThrow(new TypeError("timestamp must be whole unix seconds"));
    }
  });

  it("signs at timestamp 0, the first whole unix second", () => {
    expect(signPayload(body, secret, 0)).toBe(`t=0,v1=${referenceSignature(Buffer.from(body, "utf8"), secret, 0)}`);
    expect(verifyWebhookSignature(body, signPayload(body, secret, 0), secret, { now: 0 })).toEqual({ valid: true, timestamp: 0 });
  });
});

describe("verifyWebhookSignature", () => {
  it("accepts what signPayload produced (round trip), as string or Buffer", () => {
    expect(verifyWebhookSignature(body, header, secret, { now })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(Buffer.from(body), header, secret, { now })).toEqual({ valid: true, timestamp: now });
  });

  it("accepts a header built by the independent implementation", () => {
    const independent = `t=${now},v1=${referenceSignature(Buffer.from(body), secret, now)}`;
    expect(verifyWebhookSignature(body, independent, secret, { now: now + 10 })).toEqual({ valid: true, timestamp: now });
  });

  it("tolerates 300 s either way by default, and no more", () => {
    expect(verifyWebhookSignature(body, header, secret, { now: now + 300 })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, header, secret, { now: now + 301 })).toEqual({ valid: false, reason: "expired" });
    expect(verifyWebhookSignature(body, header, secret, { now: now - 300 })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, header, secret, { now: now - 301 })).toEqual({ valid: false, reason: "expired" });
  });

  it("honours a custom tolerance, including 0 (only the very second)", () => {
    expect(verifyWebhookSignature(body, header, secret, { now, toleranceSeconds: 0 })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, header, secret, { now: now + 1, toleranceSeconds: 0 })).toEqual({ valid: false, reason: "expired" });
    expect(verifyWebhookSignature(body, header, secret, { now: now - 1, toleranceSeconds: 0 })).toEqual({ valid: false, reason: "expired" });
    expect(verifyWebhookSignature(body, header, secret, { now: now + 31, toleranceSeconds: 30 })).toEqual({ valid: false, reason: "expired" });
    expect(verifyWebhookSignature(body, header, secret, { now: now + 30, toleranceSeconds: 30 })).toEqual({ valid: true, timestamp: now });
  });

  it("uses the clock when now is not given", () => {
    const fresh = signPayload(body, secret, Math.floor(Date.now() / 1000));
    expect(verifyWebhookSignature(body, fresh, secret)).toMatchObject({ valid: true });
    const old = signPayload(body, secret, Math.floor(Date.now() / 1000) - 301);
    expect(verifyWebhookSignature(body, old, secret)).toEqual({ valid: false, reason: "expired" });
  });

  it("rejects a tampered body, including a re-serialised one", () => {
    expect(verifyWebhookSignature(body.replace("ACCEPTED", "REJECTED"), header, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), header, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
    expect(verifyWebhookSignature(body + "\n", header, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
  });

  it("rejects a wrong secret and a moved timestamp", () => {
    expect(verifyWebhookSignature(body, header, `${secret}x`, { now })).toEqual({ valid: false, reason: "mismatch" });
    const moved = header.replace(`t=${now}`, `t=${now + 1}`);
    expect(verifyWebhookSignature(body, moved, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
  });

  it("treats a signature of the wrong length as a mismatch", () => {
    expect(verifyWebhookSignature(body, `t=${now},v1=${signature.slice(0, 63)}`, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
    expect(verifyWebhookSignature(body, `t=${now},v1=${signature}00`, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
  });

  it("treats a signature of the right length that differs in any one place as a mismatch", () => {
    for (const at of [0, 31, 63]) {
      const flipped = signature.slice(0, at) + (signature[at] === "0" ? "1" : "0") + signature.slice(at + 1);
      expect(verifyWebhookSignature(body, `t=${now},v1=${flipped}`, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
    }
  });

  it("accepts upper-case hex and spaces after commas", () => {
    expect(verifyWebhookSignature(body, `t=${now}, v1=${signature.toUpperCase()}`, secret, { now })).toEqual({ valid: true, timestamp: now });
  });

  it("ignores blank entries and spaces around entries, keys and values", () => {
    for (const value of [
      `${header},`,
      `,${header}`,
      `t=${now},,v1=${signature}`,
      `t=${now},   ,v1=${signature}`,
      ` t = ${now} ,\tv1 =\t${signature} `,
    ]) {
      expect(verifyWebhookSignature(body, value, secret, { now })).toEqual({ valid: true, timestamp: now });
    }
  });

  it("calls a header malformed for any bad entry, even next to a matching v1", () => {
    for (const value of [
      `${header},garbage`,
      `${header},=abc`,
      `${header}, =abc`,
      `${header},v1=zz${signature}`,
      `${header},v1=${signature}zz`,
      `${header},v1=${signature.slice(0, 32)} ${signature.slice(32)}`,
    ]) {
      expect(verifyWebhookSignature(body, value, secret, { now })).toEqual({ valid: false, reason: "malformed" });
    }
  });

  it("accepts any one of several v1 entries (secret rotation) and ignores other schemes", () => {
    const other = signPayload(body, "whsec_old_secret", now).split("v1=")[1]!;
    expect(verifyWebhookSignature(body, `t=${now},v1=${other},v1=${signature}`, secret, { now })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, `t=${now},v1=${signature},v1=${other}`, secret, { now })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, `t=${now},v0=abc,v1=${signature},v2=zz`, secret, { now })).toEqual({ valid: true, timestamp: now });
    expect(verifyWebhookSignature(body, `t=${now},v1=${other},v1=${"0".repeat(64)}`, secret, { now })).toEqual({ valid: false, reason: "mismatch" });
  });

  it.each([
    [undefined, "missing"],
    [null, "missing"],
    ["", "missing"],
    ["   ", "missing"],
    [`v1=${"a".repeat(64)}`, "malformed"],
    [`t=${now}`, "malformed"],
    [`t=${now},v0=${"a".repeat(64)}`, "malformed"],
    [`t=abc,v1=${"a".repeat(64)}`, "malformed"],
    [`t=-5,v1=${"a".repeat(64)}`, "malformed"],
    [`t=1e9,v1=${"a".repeat(64)}`, "malformed"],
    [`t=,v1=${"a".repeat(64)}`, "malformed"],
    [`t=${now},t=${now},v1=${"a".repeat(64)}`, "malformed"],
    [`t=${now},v1=${"g".repeat(64)}`, "malformed"],
    [`t=${now},v1=`, "malformed"],
    [`t=${now},v1`, "malformed"],
    ["garbage", "malformed"],
  ])("rejects the header %j as %s", (value, reason) => {
    expect(verifyWebhookSignature(body, value, secret, { now })).toEqual({ valid: false, reason });
  });

  it("refuses a parsed body and an empty secret loudly instead of answering", () => {
    expect(() => verifyWebhookSignature(JSON.parse(body) as string, header, secret, { now })).toThrow(TypeError);
    expect(() => verifyWebhookSignature(body, header, "", { now })).toThrow(TypeError);
  });

  it("says which input is wrong, before looking at the header", () => {
    expect(() => verifyWebhookSignature(JSON.parse(body) as string, undefined, secret, { now })).toThrow(
      new TypeError("rawBody must be the raw request body as a string or Buffer, not a parsed value"),
    );
    for (const notAString of ["", undefined, 42]) {
      expect(() => verifyWebhookSignature(body, undefined, notAString as unknown as string, { now })).toThrow(
        new TypeError("secret must be a non-empty string"),
      );
    }
  });
});

describe("buildTestSignatureHeader", () => {
  it("signs at the given time, or now", () => {
    expect(buildTestSignatureHeader(body, secret, now)).toBe(signPayload(body, secret, now));
    const header = buildTestSignatureHeader(body, secret);
    expect(verifyWebhookSignature(body, header, secret)).toMatchObject({ valid: true });
    const t = Number(/^t=(\d+),/.exec(header)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(5);
  });
});
