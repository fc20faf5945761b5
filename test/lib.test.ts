import { describe, expect, it } from "vitest";
import { DataCipher } from "../src/lib/crypto.js";
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
