import { describe, expect, it } from "vitest";
import {
  maskAccountNumber,
  maskEmail,
  maskFreeText,
  maskLinkIds,
  maskLogLine,
  maskMobile,
  maskName,
  maskPan,
  maskPansDeep,
  maskPansInText,
} from "../src/platform/lib/mask.js";

describe("maskPan", () => {
  it("keeps the first 2 and last 3 characters", () => {
    expect(maskPan("ABCDE1234F")).toBe("ABXXXXX34F");
    expect(maskPan("abcde1234f")).toBe("abXXXXX34f");
  });

  it("masks short values entirely, by length", () => {
    expect(maskPan("")).toBe("");
    expect(maskPan("ABCDE")).toBe("XXXXX");
    expect(maskPan("ABCDEF")).toBe("ABXDEF");
  });
});

describe("maskName", () => {
  it("keeps each word's first letter, one star per other character, single spaces", () => {
    expect(maskName("Asha Rao")).toBe("A*** R**");
    expect(maskName(" Asha  K. Rao ")).toBe("A*** K* R**");
    expect(maskName("X")).toBe("X");
    expect(maskName("")).toBe("");
  });
});

describe("maskMobile, maskEmail, maskAccountNumber", () => {
  it("keep the last 4 digits, the first character and the domain, the last 4 characters", () => {
    expect(maskMobile("+91 98765 43210")).toBe("XXXXXXXX3210");
    expect(maskMobile("321")).toBe("321");
    expect(maskMobile("4321")).toBe("4321");
    expect(maskEmail("asha.rao@example.in")).toBe("a***@example.in");
    expect(maskEmail("a@b.in")).toBe("a***@b.in");
    expect(maskEmail("@example.in")).toBe("***");
    expect(maskEmail("no-at-sign")).toBe("***");
    expect(maskEmail("x@y@example.in")).toBe("x***@example.in");
    expect(maskAccountNumber("001234567890")).toBe("XXXXXXXX7890");
    expect(maskAccountNumber("789")).toBe("789");
  });
});

describe("maskPansInText: what is PAN-shaped", () => {
  it.each([
    ["the whole text", "ABCDE1234F", "ABXXXXX34F"],
    ["at the start", "ABCDE1234F is rejected", "ABXXXXX34F is rejected"],
    ["at the end", "rejected: ABCDE1234F", "rejected: ABXXXXX34F"],
    ["lowercase", "pan abcde1234f invalid", "pan abXXXXX34f invalid"],
    ["mixed case", "pan AbCdE1234f invalid", "pan AbXXXXX34f invalid"],
    ["after an underscore (an id made of a PAN)", "/api/investors/v1/inv_QCBPU7552I", "/api/investors/v1/inv_QCXXXXX52I"],
    ["between slashes", "/v1/QCBPU7552I/x", "/v1/QCXXXXX52I/x"],
    ["after = and before &", "pan=QCBPU7552I&x=1", "pan=QCXXXXX52I&x=1"],
    ["after - and before .", "ref-QCBPU7552I.", "ref-QCXXXXX52I."],
    ["after an accented letter", "éQCBPU7552I", "éQCXXXXX52I"],
    ["in quotes", '"QCBPU7552I"', '"QCXXXXX52I"'],
    ["several", "ABCDE1234F,PQRSX9876Z;vwxyz0000a", "ABXXXXX34F,PQXXXXX76Z;vwXXXXX00a"],
    ["adjacent, separated by one character", "ABCDE1234F ABCDE1234F", "ABXXXXX34F ABXXXXX34F"],
    ["after a URL-encoded character", "/v1/%2FABCDE1234F", "/v1/%2FABXXXXX34F"],
    ["after a lowercase URL escape", "x%2fABCDE1234F", "x%2fABXXXXX34F"],
    ["after a JSON newline escape", String.raw`"line\nABCDE1234F"`, String.raw`"line\nABXXXXX34F"`],
    ["after JSON \\r \\t \\b \\f escapes", String.raw`\rABCDE1234F \tABCDE1234F \bABCDE1234F \fABCDE1234F`, String.raw`\rABXXXXX34F \tABXXXXX34F \bABXXXXX34F \fABXXXXX34F`],
    ["after a JSON unicode escape", String.raw`\u0001ABCDE1234F \u00E9ABCDE1234F`, String.raw`\u0001ABXXXXX34F \u00E9ABXXXXX34F`],
  ])("masks a PAN %s", (_, text, masked) => {
    expect(maskPansInText(text)).toBe(masked);
  });

  it.each([
    ["inside a longer word (letter before)", "XABCDE1234F"],
    ["inside a longer word (digit before)", "9ABCDE1234F"],
    ["inside a longer word (letter after)", "ABCDE1234FX"],
    ["inside a longer word (digit after)", "ABCDE1234F9"],
    ["a 9-character near-miss (4 letters)", "ABCD1234F"],
    ["a 9-character near-miss (3 digits)", "ABCDE123F"],
    ["an 11-character near-miss (6 letters)", "ABCDEF1234G"],
    ["an 11-character near-miss (5 digits)", "ABCDE12345F"],
    ["an 11-character near-miss (2 final letters)", "ABCDE1234FG"],
    ["a digit where a letter goes", "ABCD51234F"],
    ["a letter where a digit goes", "ABCDE12X4F"],
    ["a digit at the end", "ABCDE12345"],
    ["a non-ASCII letter inside", "ABCDÉ1234F"],
    ["an id of another shape", "inv_01k9x2m3n4p5q6r7s8t9v0w1"],
    ["an escape-looking prefix that is not one", "%zABCDE1234F%zz1ABCDE1234F"],
    ["a lone backslash-letter that is not an escape", String.raw`\xABCDE1234F`],
    ["a short unicode escape", String.raw`\u001ABCDE1234F`],
  ])("leaves %s", (_, text) => {
    expect(maskPansInText(text)).toBe(text);
  });

  it("leaves text without PANs as it is", () => {
    expect(maskPansInText("")).toBe("");
    expect(maskPansInText("SANDBOX: UCC REJECTED BY SIMULATION")).toBe("SANDBOX: UCC REJECTED BY SIMULATION");
  });
});

