import { describe, expect, it } from "vitest";
import {
  BseMappingError,
  FATCA_COUNTRIES,
  FATCA_INCOME_SLAB,
  FATCA_OCCUPATION,
  FATCA_OCCUPATION_TYPE,
  FATCA_OCCUPATION_TYPE_OF_CODE,
  FATCA_PEP,
  FATCA_STATE,
  FATCA_TAX_STATUS_OF_UCC,
  FATCA_WEALTH_SOURCE,
  UCC_ACCOUNT_TYPE,
  UCC_COUNTRY,
  UCC_DECLARATION,
  UCC_HOLDING,
  UCC_KYC_TYPE,
  UCC_NOMINEE_RELATION,
  UCC_OCCUPATION,
  UCC_STATE,
  UCC_TAX_STATUS,
  codeIn,
  fatcaCountryCode,
  fatcaStateCode,
  oneOf,
  uccCountryCode,
  uccStateCode,
} from "../../../src/integrations/exchange/bse/codes.js";
import { listCountries, listStates } from "../../../src/domains/masters/geography.js";
import { CATALOG_MEMBERS, INVESTOR_OPTIONS, exchangeCodeOf, uccOccupationCode, type CatalogMember } from "../../../src/integrations/exchange/code-tables.js";

/** Each table keyed by catalog values gives exactly the catalog's exchange code (UCC occupation: the 01-08 fold). */
const AGREEING: Array<[CatalogMember, Readonly<Record<string, string>>]> = [
  ["tax_statuses", UCC_TAX_STATUS],
  ["bank_account_types", UCC_ACCOUNT_TYPE],
  ["holding_types", UCC_HOLDING],
  ["kyc_types", UCC_KYC_TYPE],
  ["contact_relations", UCC_DECLARATION],
  ["nominee_relationships", UCC_NOMINEE_RELATION],
  ["occupations", FATCA_OCCUPATION],
  ["fatca_occupation_types", FATCA_OCCUPATION_TYPE],
  ["income_slabs", FATCA_INCOME_SLAB],
  ["pep_options", FATCA_PEP],
  ["wealth_sources", FATCA_WEALTH_SOURCE],
];

