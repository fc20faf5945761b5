import { describe, expect, it } from "vitest";
import { buildStpRequest, readStpResponse, type StpRegistration } from "../../../src/integrations/exchange/bse/stp-request.js";
import { ExchangeUnavailableError } from "../../../src/integrations/exchange/port.js";
import { validateStpRequest } from "../../helpers/bse-double/validate-stp.js";

const credentials = { userId: "1000001", memberCode: "10000", password: "secret" };
const stp = (overrides: Partial<StpRegistration> = {}): StpRegistration => ({
  clientCode: "C000000001",
  fromSchemeCode: "02-DP",
  toSchemeCode: "02G",
  purchaseType: "FRESH",
  folioNo: "1234567/89",
  internalRef: "ord0000042",
  startDate: "2026-10-10",
  frequency: "MONTHLY",
  transfers: 6,
  endDate: null,
  amount: "1000",
  firstOrderToday: true,
  euin: "E123456",
  euinDeclared: true,
  remarks: null,
  subBrokerArn: null,
  mobile: "9876543210",
  email: "asha@example.in",
  ...overrides,
});

describe("enhanced STP: the request", () => {
  it("NEW: every field of section 5.1, EXCH, physical, STPRegNo empty", () => {
    const body = buildStpRequest(credentials, stp(), { transType: "NEW" });
    expect(body).toEqual({
      LoginId: "1000001", MemberCode: "10000", Password: "secret", TransType: "NEW", STPType: "EXCH", ClientCode: "C000000001",
      FromBSESchemeCode: "02-DP", ToBSESchemeCode: "02G", BuySellType: "Fresh", TransactionMode: "P", FolioNo: "1234567/89", STPRegNo: "",
      IntRefNo: "ord0000042", StartDate: "10/10/2026", FrequencyType: "Monthly", NoOfTransfers: "6", InstAmount: "1000", InstUnit: "",
      FirstOrderToday: "Y", SubBrokerCode: "", EUINDeclaration: "Y", EUINNumber: "E123456", Remarks: "", EndDate: "", SubBrokerARN: "",
      Filler1: "9876543210", Filler2: "asha@example.in", Filler3: "", Filler4: "", Filler5: "",
    });
    expect(Object.keys(body)).toHaveLength(30);
    expect(validateStpRequest(body)).toBeNull();
  });

  it("CXL repeats the registration with the number to cancel; daily runs to an end date with 0 transfers", () => {
    const cancel = buildStpRequest(credentials, stp({ purchaseType: "ADDITIONAL" }), { transType: "CXL", registrationNo: "39409" });
    expect(cancel).toMatchObject({ TransType: "CXL", STPRegNo: "39409", BuySellType: "Additional" });
    expect(validateStpRequest(cancel)).toBeNull();
    const daily = buildStpRequest(credentials, stp({ frequency: "DAILY", transfers: 0, endDate: "2026-12-31" }), { transType: "NEW" });
    expect(daily).toMatchObject({ FrequencyType: "Daily", NoOfTransfers: "0", EndDate: "31/12/2026" });
    expect(validateStpRequest(daily)).toBeNull();
    expect(buildStpRequest(credentials, stp({ frequency: "WEEKLY" }), { transType: "NEW" }).FrequencyType).toBe("Weekly");
    expect(buildStpRequest(credentials, stp({ frequency: "QUARTERLY" }), { transType: "NEW" }).FrequencyType).toBe("Quarterly");
  });

  it("refuses what the exchange cannot take, naming the field", () => {
    expect(() => buildStpRequest(credentials, stp({ frequency: "DAILY", transfers: 0 }), { transType: "NEW" })).toThrow(/endDate: "null" is for \(and required by\) a daily STP only/);
    expect(() => buildStpRequest(credentials, stp({ endDate: "2026-12-31" }), { transType: "NEW" })).toThrow(/endDate/);
    expect(() => buildStpRequest(credentials, stp({ frequency: "DAILY", transfers: 3, endDate: "2026-12-31" }), { transType: "NEW" })).toThrow(/transfers: "3" must be 0 for a daily STP/);
    expect(() => buildStpRequest(credentials, stp({ transfers: 0 }), { transType: "NEW" })).toThrow(/transfers: "0" is not a whole number/);
    expect(() => buildStpRequest(credentials, stp({ amount: "1e3" }), { transType: "NEW" })).toThrow(/amount: "1e3"/);
    expect(() => buildStpRequest(credentials, stp(), { transType: "CXL", registrationNo: "" })).toThrow(/registrationNo/);
    expect(() => buildStpRequest(credentials, stp({ remarks: "r".repeat(101) }), { transType: "NEW" })).toThrow(/remarks: .* longer than the exchange's 100/);
  });
});

describe("enhanced STP: the exchange's rules (the double)", () => {
  const good = buildStpRequest(credentials, stp(), { transType: "NEW" });
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["mandatory field", { ...good, ClientCode: "" }, "FAILED: CLIENT CODE IS MANDATORY"],
    ["length", { ...good, FolioNo: "1".repeat(16) }, "FAILED: FOLIO NUMBER EXCEEDS 15 CHARACTERS"],
    ["code value", { ...good, TransType: "MOD" }, "FAILED: INVALID TRANSACTION TYPE"],
    ["date format", { ...good, StartDate: "2026-10-10" }, "FAILED: INVALID START DATE"],
    ["frequency", { ...good, FrequencyType: "Yearly" }, "FAILED: INVALID FREQUENCY TYPE"],
    ["daily needs an end date", { ...good, FrequencyType: "Daily", NoOfTransfers: "0" }, "FAILED: END DATE IS MANDATORY"],
    ["cancellation needs the registration", { ...good, TransType: "CXL" }, "FAILED: STP REGISTRATION NO IS MANDATORY"],
    ["EXCH is physical", { ...good, TransactionMode: "C" }, "FAILED: INVALID TRANSACTION MODE"],
    ["mobile format", { ...good, Filler1: "12345" }, "FAILED: INVALID MOBILE NO"],
    ["unknown field", { ...good, Extra: "" }, "FAILED: UNKNOWN FIELD EXTRA"],
    ["amount", { ...good, InstAmount: "" }, "FAILED: INSTALLMENT AMOUNT IS MANDATORY"],
  ];
  it.each(cases)("%s", (_rule, body, message) => {
    expect(validateStpRequest(body)).toBe(message);
  });
});

