import { describe, expect, it } from "vitest";
import {
  MFAPI_FLAG,
  mandateIdFrom,
  mandateRegistrationParam,
  paymentStatusParam,
  readMfapiResponse,
  readPaymentStatus,
  swpCancellationParam,
  swpRegistrationParam,
  type SwpRegistration,
} from "../../../src/integrations/exchange/bse/mfapi-params.js";
import { ExchangeUnavailableError, type MandateRegistration } from "../../../src/integrations/exchange/port.js";
import { validateMfapiParam } from "../../helpers/bse-double/validate-mfapi.js";
import { withField } from "./ucc-fixtures.js";

const mandate = (overrides: Partial<MandateRegistration> = {}): MandateRegistration => ({
  mandateId: "mdt_01",
  clientCode: "C000000001",
  mandateType: "ENACH",
  amountLimit: "50000.50",
  startDate: "2026-06-01",
  endDate: "2036-05-31",
  bank: { accountNumber: "000123456789", ifsc: "SBIN0000456", accountType: "SB" },
  ...overrides,
});

const swp = (overrides: Partial<SwpRegistration> = {}): SwpRegistration => ({
  clientCode: "C000000001",
  schemeCode: "02-DP",
  transactionMode: "P",
  folioNo: "1234567/89",
  internalRef: "ord0000042",
  startDate: "2026-07-10",
  installments: 12,
  frequency: "MONTHLY",
  amount: "5000",
  units: null,
  firstOrderToday: false,
  euin: "E123456",
  euinDeclared: true,
  remarks: null,
  subBrokerArn: null,
  mobile: "9876543210",
  email: "asha@example.in",
  bankAccountNumber: "000123456789",
  ...overrides,
});

describe("MFAPI flags", () => {
  it("the flags the adapter sends", () => {
    expect(MFAPI_FLAG).toEqual({ fatcaUpload: "01", mandateRegistration: "06", swpRegistration: "08", swpCancellation: "10", clientOrderPaymentStatus: "11" });
  });
});

describe("mandate registration (flag 06)", () => {
  it("e-NACH is N, physical X; 9 fields in order, MICR empty", () => {
    expect(mandateRegistrationParam(mandate())).toBe("C000000001|50000.50|N|000123456789|SB|SBIN0000456||01/06/2026|31/05/2036");
    expect(mandateRegistrationParam(mandate({ mandateType: "PHYSICAL", bank: { accountNumber: "NRE0001122", ifsc: "FDRL0001001", accountType: "NE" } }))).toBe(
      "C000000001|50000.50|X|NRE0001122|NE|FDRL0001001||01/06/2026|31/05/2036",
    );
    expect(validateMfapiParam("06", mandateRegistrationParam(mandate()))).toBeNull();
  });

  it("no end date: 100 years from the start", () => {
    expect(mandateRegistrationParam(mandate({ endDate: null })).split("|")[8]).toBe("01/06/2126");
  });

  it("refuses an amount, account type or date the exchange cannot take", () => {
    expect(() => mandateRegistrationParam(mandate({ amountLimit: "5,000" }))).toThrow(/amountLimit: "5,000" is not a plain decimal amount/);
    expect(() => mandateRegistrationParam(mandate({ bank: { accountNumber: "1", ifsc: "SBIN0000456", accountType: "XX" } }))).toThrow(/bank.accountType: "XX"/);
    expect(() => mandateRegistrationParam(mandate({ startDate: "01-06-2026" }))).toThrow(/startDate: "01-06-2026" is not a YYYY-MM-DD date/);
  });

  it("the exchange's rules", () => {
    const good = mandateRegistrationParam(mandate());
    expect(validateMfapiParam("06", `${good}|`)).toBe("INVALID PARAM STRING FORMAT");
    expect(validateMfapiParam("06", withField(good, 1, ""))).toBe("CLIENT CODE MANDATORY");
    expect(validateMfapiParam("06", withField(good, 3, "E"))).toBe("FAILED: INVALID MANDATE TYPE");
    expect(validateMfapiParam("06", withField(good, 6, "SBIN000456"))).toBe("FAILED: INVALID IFSC CODE");
    expect(validateMfapiParam("06", withField(good, 2, "0"))).toBe("FAILED: INVALID AMOUNT");
    expect(validateMfapiParam("06", withField(good, 9, "2036-05-31"))).toBe("FAILED: INVALID END DATE");
    expect(validateMfapiParam("06", withField(good, 9, "01/06/2026"))).toBe("FAILED: END DATE SHOULD BE GREATER THAN START DATE");
    expect(validateMfapiParam("06", withField(good, 4, ""))).toBe("FAILED: ACCOUNT NO IS MANDATORY");
    expect(validateMfapiParam("14", good)).toBe("INVALID ACTION CODE");
  });
});