describe("exchange code tables", () => {
  it.each(AGREEING)("%s: one code per catalog value, the catalog's own", (member, table) => {
    const values = INVESTOR_OPTIONS[member].map((o) => o.value);
    expect(Object.keys(table).sort()).toEqual([...values].sort());
    for (const value of values) expect(table[value], value).toBe(exchangeCodeOf(member, value as never));
  });

  it("every catalog member with exchange codes is covered (demat modes, genders, guardian relations ride on other fields)", () => {
    const covered = new Set<string>([...AGREEING.map(([m]) => m), "demat_modes", "genders", "guardian_relations"]);
    expect(CATALOG_MEMBERS.filter((m) => !covered.has(m))).toEqual([]);
  });

  it("UCC occupation folds to 01-08 as the catalog's uccOccupationCode does", () => {
    for (const { value } of INVESTOR_OPTIONS.occupations) expect(UCC_OCCUPATION[value], value).toBe(uccOccupationCode(value));
    expect(UCC_OCCUPATION).toMatchObject({ DOCTOR: "02", FOREX_DEALER: "01", GOVERNMENT_SERVICE: "02" });
  });

  it("FATCA occupation codes imply their type as the document's table says", () => {
    expect(FATCA_OCCUPATION_TYPE_OF_CODE).toEqual({
      "01": "B", "02": "S", "03": "S", "04": "S", "05": "O", "06": "O", "07": "O", "08": "O", "09": "S", "41": "S", "42": "S", "43": "B", "44": "S", "99": "O",
    });
    expect(FATCA_TAX_STATUS_OF_UCC).toEqual({ "01": "01", "02": "02", "11": "11" });
  });

  it("every Indian state of ours has a UCC and a FATCA code, and the two tables differ where the document says", () => {
    const ours = listStates("IN").map((s) => s.code).sort();
    expect(Object.keys(UCC_STATE).sort()).toEqual(ours);
    expect(Object.keys(FATCA_STATE).sort()).toEqual(ours);
    expect(UCC_STATE).toEqual({
      AN: "AN", AP: "AP", AR: "AR", AS: "AS", BR: "BH", CH: "CH", CG: "CG", DH: "DN", DL: "ND", GA: "GO", GJ: "GU", HR: "HA",
      HP: "HP", JK: "JM", JH: "JK", KA: "KA", KL: "KE", LA: "OH", LD: "LD", MP: "MP", MH: "MA", MN: "MN", ML: "ME", MZ: "MI",
      NL: "NA", OD: "OR", PY: "PO", PB: "PU", RJ: "RA", SK: "SI", TN: "TN", TG: "TG", TR: "TR", UP: "UP", UK: "UC", WB: "WB",
    });
    expect(FATCA_STATE).toEqual({
      AN: "AN", AP: "AP", AR: "AR", AS: "AS", BR: "BR", CH: "CH", CG: "CG", DH: "DN", DL: "DL", GA: "GA", GJ: "GJ", HR: "HR",
      HP: "HP", JK: "JK", JH: "JH", KA: "KA", KL: "KL", LA: "XX", LD: "LD", MP: "MP", MH: "MH", MN: "MN", ML: "ML", MZ: "MZ",
      NL: "NL", OD: "OR", PY: "PY", PB: "PB", RJ: "RJ", SK: "SK", TN: "TN", TG: "XX", TR: "TR", UP: "UP", UK: "UA", WB: "WB",
    });
    expect(uccStateCode("f", "JH")).toBe("JK");
    expect(fatcaStateCode("f", "JK")).toBe("JK");
    expect(() => uccStateCode("address.state", "MA")).toThrow(BseMappingError);
  });

  it("UCC countries: the document's 3-digit serials (its own examples), 243 codes, every code used", () => {
    const examples = { AF: "001", AX: "002", AU: "014", CA: "039", DE: "081", HK: "098", IN: "101", JP: "110", NP: "153", SG: "196", AE: "228", GB: "229", US: "230", ZW: "243" };
    for (const [iso, code] of Object.entries(examples)) expect(uccCountryCode("c", iso), iso).toBe(code);
    const codes = new Set(Object.values(UCC_COUNTRY));
    expect(codes.size).toBe(243);
    expect([...codes].sort()).toEqual(Array.from({ length: 243 }, (_, i) => String(i + 1).padStart(3, "0")));
    expect(UCC_COUNTRY).toMatchObject({ RS: "193", ME: "193", CW: "155", CD: "051", CG: "050", KR: "117", KP: "116" });
    for (const iso of Object.keys(UCC_COUNTRY)) expect(listCountries().some((c) => c.code === iso), iso).toBe(true);
    expect(() => uccCountryCode("address.country", "SS")).toThrow('address.country: "SS" has no code in the exchange\'s table');
  });

  it("FATCA countries: ISO alpha-2 as the document lists them, plus XX and ZZ", () => {
    expect(FATCA_COUNTRIES).toHaveLength(252);
    expect(fatcaCountryCode("c", "IN")).toBe("IN");
    expect(fatcaCountryCode("c", "ZZ")).toBe("ZZ");
    expect(() => fatcaCountryCode("fatca.countryOfBirth", "XK")).toThrow('fatca.countryOfBirth: "XK" is not one of the exchange\'s codes');
  });

  it("codeIn and oneOf name the field and value; inherited keys are not codes", () => {
    const error = (() => {
      try {
        codeIn(UCC_HOLDING, "holdingNature", "toString");
      } catch (e) {
        return e as BseMappingError;
      }
      throw new Error("no error");
    })();
    expect(error).toBeInstanceOf(BseMappingError);
    expect(error.name).toBe("BseMappingError");
    expect([error.field, error.value, error.message]).toEqual(["holdingNature", "toString", 'holdingNature: "toString" has no code in the exchange\'s table']);
    expect(oneOf(["A", "B"], "f", "B")).toBe("B");
    expect(() => oneOf(["A", "B"], "f", "C")).toThrow('f: "C" is not one of the exchange\'s codes');
  });
});