describe("enhanced STP: the answer", () => {
  it("SuccessFlag 0: the registration and first-order numbers; 1: the remark", () => {
    expect(
      readStpResponse({ TransactionCode: "NEW", STPRegNo: "39409", BSERemarks: "STP REGISTRATION DONE SUCCESSFULLY", SuccessFlag: "0", IntRefNo: "ord0000042", FromOrderNo: "6309357", ToOrderNo: "6309358" }),
    ).toEqual({ ok: true, registrationNo: "39409", remark: "STP REGISTRATION DONE SUCCESSFULLY", fromOrderNo: "6309357", toOrderNo: "6309358", internalRef: "ord0000042" });
    expect(readStpResponse({ STPRegNo: 39410, BSERemarks: "STP CANCELLATION DONE SUCCESSFULLY", SuccessFlag: "0", FromOrderNo: "", ToOrderNo: null })).toEqual({
      ok: true, registrationNo: "39410", remark: "STP CANCELLATION DONE SUCCESSFULLY", fromOrderNo: null, toOrderNo: null, internalRef: null,
    });
    expect(readStpResponse({ STPRegNo: "0", SuccessFlag: "0" })).toMatchObject({ ok: true, registrationNo: null, remark: "" });
    expect(readStpResponse({ BSERemarks: "FAILED: INVALID SCHEME CODE", SuccessFlag: "1", IntRefNo: "r1" })).toEqual({ ok: false, remark: "FAILED: INVALID SCHEME CODE", internalRef: "r1" });
    expect(readStpResponse({ SuccessFlag: "1" })).toEqual({ ok: false, remark: "STP request rejected without a remark", internalRef: null });
  });

  it("anything else is malformed", () => {
    for (const body of [null, [], { SuccessFlag: "2" }, {}]) expect(() => readStpResponse(body)).toThrow(ExchangeUnavailableError);
    // Named as every other failure of the adapter: "BSE <service>: ...".
    expect(() => readStpResponse(null)).toThrow(/^BSE STP registration: the answer is not a JSON object$/);
    expect(() => readStpResponse({ SuccessFlag: "2" })).toThrow(/^BSE STP registration: unexpected SuccessFlag "2"$/);
  });
});

describe("enhanced STP: the edges", () => {
  it("whole-string checks; answers with padded strings and non-finite numbers", () => {
    expect(() => buildStpRequest(credentials, stp(), { transType: "CXL", registrationNo: "a123" })).toThrow(/registrationNo/);
    expect(() => buildStpRequest(credentials, stp(), { transType: "CXL", registrationNo: "123a" })).toThrow(/registrationNo/);
    expect(buildStpRequest(credentials, stp({ amount: "1000.125" }), { transType: "NEW" }).InstAmount).toBe("1000.125");
    expect(() => buildStpRequest(credentials, stp({ amount: "1000.x" }), { transType: "NEW" })).toThrow(/amount/);
    expect(readStpResponse({ SuccessFlag: " 0 ", STPRegNo: " 39409 ", BSERemarks: " OK " })).toMatchObject({ ok: true, registrationNo: "39409", remark: "OK" });
    expect(readStpResponse({ SuccessFlag: "0", STPRegNo: Number.NaN, FromOrderNo: true })).toMatchObject({ registrationNo: null, fromOrderNo: null });
    expect(readStpResponse({ SuccessFlag: "1", BSERemarks: "   " })).toMatchObject({ remark: "STP request rejected without a remark" });
    expect(() => readStpResponse("0")).toThrow(ExchangeUnavailableError);
  });
});
