/**
 * The `Parameters` strings of the upload service's MFAPI method (section 2 of bse-starmf-services.md) for
 * mandate registration (flag 06), SWP registration (08) and cancellation (10) and the client order payment
 * status (11), and the reader of its `StatusCode|Remarks` answer.
 */
import { ExchangeUnavailableError, type MandateRegistration } from "../port.js";
import { BseMappingError, MANDATE_TYPE, SWP_FREQUENCY, UCC_ACCOUNT_TYPES, codeIn, oneOf } from "./codes.js";
import { bseDate, fit, pipeSafe } from "./format.js";
import { isSessionRefusal } from "./sessions.js";

export const MFAPI_FLAG = {
  fatcaUpload: "01",
  mandateRegistration: "06",
  swpRegistration: "08",
  swpCancellation: "10",
  clientOrderPaymentStatus: "11",
} as const;

const join = (fields: Array<[field: string, value: string]>) => fields.map(([field, value]) => pipeSafe(field, value)).join("|");

/** A money amount as a plain decimal (`5000`, `5000.50`): digits, at most one point. */
function amount(field: string, value: string): string {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new BseMappingError(field, value, "is not a plain decimal amount");
  return value;
}

/**
 * Flag 06: `CLIENT CODE|AMOUNT|Mandate Type|ACCOUNT NO|A/C TYPE|IFSC|MICR|START DATE|END DATE`. An e-NACH
 * mandate is type N, a physical one X (XSIP); with no end date the mandate runs 100 years from its start
 * (the document's default is today + 100 years; the start is today or later).
 */
export function mandateRegistrationParam(mandate: MandateRegistration): string {
  const endDate = mandate.endDate ?? `${Number(mandate.startDate.slice(0, 4)) + 100}${mandate.startDate.slice(4)}`;
  return join([
    ["clientCode", fit("clientCode", mandate.clientCode, 10)],
    ["amountLimit", amount("amountLimit", mandate.amountLimit)],
    ["mandateType", codeIn(MANDATE_TYPE, "mandateType", mandate.mandateType)],
    ["bank.accountNumber", fit("bank.accountNumber", mandate.bank.accountNumber, 20)],
    ["bank.accountType", oneOf(UCC_ACCOUNT_TYPES, "bank.accountType", mandate.bank.accountType)],
    ["bank.ifsc", fit("bank.ifsc", mandate.bank.ifsc, 11)],
    ["bank.micr", ""],
    ["startDate", bseDate("startDate", mandate.startDate)],
    ["endDate", bseDate("endDate", endDate)],
  ]);
}

/**
 * An SWP registration as flag 08 takes it. The port's OrderEntry lacks the plan (start date, count,
 * frequency), the bank account and the contact details the document asks for, so the adapter builds this
 * from the order, its `swp` details and the investor.
 */
export interface SwpRegistration {
  clientCode: string;
  schemeCode: string;
  /** P physical (our folios), D demat. */
  transactionMode: "P" | "D";
  folioNo: string;
  /** Our reference for the registration (at most 10 characters). */
  internalRef: string;
  startDate: string;
  installments: number;
  frequency: keyof typeof SWP_FREQUENCY;
  /** Exactly one of amount and units (decimal strings). */
  amount: string | null;
  units: string | null;
  firstOrderToday: boolean;
  euin: string | null;
  euinDeclared: boolean;
  remarks: string | null;
  subBrokerArn: string | null;
  mobile: string | null;
  email: string | null;
  bankAccountNumber: string;
}

export function swpRegistrationParam(swp: SwpRegistration): string {
  if ((swp.amount === null) === (swp.units === null)) {
    throw new BseMappingError("amount", String(swp.amount), "and units: exactly one must be given");
  }
  if (!Number.isInteger(swp.installments) || swp.installments < 1 || swp.installments > 99_999_999) {
    throw new BseMappingError("installments", String(swp.installments), "is not a whole number of withdrawals");
  }
  return join([
    ["clientCode", fit("clientCode", swp.clientCode, 10)],
    ["schemeCode", fit("schemeCode", swp.schemeCode, 20)],
    ["transactionMode", swp.transactionMode],
    ["folioNo", fit("folioNo", swp.folioNo, 15)],
    ["internalRef", fit("internalRef", swp.internalRef, 10)],
    ["startDate", bseDate("startDate", swp.startDate)],
    ["installments", String(swp.installments)],
    ["frequency", codeIn(SWP_FREQUENCY, "frequency", swp.frequency)],
    ["amount", swp.amount === null ? "" : amount("amount", swp.amount)],
    ["units", swp.units === null ? "" : amount("units", swp.units)],
    ["firstOrderToday", swp.firstOrderToday ? "Y" : "N"],
    ["subBrokerCode", ""],
    ["euinDeclared", swp.euinDeclared ? "Y" : "N"],
    ["euin", fit("euin", swp.euin ?? "", 7)],
    ["remarks", fit("remarks", swp.remarks ?? "", 100)],
    ["subBrokerArn", fit("subBrokerArn", swp.subBrokerArn ?? "", 20)],
    ["mobile", fit("mobile", swp.mobile ?? "", 10)],
    ["email", fit("email", swp.email ?? "", 50)],
    ["bankAccountNumber", fit("bankAccountNumber", swp.bankAccountNumber, 20)],
  ]);
}

