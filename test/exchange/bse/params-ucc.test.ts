import { describe, expect, it } from "vitest";
import { BseMappingError } from "../../../src/integrations/exchange/bse/codes.js";
import { buildUccRequest, indianMobile, readUccResponse, uccParam } from "../../../src/integrations/exchange/bse/ucc-param.js";
import { ExchangeUnavailableError } from "../../../src/integrations/exchange/port.js";
import { validateUccParam, validateUccRequest } from "../../helpers/bse-double/validate-ucc.js";
import { filled, individualUcc, jointUcc, minorUcc, nriUcc, withField } from "./ucc-fixtures.js";

const credentials = { userId: "1000001", memberCode: "10000", password: "@123456" };

describe("enhanced UCC registration: the request", () => {
  it("an individual: every filled field at its documented position, 131 fields, the body's envelope", () => {
    const body = buildUccRequest(credentials, "NEW", individualUcc());
    expect(body).toEqual({ UserId: "1000001", MemberCode: "10000", Password: "@123456", RegnType: "NEW", Param: body.Param, Filler1: "", Filler2: "" });
    expect(body.Param.split("|")).toHaveLength(131);
    expect(filled(body.Param)).toEqual({
      1: "C000000001", 2: "Asha", 3: "Rani", 4: "Kulkarni", 5: "01", 6: "F", 7: "12/04/1985", 8: "02", 9: "SI",
      22: "N", 26: "ABCPK1234F", 34: "P",
      // The default account first, then the other.
      42: "SB", 43: "000123456789", 45: "SBIN0000456", 46: "Y",
      47: "CB", 48: "50100012345678", 50: "HDFC0001234", 51: "N",
      68: "02", 69: "Flat 12, Sunrise Apartments, Baner Road", 70: "Near Balewadi Phata", 72: "Pune", 73: "MA", 74: "411045", 75: "INDIA",
      80: "asha@example.in", 81: "E", 93: "9876543210",
      94: "Vikram Kulkarni", 95: "20", 96: "60", 97: "N",
      100: "Meera Kulkarni", 101: "04", 102: "40", 103: "04/03/2015", 104: "Y", 105: "Vikram Kulkarni",
      112: "C", 113: "12345678901234", 126: "Z", 129: "SP", 130: "SE",
    });
    expect(validateUccRequest(body)).toBeNull();
  });

  it("joint holders (anyone or survivor) with CDSL demat: holders 2 and 3, their PANs and KYC types, the DP and client ids", () => {
    const param = uccParam(jointUcc());
    expect(filled(param)).toEqual({
      1: "C000000002", 2: "Rohan", 4: "Sharma", 5: "01", 6: "M", 7: "30/11/1979", 8: "01", 9: "AS",
      10: "Priya", 11: "Anand", 12: "Sharma", 13: "Kiran", 14: "Kumar", 15: "Sharma", 16: "01/02/1982", 17: "19/07/1955",
      22: "N", 23: "N", 24: "N", 26: "BCDPS2345G", 27: "CDEPS3456H", 28: "DEFPS4567J",
      34: "D", 35: "N", 36: "CDSL", 37: "12033200", 38: "1203320000123456",
      42: "SB", 43: "123456789012", 45: "ICIC0000789", 46: "Y",
      68: "02", 69: "House 4, Lane 7", 72: "Ranchi", 73: "JK", 74: "834001", 75: "INDIA",
      80: "rohan@example.in", 81: "E", 93: "9812345678",
      112: "K", 114: "K", 116: "E", 126: "Z", 129: "SE", 130: "SE",
    });
    expect(validateUccParam(param)).toBeNull();
  });

  it("a minor: the guardian's name and PAN, guardian PAN-exempt N, NSDL ids, Telangana TG", () => {
    const param = uccParam(minorUcc());
    expect(filled(param)).toEqual({
      1: "C000000003", 2: "Aarav", 4: "Reddy", 5: "02", 6: "M", 7: "15/08/2014", 8: "07", 9: "SI",
      18: "Lakshmi", 19: "Devi", 20: "Reddy", 22: "N", 25: "N", 26: "EFGPR5678K", 29: "FGHPR6789L",
      34: "D", 35: "N", 36: "NSDL", 40: "IN300123", 41: "10234567",
      42: "SB", 43: "998877665544", 45: "KKBK0000123", 46: "Y",
      68: "02", 69: "8-2-293 Road No 12 Banjara Hills", 72: "Hyderabad", 73: "TG", 74: "500034", 75: "INDIA",
      80: "lakshmi@example.in", 81: "E", 93: "9000012345", 112: "K", 126: "Z", 129: "GD", 130: "GD",
    });
    expect(validateUccParam(param)).toBeNull();
  });

  it("an NRI: the foreign address (country 230), no Indian address, NRE and NRO accounts, three nominees in their own layouts", () => {
    const param = uccParam(nriUcc());
    expect(filled(param)).toEqual({
      1: "C000000004", 2: "Neil", 4: "Nair", 5: "11", 6: "M", 7: "25/01/1990", 8: "02", 9: "SI", 22: "N", 26: "GHIPN7890M", 34: "P",
      42: "NE", 43: "NRE0001122", 45: "FDRL0001001", 46: "Y", 47: "NO", 48: "NRO0003344", 50: "FDRL0001001", 51: "N",
      68: "02", 80: "neil@example.com", 81: "E",
      82: "1200 Market Street Apt 5B", 85: "San Francisco", 86: "94103", 87: "CA", 88: "230", 93: "9876501234",
      94: "Anil Nair", 95: "06", 96: "33.34", 97: "N",
      100: "Sunita Nair", 101: "13", 102: "33.33", 104: "N",
      106: "Maya Nair", 107: "16", 108: "33.33", 109: "30/09/2012", 110: "Y", 111: "Anil Nair",
      112: "K", 126: "Z", 129: "SE", 130: "SE",
    });
    expect(validateUccParam(param)).toBeNull();
  });

  it("five bank accounts fill fields 42-66, the fifth at 62-66", () => {
    const ucc = individualUcc();
    ucc.bankAccounts = [0, 1, 2, 3, 4].map((n) => ({ accountType: "SB", accountNumber: `10000${n}`, ifsc: "SBIN0000456", isDefault: n === 0 }));
    const param = uccParam(ucc);
    expect(filled(param)).toMatchObject({ 57: "SB", 58: "100003", 60: "SBIN0000456", 61: "N", 62: "SB", 63: "100004", 65: "SBIN0000456", 66: "N" });
    expect(validateUccParam(param)).toBeNull();
  });

  it("MOD carries the same Param with RegnType MOD", () => {
    const body = buildUccRequest(credentials, "MOD", individualUcc());
    expect(body.RegnType).toBe("MOD");
    expect(body.Param).toBe(uccParam(individualUcc()));
  });

  it("a foreign mobile goes to the foreign phone (89); field 93 stays empty and the exchange's rule refuses it", () => {
    const ucc = nriUcc();
    ucc.contact.mobile = "+14155550123";
    const param = uccParam(ucc);
    expect(filled(param)[89]).toBe("+14155550123");
    expect(filled(param)[93]).toBeUndefined();
    expect(filled(param)[129]).toBeUndefined();
    expect(validateUccParam(param)).toBe("FAILED: INDIAN MOBILE NO IS MANDATORY");
  });

  it("indianMobile takes 10 digits or +91 and 10 digits, nothing else", () => {
    expect(indianMobile("9876543210")).toBe("9876543210");
    expect(indianMobile("+919876543210")).toBe("9876543210");
    expect(indianMobile("+449876543210")).toBeNull();
    expect(indianMobile("5876543210")).toBeNull();
    expect(indianMobile("98765432101")).toBeNull();
    expect(indianMobile("0+919876543210")).toBeNull();
    expect(indianMobile("+9198765432101")).toBeNull();
  });

  it("values the exchange cannot carry are a BseMappingError naming the field", () => {
    const cases: Array<[(u: ReturnType<typeof individualUcc>) => void, string, RegExp]> = [
      [(u) => (u.address.state = "ZZ"), "address.state", /"ZZ" has no code/],
      [(u) => (u.taxStatus = "99"), "taxStatus", /"99" has no code/],
      [(u) => (u.occupation = "09"), "occupation", /"09" is not one of the exchange's codes/],
      [(u) => (u.bankAccounts[0]!.accountType = "NE"), "bankAccounts[0].accountType", /not allowed for tax status 01/],
      [(u) => (u.contact.email = `${"x".repeat(45)}@example.in`), "contact.email", /longer than the exchange's 50 characters/],
      [(u) => (u.primaryHolder.name = "Asha | Kulkarni"), "primaryHolder.name", /contains a pipe/],
      [(u) => (u.primaryHolder.ckycNumber = null), "primaryHolder.ckycNumber", /required for KYC type C/],
      [(u) => (u.nominees[1]!.guardianName = null), "nominees[1].guardianName", /required for a minor nominee/],
      [(u) => (u.address.line1 = "word ".repeat(30)), "address.line1", /3 lines of 40 characters/],
      [(u) => (u.primaryHolder.dateOfBirth = "12/04/1985"), "primaryHolder.dateOfBirth", /not a YYYY-MM-DD date/],
    ];
    for (const [change, field, message] of cases) {
      const ucc = individualUcc();
      change(ucc);
      const error = (() => {
        try {
          uccParam(ucc);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(error, field).toBeInstanceOf(BseMappingError);
      expect((error as BseMappingError).field).toBe(field);
      expect((error as BseMappingError).message).toMatch(message);
    }
  });

  it("a foreign country outside the exchange's list and a joint holder with CKYC are refused", () => {
    const nri = nriUcc();
    nri.address.country = "SS";
    expect(() => uccParam(nri)).toThrow(/address.country: "SS" has no code/);
    const joint = jointUcc();
    joint.jointHolders[0]!.kycType = "C";
    expect(() => uccParam(joint)).toThrow(/jointHolders\[0\].kycType: "C" needs the holder's CKYC number/);
  });
});

describe("enhanced UCC registration: the exchange's rules (the double)", () => {
  const good = uccParam(individualUcc());
  const cases: Array<[string, string, string]> = [
    ["field count", good + "|", "FAILED: INVALID PARAM STRING FORMAT"],
    ["mandatory field", withField(good, 1, ""), "FAILED: CLIENT CODE IS MANDATORY"],
    ["length", withField(good, 1, "C0000000011"), "FAILED: CLIENT CODE EXCEEDS 10 CHARACTERS"],
    ["tax status code", withField(good, 5, "99"), "FAILED: INVALID TAX STATUS"],
    ["date format", withField(good, 7, "1985-04-12"), "FAILED: INVALID PRIMARY HOLDER DOB"],
    ["calendar date", withField(good, 7, "31/02/1985"), "FAILED: INVALID PRIMARY HOLDER DOB"],
    ["PAN format", withField(good, 26, "ABCP1234F"), "FAILED: INVALID PRIMARY HOLDER PAN"],
    ["PAN when not exempt", withField(good, 26, ""), "FAILED: PRIMARY HOLDER PAN IS MANDATORY"],
    ["IFSC format", withField(good, 45, "SBIN1000456"), "FAILED: INVALID IFSC CODE 1"],
    ["pincode format", withField(good, 74, "41104"), "FAILED: INVALID PINCODE"],
    ["UCC state code", withField(good, 73, "MH"), "FAILED: INVALID STATE"],
    ["account type for the tax status", withField(good, 42, "NE"), "FAILED: ACCOUNT TYPE 1 NOT ALLOWED FOR TAX STATUS 01"],
    ["second account complete", withField(good, 48, ""), "FAILED: ACCOUNT NO 2 IS MANDATORY"],
    ["resident address", withField(good, 72, ""), "FAILED: CITY IS MANDATORY"],
    ["gender for an individual", withField(good, 6, ""), "FAILED: GENDER IS MANDATORY"],
    ["nominee details", withField(good, 95, ""), "FAILED: NOMINEE 1 RELATIONSHIP IS MANDATORY"],
    ["minor nominee's guardian", withField(good, 105, ""), "FAILED: NOMINEE 2 GUARDIAN IS MANDATORY"],
    ["CKYC number for KYC type C", withField(good, 113, ""), "FAILED: PRIMARY HOLDER CKYC NUMBER IS MANDATORY"],
    ["declaration flags", withField(good, 129, ""), "FAILED: MOBILE DECLARATION FLAG IS MANDATORY"],
    ["paperless flag", withField(good, 126, "X"), "FAILED: INVALID PAPERLESS FLAG"],
  ];
  it.each(cases)("%s", (_rule, param, message) => {
    expect(validateUccParam(param)).toBe(message);
  });

  it("holder-specific rules: joint holders for AS, the guardian for a minor, demat ids, the NRI's foreign address", () => {
    const joint = uccParam(jointUcc());
    expect(validateUccParam(withField(withField(withField(joint, 10, ""), 12, ""), 13, ""))).toBe("FAILED: SECOND HOLDER FIRST NAME IS MANDATORY");
    expect(validateUccParam(withField(joint, 23, ""))).toBe("FAILED: SECOND HOLDER PAN EXEMPT IS MANDATORY");
    expect(validateUccParam(withField(joint, 38, ""))).toBe("FAILED: CDSLCLTID IS MANDATORY");
    const minor = uccParam(minorUcc());
    expect(validateUccParam(withField(withField(withField(minor, 18, ""), 19, ""), 20, ""))).toBe("FAILED: GUARDIAN FIRST NAME IS MANDATORY");
    expect(validateUccParam(withField(minor, 29, ""))).toBe("FAILED: GUARDIAN PAN IS MANDATORY");
    expect(validateUccParam(withField(minor, 41, ""))).toBe("FAILED: NSDLCLTID IS MANDATORY");
    const nri = uccParam(nriUcc());
    expect(validateUccParam(withField(nri, 88, ""))).toBe("FAILED: FOREIGN ADDRESS COUNTRY IS MANDATORY");
    expect(validateUccParam(withField(nri, 88, "244"))).toBe("FAILED: INVALID FOREIGN ADDRESS COUNTRY");
    expect(validateUccParam(withField(nri, 42, "SB"))).toBe("FAILED: ACCOUNT TYPE 1 NOT ALLOWED FOR TAX STATUS 11");
  });

  it("the envelope: credentials, registration type, Param", () => {
    const body = buildUccRequest(credentials, "NEW", individualUcc());
    expect(validateUccRequest({ ...body, UserId: "" })).toBe("FAILED: USER ID IS MANDATORY");
    expect(validateUccRequest({ ...body, Password: undefined })).toBe("FAILED: PASSWORD IS MANDATORY");
    expect(validateUccRequest({ ...body, RegnType: "UPD" })).toBe("FAILED: INVALID REGISTRATION TYPE");
    expect(validateUccRequest({ ...body, Param: "" })).toBe("FAILED: PARAM IS MANDATORY");
    expect(validateUccRequest("not json")).toBe("FAILED: INVALID REQUEST FORMAT");
  });
});

describe("enhanced UCC registration: the answer", () => {
  it("Status 0 is REGISTERED with the remark, 1 REJECTED with it", () => {
    expect(readUccResponse({ Status: "0", Remarks: "CLIENT REGISTERED SUCCESSFULLY", Filler1: "", Filler2: "" })).toEqual({ status: "REGISTERED", remark: "CLIENT REGISTERED SUCCESSFULLY" });
    expect(readUccResponse({ Status: "1", Remarks: " FAILED: INVALID PINCODE ", Filler1: "", Filler2: "" })).toEqual({ status: "REJECTED", remark: "FAILED: INVALID PINCODE" });
    expect(readUccResponse({ Status: "0", Remarks: "" })).toEqual({ status: "REGISTERED", remark: null });
    expect(readUccResponse({ Status: "1" })).toEqual({ status: "REJECTED", remark: "UCC registration rejected without a remark" });
  });

  it("anything else is a malformed answer: the exchange counts as unavailable", () => {
    expect(readUccResponse({ Status: "1", Remarks: "   " })).toEqual({ status: "REJECTED", remark: "UCC registration rejected without a remark" });
    for (const body of [null, "0", { Status: 0 }, { Status: "2", Remarks: "?" }, {}]) {
      expect(() => readUccResponse(body)).toThrow(ExchangeUnavailableError);
    }
    expect(() => readUccResponse(null)).toThrow(/^BSE UCC registration: the answer is not a JSON object$/);
    expect(() => readUccResponse({ Status: 0 })).toThrow(/^BSE UCC registration: unexpected Status 0$/);
  });
});

describe("enhanced UCC registration: every refusal names its field", () => {
  type Ucc = ReturnType<typeof individualUcc>;
  const refusals: Array<[() => Ucc, (u: Ucc) => void, string]> = [
    [individualUcc, (u) => (u.clientCode = "C0000000001"), "clientCode"],
    [individualUcc, (u) => (u.primaryHolder.gender = "X"), "primaryHolder.gender"],
    [individualUcc, (u) => (u.holdingNature = "XX"), "holdingNature"],
    [individualUcc, (u) => (u.primaryHolder.pan = "ABCPK1234FF"), "primaryHolder.pan"],
    [individualUcc, (u) => (u.primaryHolder.kycType = "Z"), "primaryHolder.kycType"],
    [individualUcc, (u) => (u.primaryHolder.ckycNumber = "1".repeat(15)), "primaryHolder.ckycNumber"],
    [individualUcc, (u) => (u.bankAccounts[1]!.accountNumber = "1".repeat(41)), "bankAccounts[1].accountNumber"],
    [individualUcc, (u) => (u.bankAccounts[0]!.ifsc = "HDFC00012345"), "bankAccounts[0].ifsc"],
    [individualUcc, (u) => (u.bankAccounts[0]!.accountType = "XX"), "bankAccounts[0].accountType"],
    [individualUcc, (u) => (u.address.city = "c".repeat(36)), "address.city"],
    [individualUcc, (u) => (u.address.pincode = "4110451"), "address.pincode"],
    [individualUcc, (u) => (u.address.line1 = "a|b"), "address.line1"],
    [individualUcc, (u) => (u.contact.mobileRelation = "XX"), "contact.mobileRelation"],
    [individualUcc, (u) => (u.contact.emailRelation = "XX"), "contact.emailRelation"],
    [individualUcc, (u) => (u.nominees[0]!.name = "n".repeat(41)), "nominees[0].name"],
    [individualUcc, (u) => (u.nominees[0]!.relation = "24"), "nominees[0].relation"],
    [individualUcc, (u) => (u.nominees[1]!.dateOfBirth = "04/03/2015"), "nominees[1].dateOfBirth"],
    [individualUcc, (u) => (u.nominees[1]!.guardianName = "g".repeat(36)), "nominees[1].guardianName"],
    [individualUcc, (u) => (u.nominees = [...u.nominees, ...u.nominees]), "nominees"],
    [individualUcc, (u) => (u.bankAccounts = []), "bankAccounts"],
    [individualUcc, (u) => (u.bankAccounts = [0, 1, 2, 3, 4, 5].map((n) => ({ ...u.bankAccounts[0]!, accountNumber: `10000${n}`, isDefault: n === 0 }))), "bankAccounts"],
    [jointUcc, (u) => (u.jointHolders[1]!.name = "Kiran | Sharma"), "jointHolders[1].name"],
    [jointUcc, (u) => (u.jointHolders[0]!.dateOfBirth = "1982"), "jointHolders[0].dateOfBirth"],
    [jointUcc, (u) => (u.jointHolders[0]!.pan = "CDEPS3456HH"), "jointHolders[0].pan"],
    [jointUcc, (u) => (u.jointHolders[1]!.kycType = "Z"), "jointHolders[1].kycType"],
    [jointUcc, (u) => (u.jointHolders = [...u.jointHolders, u.jointHolders[0]!]), "jointHolders"],
    [jointUcc, (u) => (u.dematAccount!.clientId = "1".repeat(17)), "dematAccount.clientId"],
    [jointUcc, (u) => (u.dematAccount = null), "dematAccount"],
    [jointUcc, (u) => (u.depository = null), "depository"],
    [minorUcc, (u) => (u.guardian!.name = "Lakshmi | Reddy"), "guardian.name"],
    [minorUcc, (u) => (u.guardian!.pan = "FGHPR6789LL"), "guardian.pan"],
    [minorUcc, (u) => (u.dematAccount!.dpId = "IN3001234"), "dematAccount.dpId"],
    [minorUcc, (u) => (u.dematAccount!.clientId = "102345678"), "dematAccount.clientId"],
    [nriUcc, (u) => (u.address.pincode = "1".repeat(11)), "address.pincode"],
    [nriUcc, (u) => (u.address.state = "s".repeat(36)), "address.state"],
    [nriUcc, (u) => (u.address.city = "c".repeat(36)), "address.city"],
    [nriUcc, (u) => (u.contact.mobile = "+1415555012345678"), "contact.mobile"],
  ];
  it.each(refusals.map(([make, change, field], i) => [`${i}: ${field}`, make, change, field] as const))("%s", (_title, make, change, field) => {
    const ucc = make();
    change(ucc);
    let error: unknown = null;
    try {
      uccParam(ucc);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BseMappingError);
    expect((error as BseMappingError).field).toBe(field);
  });
});