describe("SWP registration (flag 08) and cancellation (flag 10)", () => {
  it("19 fields in the document's order, amount or units", () => {
    expect(swpRegistrationParam(swp())).toBe("C000000001|02-DP|P|1234567/89|ord0000042|10/07/2026|12|Monthly|5000||N||Y|E123456|||9876543210|asha@example.in|000123456789");
    const byUnits = swpRegistrationParam(swp({ amount: null, units: "10.125", frequency: "QUARTERLY", firstOrderToday: true, euin: null, euinDeclared: false, remarks: "SWP", subBrokerArn: "ARN-12345", mobile: null, email: null }));
    expect(byUnits).toBe("C000000001|02-DP|P|1234567/89|ord0000042|10/07/2026|12|Quarterly||10.125|Y||N||SWP|ARN-12345|||000123456789");
    expect(validateMfapiParam("08", swpRegistrationParam(swp()))).toBeNull();
    expect(validateMfapiParam("08", byUnits)).toBeNull();
    expect(swpRegistrationParam(swp({ frequency: "WEEKLY" })).split("|")[7]).toBe("Weekly");
  });

  it("refuses both or neither quantity, a bad count, a long folio", () => {
    expect(() => swpRegistrationParam(swp({ units: "1" }))).toThrow(/exactly one must be given/);
    expect(() => swpRegistrationParam(swp({ amount: null }))).toThrow(/exactly one must be given/);
    expect(() => swpRegistrationParam(swp({ installments: 0 }))).toThrow(/installments: "0" is not a whole number/);
    expect(() => swpRegistrationParam(swp({ installments: 1.5 }))).toThrow(/installments/);
    expect(() => swpRegistrationParam(swp({ folioNo: "1234567890123456" }))).toThrow(/folioNo: .* longer than the exchange's 15 characters/);
  });

  it("the exchange's SWP rules", () => {
    const good = swpRegistrationParam(swp());
    expect(validateMfapiParam("08", good.split("|").slice(0, 18).join("|"))).toBe("INVALID PARAM STRING FORMAT");
    expect(validateMfapiParam("08", withField(good, 19, ""))).toBe("FAILED: BANK ACCOUNT NO IS MANDATORY");
    expect(validateMfapiParam("08", withField(good, 8, "MONTHLY"))).toBe("FAILED: INVALID FREQUENCY TYPE");
    expect(validateMfapiParam("08", withField(good, 6, "10/13/2026"))).toBe("FAILED: INVALID START DATE");
    expect(validateMfapiParam("08", withField(good, 10, "1"))).toBe("FAILED: EITHER INSTALLMENT AMOUNT OR INSTALLMENT UNITS IS MANDATORY");
    expect(validateMfapiParam("08", withField(good, 14, "123456"))).toBe("FAILED: INVALID EUIN NUMBER");
    expect(validateMfapiParam("08", withField(good, 17, "12345"))).toBe("FAILED: INVALID MOBILE NO");
  });

  it("cancellation: registration no | client | remarks", () => {
    const param = swpCancellationParam({ registrationNo: "39409", clientCode: "C000000001", remarks: "Investor asked" });
    expect(param).toBe("39409|C000000001|Investor asked");
    expect(swpCancellationParam({ registrationNo: "39409", clientCode: "C000000001", remarks: null })).toBe("39409|C000000001|");
    expect(validateMfapiParam("10", param)).toBeNull();
    expect(validateMfapiParam("10", withField(param, 1, "R1"))).toBe("FAILED: INVALID STP REGISTRATION NUMBER");
    expect(validateMfapiParam("10", withField(param, 2, ""))).toBe("CLIENT CODE MANDATORY");
    expect(() => swpCancellationParam({ registrationNo: "123456789", clientCode: "C1", remarks: null })).toThrow(/registrationNo/);
  });
});

describe("client order payment status (flag 11)", () => {
  it("client | order | BSEMF", () => {
    const param = paymentStatusParam({ clientCode: "C000000001", exchangeOrderNumber: "1815505" });
    expect(param).toBe("C000000001|1815505|BSEMF");
    expect(validateMfapiParam("11", param)).toBeNull();
    expect(validateMfapiParam("11", withField(param, 3, "MF"))).toBe("INVALID SEGMENT VALUE");
    expect(validateMfapiParam("11", withField(param, 2, "ord_1"))).toBe("INVALID ORDER NUMBER");
    expect(() => paymentStatusParam({ clientCode: "C1", exchangeOrderNumber: "ord_1" })).toThrow(/exchangeOrderNumber: "ord_1" is not an order number/);
  });

  it("reads the status texts with their mode", () => {
    expect(readPaymentStatus("PAYMENT NOT INITIATED FOR GIVEN ORDER")).toEqual({ status: "NOT_INITIATED" });
    expect(readPaymentStatus("AWAITING FOR FUNDS CONFIRMATION (UPI)")).toEqual({ status: "AWAITING_FUNDS", mode: "UPI" });
    expect(readPaymentStatus("APPROVED ( DIRECT )")).toEqual({ status: "APPROVED", mode: "DIRECT" });
    expect(readPaymentStatus("REJECTED")).toEqual({ status: "REJECTED", mode: null });
    expect(readPaymentStatus("approved (NODAL)")).toEqual({ status: "APPROVED", mode: "NODAL" });
    expect(readPaymentStatus("SOMETHING ELSE")).toBeNull();
  });
});

describe("the MFAPI answer", () => {
  it("100 is success with its message; 101 a failure classified for the caller", () => {
    expect(readMfapiResponse("100|MANDATE REGISTRATION DONE SUCCESSFULLY 2654")).toEqual({ ok: true, message: "MANDATE REGISTRATION DONE SUCCESSFULLY 2654" });
    const kinds: Array<[string, string]> = [
      ["PASSWORD EXPIRED", "session"],
      ["INVALID ENCRYPTED PASSWORD", "session"],
      // A session refusal is one predicate for every service (sessions.ts isSessionRefusal), whatever surrounds the text.
      ["FAILED: INVALID ENCRYPTED PASSWORD", "session"],
      ["PASSWORD EXPIRED. PLEASE LOGIN AGAIN", "session"],
      // Refusals of our login or member are read by the caller's refusal rule (refusals.ts), which depends on the request.
      ["INVALID USER ID", "rejected"],
      ["MEMBER CODE MANDATORY", "rejected"],
      ["INVALID MEMBER CODE", "rejected"],
      ["INVALID PARAM STRING FORMAT", "request"],
      ["CLIENT CODE MANDATORY", "request"],
      ["INVALID ACTION CODE", "request"],
      ["FAILED: SWP ALREADY CANCELLED", "rejected"],
      ["INVALID CLIENT CODE", "rejected"],
    ];
    for (const [message, kind] of kinds) expect(readMfapiResponse(`101|${message}`), message).toEqual({ ok: false, message, kind });
    expect(readMfapiResponse(" 101 | password expired ")).toEqual({ ok: false, message: "password expired", kind: "session" });
    expect(readMfapiResponse("100|a|b")).toEqual({ ok: true, message: "a|b" });
  });

  it("anything else is malformed: the exchange counts as unavailable", () => {
    for (const answer of ["", "OK", "102|x", "<html>"]) expect(() => readMfapiResponse(answer), answer).toThrow(ExchangeUnavailableError);
  });

  it("the mandate id from flag 06's message: XSIP digits, ISIP BSE + 12 digits", () => {
    expect(mandateIdFrom("MANDATE REGISTRATION DONE SUCCESSFULLY 2654")).toBe("2654");
    expect(mandateIdFrom("MANDATE REGISTERED. MANDATE ID: BSE 521824730118")).toBe("BSE521824730118");
    expect(mandateIdFrom("DONE")).toBeNull();
  });
});

describe("MFAPI builders and readers: the edges", () => {
  it("whole-string checks and bounds", () => {
    expect(() => paymentStatusParam({ clientCode: "C1", exchangeOrderNumber: "123abc" })).toThrow(/exchangeOrderNumber/);
    expect(() => swpRegistrationParam(swp({ installments: 100_000_000 }))).toThrow(/installments/);
    expect(swpRegistrationParam(swp({ installments: 1 })).split("|")[6]).toBe("1");
    expect(swpRegistrationParam(swp({ installments: 99_999_999 })).split("|")[6]).toBe("99999999");
    expect(() => mandateRegistrationParam(mandate({ amountLimit: "50.5x" }))).toThrow(/amountLimit/);
    expect(() => mandateRegistrationParam(mandate({ amountLimit: "50." }))).toThrow(/amountLimit/);
  });

  it("an answer without a separator, or with the separator first", () => {
    expect(readMfapiResponse(" 100 ")).toEqual({ ok: true, message: "" });
    expect(() => readMfapiResponse("|100")).toThrow(ExchangeUnavailableError);
    expect(() => readMfapiResponse(`${"9".repeat(40)}|x`)).toThrow(`BSE MFAPI: unexpected answer status "${"9".repeat(10)}"`);
  });

  it("payment status texts with spaces around, a mode only at the end", () => {
    expect(readPaymentStatus("  PAYMENT NOT INITIATED FOR GIVEN ORDER")).toEqual({ status: "NOT_INITIATED" });
    expect(readPaymentStatus("APPROVED (UPI) ")).toEqual({ status: "APPROVED", mode: "UPI" });
    expect(readPaymentStatus("APPROVED (UPI) LATER")).toEqual({ status: "APPROVED", mode: null });
    expect(readPaymentStatus("APPROVED (UPI)x")).toEqual({ status: "APPROVED", mode: null });
    expect(readPaymentStatus("APPROVED ()")).toEqual({ status: "APPROVED", mode: null });
    expect(readPaymentStatus("NOT REJECTED")).toBeNull();
    expect(mandateIdFrom("MANDATE ID BSE521824730118")).toBe("BSE521824730118");
  });
});