/** Flag 10: `SWP registration no|client code|remarks`. */
export function swpCancellationParam(cancel: { registrationNo: string; clientCode: string; remarks: string | null }): string {
  return join([
    ["registrationNo", fit("registrationNo", cancel.registrationNo, 8)],
    ["clientCode", fit("clientCode", cancel.clientCode, 10)],
    ["remarks", fit("remarks", cancel.remarks ?? "", 100)],
  ]);
}

/** Flag 11: `ClientCode|OrderNo|Segment`, segment BSEMF for a mutual fund order. */
export function paymentStatusParam(query: { clientCode: string; exchangeOrderNumber: string }): string {
  if (!/^\d+$/.test(query.exchangeOrderNumber)) throw new BseMappingError("exchangeOrderNumber", query.exchangeOrderNumber, "is not an order number");
  return join([
    ["clientCode", fit("clientCode", query.clientCode, 10)],
    ["exchangeOrderNumber", query.exchangeOrderNumber],
    ["segment", "BSEMF"],
  ]);
}

/**
 * What a failure means for the caller (section 2.6 and 11.2):
 * - `session`: the encrypted password is stale (PASSWORD EXPIRED, INVALID ENCRYPTED PASSWORD): log in
 *   again and retry once;
 * - `request`: the exchange could not read what we sent (param format, a blank mandatory code): a bug of ours;
 * - `rejected`: the exchange refused the request (a FAILED: ... message and every other text). A refusal
 *   of our login or member (INVALID USER ID, INVALID MEMBER CODE, ...) is among these: the caller applies
 *   the one refusal rule of refusals.ts, which depends on the request (an order or a registration).
 */
export type MfapiFailureKind = "session" | "request" | "rejected";

/** The documented texts of the request kind, matched whole (a session refusal is `isSessionRefusal`'s, as on every service). */
const FAILURE_KIND: Readonly<Record<string, Exclude<MfapiFailureKind, "session">>> = {
  "INVALID PARAM STRING FORMAT": "request",
  "CLIENT CODE MANDATORY": "request",
  "INVALID ACTION CODE": "request",
};

export type MfapiResult = { ok: true; message: string } | { ok: false; message: string; kind: MfapiFailureKind };

/**
 * The MFAPI answer: `100|message` success, `101|reason` failure (section 2.5). Anything that is not
 * `100|...` or `101|...` is malformed: the exchange counts as unavailable and the job retries.
 */
export function readMfapiResponse(answer: string): MfapiResult {
  const separator = answer.indexOf("|");
  const code = separator < 0 ? answer.trim() : answer.slice(0, separator).trim();
  const message = separator < 0 ? "" : answer.slice(separator + 1).trim();
  if (code === "100") return { ok: true, message };
  if (code === "101") return { ok: false, message, kind: isSessionRefusal(message) ? "session" : (FAILURE_KIND[message.toUpperCase()] ?? "rejected") };
  throw new ExchangeUnavailableError(`BSE MFAPI: unexpected answer status ${JSON.stringify(code.slice(0, 10))}`);
}

/** Flag 06's success message carries the mandate id: the last run of letters and digits (ISIP ids are `BSE` + 12). */
export function mandateIdFrom(message: string): string | null {
  const isip = /BSE\s?\d{12}/.exec(message);
  if (isip) return isip[0].replace(/\s/, "");
  const digits = message.match(/\d+/g);
  return digits ? digits[digits.length - 1]! : null;
}

export type PaymentStatusAnswer =
  | { status: "NOT_INITIATED" }
  | { status: "AWAITING_FUNDS"; mode: string | null }
  | { status: "APPROVED"; mode: string | null }
  | { status: "REJECTED"; mode: string | null };

/** Flag 11's status text: `PAYMENT NOT INITIATED FOR GIVEN ORDER`, `AWAITING FOR FUNDS CONFIRMATION (Mode)`, `APPROVED (Mode)`, `REJECTED (Mode)`. */
export function readPaymentStatus(message: string): PaymentStatusAnswer | null {
  const text = message.trim().toUpperCase();
  if (text.startsWith("PAYMENT NOT INITIATED")) return { status: "NOT_INITIATED" };
  const mode = /\(([^)]*)\)\s*$/.exec(message.trim())?.[1]?.trim() || null;
  if (text.startsWith("AWAITING FOR FUNDS CONFIRMATION")) return { status: "AWAITING_FUNDS", mode };
  if (text.startsWith("APPROVED")) return { status: "APPROVED", mode };
  if (text.startsWith("REJECTED")) return { status: "REJECTED", mode };
  return null;
}
