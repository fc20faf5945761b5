import { describe, expect, it } from "vitest";
import { normaliseIndianStateCode } from "../../src/domains/masters/geography.js";
import { catalogValues, exchangeCodeOf, uccOccupationCode } from "../../src/integrations/exchange/code-tables.js";

describe("the catalog as the source for validation and the exchange port", () => {
  it("gives zod-ready value lists and the exchange's codes", () => {
    expect(catalogValues("kyc_types")).toEqual(["KRA", "CKYC", "EKYC"]);
    expect(exchangeCodeOf("contact_relations", "DEPENDENT_PARENT")).toBe("DP");
    expect(exchangeCodeOf("guardian_relations", "COURT_APPOINTED")).toBe("23");
    expect(exchangeCodeOf("tax_statuses", "NRI")).toBe("11");
    expect(exchangeCodeOf("nominee_relationships", "COURT_APPOINTED_LEGAL_GUARDIAN")).toBe("23");
    // @ts-expect-error: a value outside the catalog, as only a broken row could hold
    expect(() => exchangeCodeOf("genders", "X")).toThrow();
  });

  it("maps occupations to the UCC field's 01-08", () => {
    expect(uccOccupationCode("BUSINESS")).toBe("01");
    expect(uccOccupationCode("OTHERS")).toBe("08");
    expect(uccOccupationCode("DOCTOR")).toBe("02");
    expect(uccOccupationCode("PRIVATE_SECTOR_SERVICE")).toBe("02");
    expect(uccOccupationCode("PUBLIC_SECTOR_SERVICE")).toBe("02");
    expect(uccOccupationCode("GOVERNMENT_SERVICE")).toBe("02");
    expect(uccOccupationCode("FOREX_DEALER")).toBe("01");
  });

  it("accepts the state codes retired in 2023 as their successors", () => {
    expect(normaliseIndianStateCode("mh")).toBe("MH");
    expect(normaliseIndianStateCode("TS")).toBe("TG");
    expect(normaliseIndianStateCode("OR")).toBe("OD");
    expect(normaliseIndianStateCode("CT")).toBe("CG");
    expect(normaliseIndianStateCode("UT")).toBe("UK");
    expect(normaliseIndianStateCode("ZZ")).toBeUndefined();
  });
});
