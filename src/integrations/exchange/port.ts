/**
 * Everything the service asks of the exchange (BSE StAR MF), as one interface. The service calls it
 * only from jobs, never inside a request. Implementations: the sandbox (inside the service, for
 * development and tests); a production implementation speaks the exchange's web services.
 *
 * Order entry is idempotent on the service's order id: the exchange's unique reference number is
 * derived from it, so a retried dispatch is recognised and never places a second order.
 */

import type { OrderFailureCode } from "./outcomes.js";
import type { PaymentFailureCode } from "./outcomes.js";

/** What the exchange says about a registration (UCC or mandate). */
export type RegistrationOutcome =
  | { status: "PENDING"; remark: string | null }
  | { status: "REGISTERED"; remark: string | null }
  | { status: "REJECTED"; remark: string };

/** How many nominees the exchange's UCC carries (SEBI's 2025 framework allows 10; the UCC document has three). */
export const MAX_NOMINEES = 3;

/** The UCC (client master) record, in the exchange's own codes. */
export interface UccRegistration {
  clientCode: string;
  taxStatus: string;
  holdingNature: string;
  occupation: string;
  clientType: "P" | "D";
  depository: "C" | "N" | null;
  /** The demat account (null for PHYSICAL): CDSL's 16-digit client id alone, NSDL's DP id and 8-digit client id. */
  dematAccount: { dpId: string | null; clientId: string } | null;
  primaryHolder: { pan: string; name: string; dateOfBirth: string; gender: string; kycType: string; ckycNumber: string | null };
  jointHolders: Array<{ pan: string; name: string; dateOfBirth: string; kycType: string }>;
  guardian: { name: string; pan: string; relation: string } | null;
  contact: { email: string; mobile: string; emailRelation: string; mobileRelation: string };
  address: { line1: string; line2: string | null; city: string; state: string; pincode: string; country: string };
  bankAccounts: Array<{ accountType: string; accountNumber: string; ifsc: string; isDefault: boolean }>;
  nominees: Array<{ name: string; relation: string; percentage: number; minor: boolean; dateOfBirth: string | null; guardianName: string | null }>;
  /**
   * No nominees because the investor opted out, authenticated online (a consent link: the UCC's "Nomination Opt" N with
   * the authentication mode of an OTP-with-declaration). The enhanced UCC's 131-field document has no such field: the BSE
   * adapter does not send it yet (a UAT point); the sandbox books it.
   */
  nominationOptedOut: boolean;
  fatca: {
    /** The catalog's full occupation code (FATCA takes 01-09 and 41-44; the UCC field above only 01-08). */
    occupationCode: string;
    occupationType: string;
    incomeSlab: string;
    pep: string;
    sourceOfWealth: string;
    countryOfBirth: string;
    placeOfBirth: string;
    taxResidentOtherCountry: boolean;
  };
}

/**
 * A change of a registered investor's UCC (the exchange's modification, MOD): the whole record as it will be,
 * the service's id of the change (the exchange books it once), and whether the FATCA declaration changed.
 */
export interface UccModification {
  changeId: string;
  ucc: UccRegistration;
  fatcaChanged: boolean;
}

export interface MandateRegistration {
  mandateId: string;
  clientCode: string;
  mandateType: "ENACH" | "PHYSICAL";
  amountLimit: string;
  startDate: string;
  endDate: string | null;
  bank: { accountNumber: string; ifsc: string; accountType: string };
}

/**
 * The exchange could not be reached or answered nonsense; the job retries. `retryAfterMs`: the exchange
 * asks for a retry that soon instead of the job's usual backoff (the sandbox's SIM:FAIL).
 * `notPlaced` (placeOrder only): the exchange certainly holds nothing of the order, so the dispatch
 * releases its claim and a cancel may go through before the retry; unset when that is not certain.
 */
export class ExchangeUnavailableError extends Error {
  readonly retryAfterMs: number | undefined;
  readonly notPlaced: boolean;