describe("maskFreeText", () => {
  it("masks a string and keeps null and undefined", () => {
    expect(maskFreeText("PAN ABCDE1234F NOT KYC COMPLIANT")).toBe("PAN ABXXXXX34F NOT KYC COMPLIANT");
    expect(maskFreeText(null)).toBeNull();
    expect(maskFreeText(undefined)).toBeUndefined();
  });
});

describe("maskPansDeep", () => {
  it("masks every string of a JSON value, keys included, and keeps everything else", () => {
    const at = new Date("2026-11-23T00:00:00Z");
    const value = {
      remark: "abcde1234f rejected",
      nested: { list: ["ABCDE1234F", 7, null, true, { deep: "x ABCDE1234F" }] },
      ABCDE1234F: "key",
      count: 3,
      none: null,
      at,
    };
    expect(maskPansDeep(value)).toEqual({
      remark: "abXXXXX34f rejected",
      nested: { list: ["ABXXXXX34F", 7, null, true, { deep: "x ABXXXXX34F" }] },
      ABXXXXX34F: "key",
      count: 3,
      none: null,
      at,
    });
    expect(maskPansDeep(value).at).toBe(at);
    expect(maskPansDeep("ABCDE1234F")).toBe("ABXXXXX34F");
    expect(maskPansDeep(null)).toBeNull();
    expect(maskPansDeep(undefined)).toBeUndefined();
    expect(maskPansDeep(42)).toBe(42);
  });

  it("masks objects without a prototype and leaves class instances alone", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { pan: "ABCDE1234F" });
    expect(maskPansDeep(bare)).toEqual({ pan: "ABXXXXX34F" });
    class Holder {
      constructor(readonly pan: string) {}
    }
    const instance = new Holder("ABCDE1234F");
    expect(maskPansDeep(instance)).toBe(instance);
    expect(maskPansDeep([instance])[0]).toBe(instance);
  });

  it("does not change its input", () => {
    const value = { remark: "ABCDE1234F", list: ["ABCDE1234F"] };
    maskPansDeep(value);
    expect(value).toEqual({ remark: "ABCDE1234F", list: ["ABCDE1234F"] });
  });
});

describe("maskLinkIds", () => {
  const link = "lnk_01k9x2m3n4p5q6r7s8t9v0w1x2y3z4a5";

  it.each([
    ["a path", `/api/public/v1/order-links/${link}/confirm`, "/api/public/v1/order-links/lnk_01k9***/confirm"],
    ["the start and end of text", link, "lnk_01k9***"],
    ["a public link URL", `http://localhost:3000/links/${link}?x=1`, "http://localhost:3000/links/lnk_01k9***?x=1"],
    ["an uppercase id", "LNK_01K9X2M3N4", "LNK_01K9***"],
    ["a JSON line", String.raw`{"msg":"link\nlnk_abcdefgh","id":"lnk_abcdefgh"}`, String.raw`{"msg":"link\nlnk_abcd***","id":"lnk_abcd***"}`],
    ["an id after an underscore", "x_lnk_abcdefgh", "x_lnk_abcd***"],
    ["an id one character past the kept prefix", "lnk_abcde", "lnk_abcd***"],
    ["an id after a URL-encoded slash", "/links/%2Flnk_abcdefgh", "/links/%2Flnk_abcd***"],
    ["an id after a JSON unicode escape", String.raw`\u00e9lnk_abcdefgh`, String.raw`\u00e9lnk_abcd***`],
  ])("keeps the first 8 characters in %s", (_, text, masked) => {
    expect(maskLinkIds(text)).toBe(masked);
  });

  it.each([
    ["an id no longer than its kept prefix", "lnk_abcd"],
    ["a shorter one", "lnk_ab"],
    ["a word that ends in lnk_", "xlnk_abcdefgh"],
    ["a digit before", "9lnk_abcdefgh"],
    ["an escape-looking prefix that is not one", String.raw`%zzlnk_abcdefgh \u12lnk_abcdefgh`],
    ["other ids", "inv_01k9x2m3n4p5 ord_01k9x2m3n4p5"],
  ])("leaves %s", (_, text) => {
    expect(maskLinkIds(text)).toBe(text);
  });
});

describe("maskLogLine", () => {
  it("masks PANs and link ids in one finished line", () => {
    const line = JSON.stringify({ path: "/api/investors/v1/inv_QCBPU7552I", link: "lnk_01k9x2m3n4p5q6r7", note: "pan\nabcde1234f" });
    expect(maskLogLine(line)).toBe(
      JSON.stringify({ path: "/api/investors/v1/inv_QCXXXXX52I", link: "lnk_01k9***", note: "pan\nabXXXXX34f" }),
    );
  });

  it("masks a link id that contains a PAN-shaped run as a link id", () => {
    expect(maskLogLine("lnk_ABCDE1234F")).toBe("lnk_ABXX***");
  });
});
