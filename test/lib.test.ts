import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issuesToDetails } from "../src/platform/lib/zod.js";
import { DETAIL_REASONS } from "../src/platform/lib/errors.js";
import { CreateMandateRequest } from "../src/domains/mandates/mandates.schemas.js";
import { PlaceOrderRequest } from "../src/domains/orders/orders.schemas.js";
import { DataCipher } from "../src/platform/lib/crypto.js";
import { MAX_INPUT_DEPTH, NUL_MESSAGE, unsafeInputDetails } from "../src/platform/lib/hostile-input.js";
import { newId, newSecretId } from "../src/platform/lib/ids.js";
import { maskAccountNumber, maskEmail, maskMobile, maskPan, maskPansInText } from "../src/platform/lib/mask.js";

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
      { path: "b\u0000", message: NUL_MESSAGE, reason: "nul_character" },
      { path: "c[0].x", message: NUL_MESSAGE, reason: "nul_character" },
      { path: "c[2][0]", message: NUL_MESSAGE, reason: "nul_character" },
      { path: "constructor", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" },
      { path: "d.__proto__", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" },
      { path: "d.e", message: NUL_MESSAGE, reason: "nul_character" },
    ]);
    expect(unsafeInputDetails("\u0000")).toEqual([{ path: "", message: NUL_MESSAGE, reason: "nul_character" }]);
    expect(unsafeInputDetails(Array.from({ length: 30 }, () => "\u0000"))).toHaveLength(20);
    const deep = JSON.parse('{"a":'.repeat(MAX_INPUT_DEPTH + 1) + "1" + "}".repeat(MAX_INPUT_DEPTH + 1)) as unknown;
    expect(unsafeInputDetails(deep)).toEqual([
      { path: Array.from({ length: MAX_INPUT_DEPTH }, () => "a").join("."), message: `Nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`, reason: "too_deep" },
    ]);
    expect(unsafeInputDetails(JSON.parse('{"a":'.repeat(MAX_INPUT_DEPTH) + "1" + "}".repeat(MAX_INPUT_DEPTH)))).toEqual([]);
  });
});

describe("detail reasons", () => {
  const detailsOf = (schema: z.ZodType, input: unknown) => {
    const result = schema.safeParse(input);
    return result.success ? [] : issuesToDetails(result.error.issues);
  };

  it("come from the zod issue, or from the rule that names its own", () => {
    const details = detailsOf(CreateMandateRequest, {
      investor_id: 7, mandate_type: "CHEQUE", amount_limit: 10.005, start_date: "2020-01-01", extra: 1,
    });
    expect(details).toEqual([
      { path: "investor_id", message: "Invalid input: expected string, received number", reason: "invalid_type" },
      { path: "bank_account_id", message: "Required: add this field (string)", reason: "required" },
      { path: "mandate_type", message: expect.any(String), reason: "invalid_value" },
      { path: "amount_limit", message: "at most 2 decimals", reason: "too_many_decimals" },
      { path: "start_date", message: "must be today or later", reason: "date_in_past" },
      { path: "extra", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" },
    ]);
    expect(details.every((d) => (DETAIL_REASONS as readonly string[]).includes(d.reason))).toBe(true);
  });

  it("of a superRefine rule are its own", () => {
    const details = detailsOf(PlaceOrderRequest, { investment_account_id: "acc_1", order_type: "LUMPSUM_PURCHASE", amount: 100, units: 1 });
    expect(details).toEqual(expect.arrayContaining([
      { path: "scheme_code", message: "is required for LUMPSUM_PURCHASE", reason: "required" },
      { path: "units", message: "is not used by LUMPSUM_PURCHASE", reason: "field_not_allowed" },
    ]));
    expect(details.every((d) => (DETAIL_REASONS as readonly string[]).includes(d.reason))).toBe(true);
  });
});