  constructor(message: string, options: { retryAfterMs?: number; notPlaced?: boolean } = {}) {
    super(message);
    this.name = "ExchangeUnavailableError";
    this.retryAfterMs = options.retryAfterMs;
    this.notPlaced = options.notPlaced ?? false;
  }
}

/** One order as the exchange's order entry takes it (amounts and units as exact decimal strings). */
export interface OrderEntry {
  orderId: string;
  clientCode: string;
  orderType: "LUMPSUM_PURCHASE" | "REDEMPTION" | "SWITCH" | "SIP" | "XSIP" | "STP" | "SWP" | "SIP_TOPUP";
  /** The exchange's scheme code (its scheme master's, for the order's holding mode), never AMFI's. */
  schemeCode: string;
  /** A switch's or STP's target, as the exchange codes it. */
  toSchemeCode: string | null;
  purchaseType: "FRESH" | "ADDITIONAL" | null;
  amount: string | null;
  units: string | null;
  allUnits: boolean;
  folioNo: string | null;
  mandateId: string | null;
  euin: string | null;
  euinDeclared: boolean;
  remarks: string | null;
  /** Where the units are held: physical (folio) or a depository; null is physical. */
  holdingMode: "PHYSICAL" | "CDSL" | "NSDL" | null;
  subBrokerArn: string | null;
  /** The bank account (clear) a redemption or an SWP pays into; null for other types or when the investor has none. */
  payoutAccountNumber: string | null;
  /** An SWP's or STP's investor contact (clear), which the exchange sends for the investor's verification; absent for other types. */
  contact?: { mobile: string; email: string } | null;
  /** A registration's plan (SIP, XSIP, STP, SWP): dates YYYY-MM-DD; absent or null for other types. */
  plan?: { frequency: "MONTHLY" | "QUARTERLY" | "WEEKLY"; startDate: string; installments: number; installmentDay: number | null } | null;
  /** The exchange's id of the order's mandate (an XSIP's), once the exchange has given one. */
  exchangeMandateId?: string | null;
}

export type OrderPlacement =
  | { status: "ACCEPTED"; exchangeOrderNumber: string; remark: string | null }
  | { status: "PENDING"; exchangeOrderNumber: string | null; remark: string | null }
  | { status: "REJECTED"; exchangeOrderNumber: string | null; remark: string; failureCode?: OrderFailureCode };

/** What the exchange has for one of our order references (an order it never received is not reported). */
export interface OrderStatusReport {
  orderId: string;
  status: "PENDING" | "ACCEPTED" | "REJECTED";
  /** The exchange's order number; null for a rejected order. */
  exchangeOrderNumber: string | null;
  remark: string | null;
}

/** A row of the exchange's allotment statement. */
export interface AllotmentReport {
  orderId: string;
  exchangeOrderNumber: string;
  folioNo: string;
  schemeCode: string;
  nav: string;
  units: string;
  amount: string;
  allotmentDate: string;
  valid: boolean;
  remark: string | null;
}

/**
 * One row of the exchange's order status report for a day: any order of this member (ours or not). Registrations
 * (SIP, XSIP, STP, SWP) are not orders of the report; their installments are. Amounts and units exact strings.
 */
export interface ExchangeOrderRow {
  /** Our order id when the exchange's row names one of our references; null when it does not (the service still matches by number). */
  orderId: string | null;
  exchangeOrderNumber: string;
  clientCode: string;
  schemeCode: string;
  /** P purchase, R redemption (a switch's switch-out is R). */
  buySell: "P" | "R";
  status: "PENDING" | "ACCEPTED" | "REJECTED";
  /** 2 decimal places; null when the row carries none. */
  amount: string | null;
  /** 3 decimal places; null when the row carries none. */
  units: string | null;
  remark: string | null;
}

/** A row of the allotment (or redemption) statement for the orders of a day; `orderId` as in ExchangeOrderRow. */
export type ExchangeAllotmentRow = Omit<AllotmentReport, "orderId"> & { orderId: string | null };

