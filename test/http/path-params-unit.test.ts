import { describe, expect, it } from "vitest";
import { decodePathParams, MALFORMED_ESCAPE } from "../../src/platform/http/path-params.js";

describe("decodePathParams", () => {
  it("decodes every parameter exactly once and leaves plain ones as they are", () => {
    expect(decodePathParams({ id: "ord%5Fx", link_id: "lnk_1", other: "%255F" })).toEqual({ params: { id: "ord_x", link_id: "lnk_1", other: "%5F" } });
    expect(decodePathParams({ id: "%E0%A4%85" })).toEqual({ params: { id: "\u0905" } });
    expect(decodePathParams({ id: "%00" })).toEqual({ params: { id: "\u0000" } });
    expect(decodePathParams({})).toEqual({ params: {} });
    expect(decodePathParams({ id: "a+b", other: "ord 01;k0~\u0905" })).toEqual({ params: { id: "a+b", other: "ord 01;k0~\u0905" } });
  });

  it("names every parameter whose escape is not UTF-8, and decodes none then", () => {
    expect(decodePathParams({ id: "%zz", ok: "a%5Fb", cut: "%E0%A4", overlong: "%C0%AF" })).toEqual({
      details: [
        { path: "id", message: MALFORMED_ESCAPE, reason: "invalid_format" },
        { path: "cut", message: MALFORMED_ESCAPE, reason: "invalid_format" },
        { path: "overlong", message: MALFORMED_ESCAPE, reason: "invalid_format" },
      ],
    });
    expect(MALFORMED_ESCAPE).toBe("Must be valid percent-encoded UTF-8");
  });
});
