import { describe, expect, it } from "vitest";
import { DataCipher } from "../src/lib/crypto.js";
import { MAX_INPUT_DEPTH, NUL_MESSAGE, unsafeInputDetails } from "../src/lib/hostile-input.js";
import { newId, newSecretId } from "../src/lib/ids.js";
import { maskAccountNumber, maskEmail, maskMobile, maskPan, maskPansInText } from "../src/lib/mask.js";

describe("masks", () => {
  it("keep only what the design allows", () => {
    expect(maskPan("ABCDE1234F")).toBe("ABXXXXX34F");
    expect(maskMobile("+91 98765 43210")).toBe("XXXXXXXX3210");
    expect(maskEmail("asha.rao@example.in")).toBe("a***@example.in");
    expect(maskAccountNumber("001234567890")).toBe("XXXXXXXX7890");
    expect(maskPansInText("PAN ABCDE1234F and PQRSX9876Z.")).toBe("PAN ABXXXXX34F and PQXXXXX76Z.");
  });
});

describe("ids", () => {
  it("are prefixed, unique and ordered by creation time", () => {
    const a = newId("ord", 1_700_000_000_000);
    const b = newId("ord", 1_700_000_000_001);
    expect(a).toMatch(/^ord_[0-9a-z]{26}$/);
    expect(a < b).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, () => newId("x"))).size).toBe(1000);
    expect(newSecretId("lnk")).toMatch(/^lnk_[0-9a-z]{32}$/);
  });
});

describe("DataCipher", () => {
  const cipher = new DataCipher("11".repeat(32));
  it("round-trips, randomises ciphertexts and gives stable look-up hashes", () => {
    const a = cipher.encrypt("ABCDE1234F");
    const b = cipher.encrypt("ABCDE1234F");
    expect(a).not.toBe(b);
    expect(a).not.toContain("ABCDE1234F");
    expect(cipher.decrypt(a)).toBe("ABCDE1234F");
    expect(cipher.lookupHash("ABCDE1234F")).toBe(cipher.lookupHash("ABCDE1234F"));
    expect(new DataCipher("22".repeat(32)).lookupHash("ABCDE1234F")).not.toBe(cipher.lookupHash("ABCDE1234F"));
  });
  it("rejects tampered ciphertexts and wrong keys", () => {
    const blob = cipher.encrypt("secret");
    const tampered = blob.slice(0, -2) + (blob.endsWith("A") ? "BB" : "AA");
    expect(() => cipher.decrypt(tampered)).toThrow();
    expect(() => new DataCipher("22".repeat(32)).decrypt(blob)).toThrow();
    expect(() => new DataCipher("abcd")).toThrow(/32 bytes/);
  });
});

describe("the input check every procedure runs", () => {
  it("names every unsafe place in document order, paths included, and stops at 20", () => {
    const input = JSON.parse(
      '{"a":"ok","b\\u0000":1,"c":[{"x":"\\u0000"},"y",["\\u0000"]],"constructor":{"z":"\\u0000"},"d":{"__proto__":1,"e":"\\u0000"}}',
    ) as unknown;
    expect(unsafeInputDetails(input)).toEqual([
      { path: "b\u0000", message: NUL_MESSAGE },
      { path: "c[0].x", message: NUL_MESSAGE },
      { path: "c[2][0]", message: NUL_MESSAGE },
      { path: "constructor", message: "Unknown field" },
      { path: "d.__proto__", message: "Unknown field" },
      { path: "d.e", message: NUL_MESSAGE },
    ]);
    expect(unsafeInputDetails("\u0000")).toEqual([{ path: "", message: NUL_MESSAGE }]);
    expect(unsafeInputDetails(Array.from({ length: 30 }, () => "\u0000"))).toHaveLength(20);
    const deep = JSON.parse('{"a":'.repeat(MAX_INPUT_DEPTH + 1) + "1" + "}".repeat(MAX_INPUT_DEPTH + 1)) as unknown;
    expect(unsafeInputDetails(deep)).toEqual([
      { path: Array.from({ length: MAX_INPUT_DEPTH }, () => "a").join("."), message: `Nested too deeply (at most ${MAX_INPUT_DEPTH} levels)` },
    ]);
    expect(unsafeInputDetails(JSON.parse('{"a":'.repeat(MAX_INPUT_DEPTH) + "1" + "}".repeat(MAX_INPUT_DEPTH)))).toEqual([]);
  });
});
