import { describe, expect, it } from "vitest";
import { fatcaLogName, fatcaParam } from "../../../src/integrations/exchange/bse/fatca-param.js";
import { validateFatcaParam } from "../../helpers/bse-double/validate-fatca.js";
import { validateMfapiParam } from "../../helpers/bse-double/validate-mfapi.js";
import { filled, individualUcc, jointUcc, minorUcc, nriUcc, withField } from "./ucc-fixtures.js";

// 09:35 UTC is 15:05 in India.
const context = { newOrChange: "N" as const, declaredFromIp: "203.0.113.7", declaredAt: new Date("2026-03-05T09:35:00Z") };

describe("FATCA upload (MFAPI flag 01): the record", () => {
  it("an individual: the 75 fields at their positions, FATCA's occupation code (09 doctor, not UCC's 02)", () => {
    const param = fatcaParam(individualUcc(), context);
    expect(param.split("|")).toHaveLength(75);
    expect(filled(param)).toEqual({
      1: "ABCPK1234F", 3: "Asha Rani Kulkarni", 7: "01", 8: "E", 9: "1", 10: "Nagpur", 11: "IN", 12: "IN", 13: "ABCPK1234F", 14: "C",
      24: "01", 26: "34", 29: "N", 30: "09", 31: "S", 42: "O", 43: "N", 69: "Y", 70: "N", 72: "N", 73: "203.0.113.7#05-Mar-26;15:05",
    });
    expect(validateMfapiParam("01", param)).toBeNull();
  });

  it("a minor: the guardian reports (PAN_RP, INV_NAME, TPIN1), tax status 02", () => {
    const param = fatcaParam(minorUcc(), { ...context, newOrChange: "C" });
    expect(filled(param)).toMatchObject({ 1: "FGHPR6789L", 3: "Lakshmi Devi Reddy", 7: "02", 13: "FGHPR6789L", 24: "03", 26: "31", 30: "07", 31: "O", 72: "C" });
    expect(validateFatcaParam(param)).toBeNull();
  });

  it("a forex dealer keeps FATCA 43 with business type; PEP related R; an NRI is tax status 11", () => {
    expect(filled(fatcaParam(jointUcc(), context))).toMatchObject({ 7: "01", 24: "02", 26: "36", 29: "R", 30: "43", 31: "B" });
    const nri = fatcaParam(nriUcc(), context);
    expect(filled(nri)).toMatchObject({ 7: "11", 10: "Kochi", 11: "IN", 30: "41", 31: "S" });
    expect(validateFatcaParam(nri)).toBeNull();
  });

  it("LOG_NAME is IP#DD-Mon-YY;HH:MM in India's time (across midnight too)", () => {
    expect(fatcaLogName("10.1.2.3", new Date("2025-12-31T19:00:00Z"))).toBe("10.1.2.3#01-Jan-26;00:30");
    expect(fatcaLogName("10.1.2.3", new Date("2026-11-09T03:04:00Z"))).toBe("10.1.2.3#09-Nov-26;08:34");
  });

  it("refuses what FATCA cannot carry, naming the field", () => {
    const other = individualUcc();
    other.fatca.taxResidentOtherCountry = true;
    expect(() => fatcaParam(other, context)).toThrow(/fatca.taxResidentOtherCountry: "true" needs the other country's TIN/);
    const country = individualUcc();
    country.fatca.countryOfBirth = "XK";
    expect(() => fatcaParam(country, context)).toThrow(/fatca.countryOfBirth: "XK" is not one of the exchange's codes/);
    const occupation = individualUcc();
    occupation.fatca.occupationCode = "10";
    expect(() => fatcaParam(occupation, context)).toThrow(/fatca.occupationCode: "10" has no code/);
    const contradiction = individualUcc();
    contradiction.fatca.occupationType = "B";
    expect(() => fatcaParam(contradiction, context)).toThrow(/fatca.occupationType: "B" is not the type of occupation 09 \(S\) or X/);
    const uncategorised = individualUcc();
    uncategorised.fatca.occupationType = "X";
    expect(filled(fatcaParam(uncategorised, context))).toMatchObject({ 30: "09", 31: "X" });
    const wealth = individualUcc();
    wealth.fatca.sourceOfWealth = "09";
    expect(() => fatcaParam(wealth, context)).toThrow(/fatca.sourceOfWealth: "09" is not one/);
    const place = individualUcc();
    place.fatca.placeOfBirth = "x".repeat(61);
    expect(() => fatcaParam(place, context)).toThrow(/fatca.placeOfBirth: .* is longer than the exchange's 60 characters/);
  });
});

describe("FATCA upload: the exchange's rules (the double)", () => {
  const good = fatcaParam(individualUcc(), context);
  const cases: Array<[string, string, string]> = [
    ["field count", good.split("|").slice(0, 74).join("|"), "FAILED: INVALID PARAM STRING FORMAT"],
    ["mandatory field", withField(good, 3, ""), "FAILED: INV_NAME IS MANDATORY"],
    ["PAN or PEKRN", withField(good, 1, ""), "FAILED: PAN_RP IS MANDATORY"],
    ["PAN format", withField(good, 1, "ABCPK1234"), "FAILED: INVALID PAN_RP"],
    ["FATCA country (ISO, not UCC's 3 digits)", withField(good, 11, "101"), "FAILED: INVALID CO_BIR_INC"],
    ["tax status code", withField(good, 7, "77"), "FAILED: INVALID TAX_STATUS"],
    ["occupation code", withField(good, 30, "10"), "FAILED: INVALID OCC_CODE"],
    ["occupation type other than the code's (§4.1: 09 doctor is service)", withField(good, 31, "B"), "FAILED: INVALID OCC_TYPE"],
    ["income slab", withField(good, 26, "30"), "FAILED: INVALID INC_SLAB"],
    ["PEP for an individual", withField(good, 29, ""), "FAILED: PEP_FLAG IS MANDATORY"],
    ["length", withField(good, 10, "x".repeat(61)), "FAILED: PO_BIR_INC EXCEEDS 60 CHARACTERS"],
    ["a second tax residency comes whole", withField(good, 15, "US"), "FAILED: TPIN2 IS MANDATORY"],
    ["UBO details when UBO applies", withField(good, 43, "Y"), "FAILED: UBO_COUNT IS MANDATORY"],
    ["log name for electronic data", withField(good, 73, ""), "FAILED: LOG_NAME IS MANDATORY"],
    ["log name format", withField(good, 73, "203.0.113.7 2026-03-05"), "FAILED: INVALID LOG_NAME"],
  ];
  it.each(cases)("%s", (_rule, param, message) => {
    expect(validateFatcaParam(param)).toBe(message);
  });

  it("a non-individual needs the corporate set", () => {
    expect(validateFatcaParam(withField(good, 7, "04"))).toBe("FAILED: CORP_SERVS IS MANDATORY");
  });
});
