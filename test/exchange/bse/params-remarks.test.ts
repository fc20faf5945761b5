import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { applyRefusalRule, BseRefusedError, refusalOf, rejectedOrder } from "../../../src/integrations/exchange/bse/refusals.js";
import { failureCodeFor, providerRemark, REMARK_PATTERNS } from "../../../src/integrations/exchange/bse/remarks.js";
import { capturingLogger } from "../../helpers/logs.js";
import { internalRefOf, MAX_MEMBER_ID_LENGTH, memberIdProblem } from "../../../src/integrations/exchange/bse/trans-no-layout.js";

/** README's remark table ("- **Remarks** (`remarks.ts`)"): its rows as [text, failure_code], and the code of "anything else". */
function readmeRemarkTable(): { rows: Array<[string, string]>; otherwise: string | null } {
  const lines = readFileSync("docs/operations.md", "utf8").split("\n");
  const start = lines.findIndex((line) => line.startsWith("- **Remarks** (`remarks.ts`)"));
  expect(start).toBeGreaterThanOrEqual(0);
  const header = lines.findIndex((line, i) => i > start && line.trim().startsWith("|"));
  const rows: Array<[string, string]> = [];
  let otherwise: string | null = null;
  for (const line of lines.slice(header + 2)) {
    if (!line.trim().startsWith("|")) break;
    const [text, code] = line.split("|").slice(1, 3).map((cell) => cell.trim());
    const codeValue = /^`([a-z_]+)`$/.exec(code!)?.[1] ?? `(not a code: ${code})`;
    if (text === "anything else") otherwise = codeValue;
    else rows.push([/^`([^`]+)`$/.exec(text!)?.[1] ?? `(not one text: ${text})`, codeValue]);
  }
  return { rows, otherwise };
}

describe("the exchange's remarks -> failure_code", () => {
  it("README's table is remarks.ts's list, row for row and in its order, and anything else is exchange_rejected", () => {
    const { rows, otherwise } = readmeRemarkTable();
    expect(rows).toEqual(REMARK_PATTERNS.map(([text, code]) => [text, code]));
    expect(otherwise).toBe("exchange_rejected");
  });

  it("the documents' texts, with the exchange's prefixes and suffixes, in any case; the first row that matches decides", () => {
    const cases: Array<[string, string]> = [
      ["FAILED: INVALID MANDATE NUMBER FOR GIVEN CLIENT CODE", "mandate_invalid"],
      ["FAILED: INVALID MANDATE ID FOR GIVEN MEMBER CODE AND CLIENT CODE", "mandate_invalid"],
      ["INVALID CLIENT CODE FOR GIVEN MANDATE ID", "mandate_invalid"],
      ["INVALID MEMBER CODE FOR GIVEN MANDATE ID", "mandate_invalid"],
      ["FAILED: INVALID CLIENT CODE FOR GIVEN MEMBER CODE", "client_not_registered"],
      ["client code mandatory", "client_not_registered"],
      ["INVALID CLIENT ACCOUNT NUMBER", "payout_account_invalid"],
      ["FAILED: MEMBER CODE MANDATORY", "member_not_permitted"],
      ["THE MEMBER IS SUSPENDED. CONTACT ADMIN", "member_not_permitted"],
      ["THE BRANCH IS SUSPENDED. CONTACT ADMIN", "member_not_permitted"],
      ["FAILED: USER DOES NOT EXIST", "member_not_permitted"],
      ["FAILED: USER NOT EXISTS", "member_not_permitted"],
      ["INVALID USER ID", "member_not_permitted"],
      ["USER IS DISABLED. CONTACT ADMIN", "member_not_permitted"],
      ["FAILED: INVALID MEMBER CODE", "member_not_permitted"],
      ["FAILED: SCHEME NOT AVAILABLE FOR PURCHASE", "exchange_rejected"],
      ["", "exchange_rejected"],
    ];
    expect(cases.map(([remark]) => [remark, failureCodeFor(remark)])).toEqual(cases);
  });

  it("keeps the remark trimmed with PANs masked; an empty one is null", () => {
    expect(providerRemark("  FAILED: PAN ABCDE1234F NOT KYC COMPLIANT \n")).toBe("FAILED: PAN ABXXXXX34F NOT KYC COMPLIANT");
    expect(providerRemark(" \t")).toBeNull();
    expect(providerRemark("ORDER CONFIRMED")).toBe("ORDER CONFIRMED");
  });
});

describe("the one rule for refusals of our login or member", () => {
  it("a login refusal, a member refusal (the table's member_not_permitted rows) or neither; a session refusal is not a login refusal", () => {
    const cases: Array<[string, ReturnType<typeof refusalOf>]> = [
      ["FAILED:INVALID ACCOUNT INFORMATION", "login"],
      ["FAILED: PASSWORD MANDATORY", "login"],
      ["INVALID API KEY", "login"],
      ["YOU HAVE EXCEEDED MAXIMUM LOGIN ATTEMPTS", "login"],
      ["INVALID ENCRYPTED PASSWORD", null],
      ["PASSWORD EXPIRED", null],
      ["INVALID USER ID", "member"],
      ["FAILED: INVALID MEMBER CODE", "member"],
      ["THE MEMBER IS SUSPENDED. CONTACT ADMIN", "member"],
      ["USER IS DISABLED. CONTACT ADMIN", "member"],
      ["FAILED: USER DOES NOT EXIST", "member"],
      ["INVALID MEMBER CODE FOR GIVEN MANDATE ID", null],
      ["FAILED: INVALID CLIENT CODE", null],
    ];
    expect(cases.map(([text]) => [text, refusalOf(text)])).toEqual(cases);
  });

  it("orders: a member refusal is REJECTED member_not_permitted; registrations: unavailable, logged at error; a login refusal is unavailable for both", () => {
    const capture = capturingLogger();
    expect(rejectedOrder("STP registration", "MEMBER IS SUSPENDED ABCDE1234F", null)).toEqual({
      status: "REJECTED", exchangeOrderNumber: null, remark: "MEMBER IS SUSPENDED ABXXXXX34F", failureCode: "member_not_permitted",
    });
    expect(() => applyRefusalRule("order", "orderEntryParam", "FAILED:INVALID ACCOUNT INFORMATION")).toThrow(BseRefusedError);
    expect(() => applyRefusalRule("registration", "mandate registration", "MEMBER IS SUSPENDED", capture.logger)).toThrow("BSE mandate registration refused: MEMBER IS SUSPENDED");
    expect(() => applyRefusalRule("registration", "single payment", "FAILED: INVALID CLIENT CODE", capture.logger)).not.toThrow();
    expect(capture.parsed().map((l) => [l.level, l.operation, l.refusal, l.exchange_message])).toEqual([[capture.parsed()[0]!.level, "mandate registration", "member", "MEMBER IS SUSPENDED"]]);
    expect(["error", 50]).toContain(capture.parsed()[0]!.level);
  });
});

describe("TransNo layout", () => {
  it("the internal reference is the TransNo's MMDD and running number: 10 characters", () => {
    expect(internalRefOf("2026031410234000042")).toBe("0314000042");
    expect(internalRefOf("2026123112345999999")).toBe("1231999999");
  });

  it("a member id of at most 5 characters fits 19 with the date and 6 digits; a longer one is refused with the reason", () => {
    expect(MAX_MEMBER_ID_LENGTH).toBe(5);
    expect(memberIdProblem("")).toBeNull();
    expect(memberIdProblem("12345")).toBeNull();
    expect(memberIdProblem("123456")).toBe(
      "BSE_MEMBER_ID is 6 characters, but the exchange's unique reference (TransNo, 19 characters: YYYYMMDD + member id + a 6-digit running number) leaves room for at most 5; confirm the layout with the exchange",
    );
  });
});