export interface PaymentRequest {
  paymentId: string;
  clientCode: string;
  orderIds: string[];
  amount: string;
  mode: "UPI" | "NETBANKING" | "MANDATE" | "CHEQUE";
  mandateId: string | null;
  /** UPI: the investor's address in clear (the payment stores it masked and encrypted). */
  vpa: string | null;
  /** The investor's bank account the money comes from (NETBANKING: the chosen one; otherwise the primary), in clear. */
  bankAccount: { accountNumber: string; ifsc: string } | null;
  /** Where the bank sends the investor back after net banking (the order link's page), when there is one. */
  returnUrl: string | null;
}

/**
 * What the investor is shown to pay, when the exchange's payment API answers one: the bank's page
 * (net banking: HTML to be rendered to the investor) or a message (UPI: approve the collect request).
 */
export type PaymentPage = { kind: "html"; html: string } | { kind: "message"; text: string };

export type PaymentInitiation =
  | { status: "PENDING"; paymentReference: string; page?: PaymentPage | null }
  | { status: "FAILED"; remark: string; failureCode: PaymentFailureCode };

export interface PaymentStatusReport {
  paymentId: string;
  status: "PENDING" | "CAPTURED" | "FAILED" | "REFUNDED";
  remark: string | null;
  /** Why a FAILED payment failed, when the exchange's text tells (else the service's default). */
  failureCode?: PaymentFailureCode;
}

/** One of our installment (child) orders of a registration, as the exchange's child orders are matched to it. */
export interface InstallmentOrderRef {
  orderId: string;
  registrationOrderId: string;
  clientCode: string;
  orderType: "SIP" | "XSIP" | "STP" | "SWP";
  installmentNo: number;
  /** YYYY-MM-DD: the installment's due date, the day the exchange generates its child order. */
  dueDate: string;
}

export interface ExchangePort {
  registerInvestor(ucc: UccRegistration): Promise<RegistrationOutcome>;
  investorStatus(clientCode: string): Promise<RegistrationOutcome>;
  /** REGISTERED: the exchange applied the change; PENDING: it has it and decides later (the sandbox); REJECTED: refused. */
  modifyInvestor(change: UccModification): Promise<RegistrationOutcome>;
  registerMandate(mandate: MandateRegistration): Promise<RegistrationOutcome & { exchangeMandateId: string | null }>;
  mandateStatus(mandateId: string): Promise<RegistrationOutcome>;
  cancelMandate(mandateId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }>;
  /** Where the investor authorises an e-NACH mandate with the bank, when the exchange has such a link (else null). */
  mandateAuthUrl(mandateId: string): Promise<string | null>;
  placeOrder(order: OrderEntry): Promise<OrderPlacement>;
  cancelOrder(orderId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }>;
  /** Pauses the next `installments` installments of a SIP or XSIP registration (BSE: the PauseSIP service). */
  pauseSip(orderId: string, installments: number): Promise<{ paused: true } | { paused: false; remark: string }>;
  /** Ends a SIP or XSIP pause early; absent where the exchange has no such service (BSE's PauseSIP only pauses). */
  resumeSip?(orderId: string): Promise<{ resumed: true } | { resumed: false; remark: string }>;
  orderStatus(orderIds: string[]): Promise<OrderStatusReport[]>;
  allotments(orderIds: string[]): Promise<AllotmentReport[]>;
  /** The order status report of one India business day (YYYY-MM-DD): every order of this member that day. */
  orderStatusForDate(date: string): Promise<ExchangeOrderRow[]>;
  /** The allotment and redemption statements' rows of the orders of one India business day, allotted since. */
  allotmentsForDate(date: string): Promise<ExchangeAllotmentRow[]>;
  createPayment(payment: PaymentRequest): Promise<PaymentInitiation>;
  paymentStatus(paymentIds: string[]): Promise<PaymentStatusReport[]>;
  /**
   * Only where the exchange generates the installments itself (BSE's child orders): the exchange's order
   * numbers of these installment orders, for those it has generated; the status sync then follows them
   * like any order. Absent (the sandbox): installments keep the numbers the schedule gives them.
   */
  matchInstallments?(installments: InstallmentOrderRef[]): Promise<Array<{ orderId: string; exchangeOrderNumber: string }>>;
}