describe("formatting rules", () => {
  it("bseDate, fit, pipeSafe, splitName, wrapAddress, plainDecimal", async () => {
    const { bseDate, fit, pipeSafe, plainDecimal, splitName, wrapAddress } = await import("../../../src/integrations/exchange/bse/format.js");
    expect(bseDate("f", "2026-01-09")).toBe("09/01/2026");
    expect(() => bseDate("f", "2026-1-09")).toThrow('f: "2026-1-09" is not a YYYY-MM-DD date');
    expect(fit("f", "abc", 3)).toBe("abc");
    expect(() => fit("f", "abcd", 3)).toThrow('f: "abcd" is longer than the exchange\'s 3 characters');
    expect(() => fit("f", "x".repeat(30), 25)).toThrow(`f: "${"x".repeat(20)}..." is longer`);
    expect(() => pipeSafe("f", "a\nb")).toThrow("contains a pipe or a line break");
    expect(() => pipeSafe("f", "a\rb")).toThrow("contains a pipe or a line break");
    expect(splitName("  Asha  ")).toEqual(["Asha", "", ""]);
    expect(splitName("A B C D")).toEqual(["A", "B C", "D"]);
    expect(splitName("")).toEqual(["", "", ""]);
    expect(splitName("A  B \t C  D")).toEqual(["A", "B C", "D"]);
    expect(wrapAddress("f", "aaaa bbbb cccc", 9, 3)).toEqual(["aaaa bbbb", "cccc", ""]);
    expect(wrapAddress("f", "aaaa bbbbb", 9, 2)).toEqual(["aaaa", "bbbbb"]);
    expect(wrapAddress("f", "abcdefghijk lm", 5, 3)).toEqual(["abcde", "fghij", "k lm"]);
    expect(wrapAddress("f", "  aaaa   bbbb \n cc  ", 9, 3)).toEqual(["aaaa bbbb", "cc", ""]);
    expect(wrapAddress("f", " ", 9, 2)).toEqual(["", ""]);
    expect(() => wrapAddress("f", "aaaa bbbb cccc", 4, 2)).toThrow("does not fit the exchange's 2 lines of 4 characters");
    expect(plainDecimal(60)).toBe("60");
    expect(plainDecimal(33.3)).toBe("33.3");
    expect(plainDecimal(33.34)).toBe("33.34");
    expect(plainDecimal("100")).toBe("100");
    expect(plainDecimal("50.50")).toBe("50.5");
  });
});

describe("formatting rules: the edges", () => {
  it("dates, names and addresses are read whole, whitespace and all", async () => {
    const { bseDate, fit, splitName, wrapAddress } = await import("../../../src/integrations/exchange/bse/format.js");
    expect(() => bseDate("f", "x2026-01-09")).toThrow(BseMappingError);
    expect(() => bseDate("f", "2026-01-091")).toThrow(BseMappingError);
    expect(splitName(" Asha  Rani\tKulkarni ")).toEqual(["Asha", "Rani", "Kulkarni"]);
    expect(splitName("Asha ")).toEqual(["Asha", "", ""]);
    expect(wrapAddress("f", "  a  b ", 40, 2)).toEqual(["a b", ""]);
    expect(wrapAddress("f", "", 40, 2)).toEqual(["", ""]);
    expect(() => fit("f", "x".repeat(20), 5)).toThrow(`f: "${"x".repeat(20)}" is longer`);
    expect(() => wrapAddress("f", "x".repeat(30), 5, 2)).toThrow(`f: "${"x".repeat(20)}..." does not fit`);
  });
});
