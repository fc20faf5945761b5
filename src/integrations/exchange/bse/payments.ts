import { maskFreeText } from "../../../platform/lib/mask.js";
import type { PaymentFailureCode } from "../outcomes.js";
import { ExchangeUnavailableError, type PaymentInitiation, type PaymentRequest, type PaymentStatusReport } from "../port.js";
import type { BseContext } from "./bse-context.js";
import { BseMappingError } from "./codes.js";
import { mappingRemark } from "./investors.js";
import { exchangeOrderNumbers, paymentsAtExchange } from "./lookups.repo.js";
import { callMfapi } from "./mfapi.js";
import { MFAPI_FLAG, paymentStatusParam, readPaymentStatus } from "./mfapi-params.js";
import { applyRefusalRule } from "./refusals.js";
import { textOf } from "./web-service.js";

export const SINGLE_PAYMENT_PATH = "/StarMFSinglePaymentAPI/Single/Payment";

/**
 * The exchange's net-banking bank ids (bse-starmf-services.md §9.3) by the IFSC's bank prefix: the seven
 * DIRECT banks and the NODAL banks the document names; the others are NODAL under ids of the exchange's
 * full list (to be loaded from it in UAT). Its UPI bank codes (§9.4) are the same for these banks.
 */
export const NETBANKING_BANK_IDS: Readonly<Record<string, { id: string; mode: "DIRECT" | "NODAL" }>> = {
  KKBK: { id: "162", mode: "DIRECT" },
  HDFC: { id: "HDF", mode: "DIRECT" },
  ICIC: { id: "ICI", mode: "DIRECT" },
  SBIN: { id: "SBI", mode: "DIRECT" },
  UTIB: { id: "UTI", mode: "DIRECT" },
  YESB: { id: "YBK", mode: "DIRECT" },
  INDB: { id: "IDS", mode: "DIRECT" },
  UBIN: { id: "UBI", mode: "NODAL" },
  PUNB: { id: "PNB", mode: "NODAL" },
  CNRB: { id: "CNB", mode: "NODAL" },
  BARB: { id: "BBR", mode: "NODAL" },
  IDIB: { id: "INB", mode: "NODAL" },
};
export const UPI_BANK_CODES: Readonly<Record<string, string>> = {
  KKBK: "162", HDFC: "HDF", ICIC: "ICI", SBIN: "SBI", UTIB: "UTI", IDFB: "IDF", PYTM: "PYTM", RATN: "RAT",
};

/**
 * The payment API's and flag 11's refusals that name a cause of the closed payment failure codes; every
 * other refusal is `bank_declined` (docs/operations.md "Payments through the exchange").
 */
export const PAYMENT_REMARK_PATTERNS: ReadonlyArray<readonly [RegExp, PaymentFailureCode]> = [
  [/INVALID CLIENT ACCOUNT NUMBER|THIRD PARTY|TPV/i, "tpv_failed"],
  [/VPA|UPI ID/i, "invalid_vpa"],
  [/INSUFFICIENT/i, "insufficient_funds"],
  [/CANCELLED BY (USER|CLIENT|INVESTOR)|USER CANCELLED/i, "user_cancelled"],
  [/EXPIRED|TIMED? ?OUT/i, "payment_expired"],
];
export function paymentFailureCodeFor(remark: string): PaymentFailureCode {
  return PAYMENT_REMARK_PATTERNS.find(([pattern]) => pattern.test(remark))?.[1] ?? "bank_declined";
}

/** Refusals that mean the exchange already has a payment for the orders: the first one stands (a retried job). */
const ALREADY_STARTED = /ALREADY INITIATED|ALLREADY INITIATED|PAYMENT DONE FOR THIS ORDER|PAYMENT ALREADY RECIEVED|PAYMENT ALREADY RECEIVED/i;

/**
 * A payment through the single integrated payment API (§9.2): UPI sends a collect request to the
 * investor's address, net banking answers the bank's page for the investor. MANDATE and CHEQUE are not
 * sent: the API has no mandate debit yet (`mandateid` is reserved; the exchange debits an XSIP's mandate
 * itself) and no cheque mode (a cheque is deposited with the exchange's collecting bank). Every mode's
 * settlement comes from the client order payment status (`paymentStatus`). The reference is
 * `BSE:<exchange order number(s)>`.
 */
export async function initiatePayment(ctx: BseContext, payment: PaymentRequest): Promise<PaymentInitiation> {
  const numbers = await exchangeOrderNumbers(ctx.db, payment.orderIds);
  const missing = payment.orderIds.filter((id) => !numbers.has(id));
  if (missing.length > 0) throw new ExchangeUnavailableError(`BSE payment ${payment.paymentId}: order ${missing.join(", ")} has no exchange order number yet`);
  const orderNumbers = payment.orderIds.map((id) => numbers.get(id)!);
  const paymentReference = `BSE:${orderNumbers.join(",")}`;
  if (payment.mode === "MANDATE" || payment.mode === "CHEQUE") return { status: "PENDING", paymentReference, page: null };

  let body: Record<string, string>;
  try {
    body = paymentBody(ctx, payment, orderNumbers);
  } catch (error) {
    if (error instanceof BseMappingError) return { status: "FAILED", remark: mappingRemark(error), failureCode: "bank_declined" };
    throw error;
  }
  const answer = await ctx.transport.json("single payment", SINGLE_PAYMENT_PATH, body);
  if (typeof answer !== "object" || answer === null) throw new ExchangeUnavailableError("BSE single payment: the answer is not a JSON object");
  const { statuscode: code, responsestring: response } = answer as Record<string, unknown>;
  const text = typeof response === "string" ? response : "";
  ctx.log.info({ payment_id: payment.paymentId, mode: body.modeofpayment, status_code: code }, "BSE single payment answered");
  if (code === "100") {
    const page = payment.mode === "NETBANKING" ? { kind: "html" as const, html: text } : { kind: "message" as const, text: maskFreeText(text.trim()) };
    return { status: "PENDING", paymentReference, page: text.trim() === "" ? null : page };
  }
  if (code === "101") {
    applyRefusalRule("registration", "single payment", text, ctx.log);
    const remark = maskFreeText(text.trim() || "PAYMENT REFUSED BY THE EXCHANGE");
    if (ALREADY_STARTED.test(remark)) return { status: "PENDING", paymentReference, page: null };
    return { status: "FAILED", remark, failureCode: paymentFailureCodeFor(remark) };
  }
  throw new ExchangeUnavailableError(`BSE single payment: unexpected statuscode ${JSON.stringify(code)?.slice(0, 10)}`);
}

function paymentBody(ctx: BseContext, payment: PaymentRequest, orderNumbers: string[]): Record<string, string> {
  const account = payment.bankAccount;
  if (!account) throw new BseMappingError("bankAccount", "null", "is required: the payment API takes the investor's registered account");
  const prefix = account.ifsc.slice(0, 4).toUpperCase();
  let mode: string;
  let bankId: string;
  let vpa = "";
  let loopback = "";
  if (payment.mode === "UPI") {
    if (!payment.vpa) throw new BseMappingError("vpa", "null", "is required for UPI");
    const code = UPI_BANK_CODES[prefix];
    if (!code) throw new BseMappingError("bankAccount.ifsc", prefix, "has no UPI bank code of the exchange");
    [mode, bankId, vpa] = ["UPI", code, payment.vpa];
  } else {
    const bank = NETBANKING_BANK_IDS[prefix];
    if (!bank) throw new BseMappingError("bankAccount.ifsc", prefix, "has no net-banking bank id of the exchange");
    if (!payment.returnUrl) throw new BseMappingError("returnUrl", "null", "is required for net banking (set MF_PUBLIC_BASE_URL)");
    [mode, bankId, loopback] = [bank.mode, bank.id, payment.returnUrl];
  }
  return {
    LoginId: ctx.config.userId,
    Password: ctx.config.password,
    membercode: ctx.config.memberId,
    clientcode: payment.clientCode,
    modeofpayment: mode,
    bankid: bankId,
    accountnumber: account.accountNumber,
    ifsc: account.ifsc,
    ordernumber: orderNumbers.join("|"),
    totalamount: payment.amount,
    internalrefno: payment.paymentId.slice(-20),
    NEFTreference: "",
    mandateid: "",
    vpaid: vpa,
    loopbackURL: loopback,
    allowloopBack: "N",
    filler1: "",
    filler2: "",
    filler3: "",
    filler4: "",
    filler5: "",
  };
}

/**
 * Settlement through the client order payment status (MFAPI flag 11, §2.4), one call per payment (its
 * order's exchange number and client code): APPROVED is CAPTURED, REJECTED is FAILED (failure code from
 * the text), AWAITING FOR FUNDS CONFIRMATION and PAYMENT NOT INITIATED stay PENDING. A payment whose
 * order has no exchange number, or that the exchange refuses to report (INVALID ORDER NUMBER ...), is
 * left out (nothing is known); an answer the adapter cannot read is "unavailable".
 */
export async function paymentStatuses(ctx: BseContext, paymentIds: string[]): Promise<PaymentStatusReport[]> {
  const reports: PaymentStatusReport[] = [];
  for (const payment of await paymentsAtExchange(ctx.db, paymentIds)) {
    if (!payment.exchangeOrderNumber) continue;
    const param = paymentStatusParam({ clientCode: payment.clientCode, exchangeOrderNumber: payment.exchangeOrderNumber });
    const result = await callMfapi(ctx.transport, ctx.sessions, ctx.config.userId, MFAPI_FLAG.clientOrderPaymentStatus, param);
    if (!result.ok) {
      applyRefusalRule("registration", "payment status", result.message, ctx.log);
      ctx.log.warn({ payment_id: payment.paymentId, exchange_message: maskFreeText(result.message) }, "BSE payment status refused");
      continue;
    }
    const read = readPaymentStatus(result.message);
    if (!read) throw new ExchangeUnavailableError(`BSE payment status: unknown status text ${JSON.stringify(maskFreeText(textOf(result.message)).slice(0, 60))}`);
    const remark = maskFreeText(result.message) || null;
    if (read.status === "APPROVED") reports.push({ paymentId: payment.paymentId, status: "CAPTURED", remark });
    else if (read.status === "REJECTED") reports.push({ paymentId: payment.paymentId, status: "FAILED", remark, failureCode: paymentFailureCodeFor(result.message) });
    else reports.push({ paymentId: payment.paymentId, status: "PENDING", remark });
  }
  return reports;
}
