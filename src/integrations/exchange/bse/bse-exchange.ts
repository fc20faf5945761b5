import type { Db } from "../../../platform/db/client.js";
import type { BseConfig } from "./bse-config.js";
import type { Log } from "../../../platform/lib/logger.js";
import type {
  ExchangeAllotmentRow,
  ExchangeOrderRow,
  AllotmentReport,
  ExchangePort,
  InstallmentOrderRef,
  MandateRegistration,
  OrderEntry,
  OrderPlacement,
  OrderStatusReport,
  PaymentInitiation,
  PaymentRequest,
  PaymentStatusReport,
  RegistrationOutcome,
  UccModification,
  UccRegistration,
} from "../port.js";
import type { BseContext } from "./bse-context.js";
import { ChildOrdersApi } from "./child-orders.js";
import { matchInstallmentsToChildOrders } from "./installment-matching.js";
import { registerClient } from "./investors.js";
import { modifyClient } from "./investor-changes.js";
import { checkLogin, sessionsFor, type LoginCheck } from "./login-check.js";
import { mandateAuthUrlAtExchange, mandateStatusAtExchange, registerMandateAtExchange } from "./mandates.js";
import { allotmentReports, orderStatusReports } from "./order-reports.js";
import { allotmentsOfDay, orderStatusOfDay } from "./day-reports.js";
import { cancelOrderAtExchange, placeOrderAtExchange } from "./orders.js";
import { pauseSipAtExchange } from "./pause-sip.js";
import { initiatePayment, paymentStatuses } from "./payments.js";
import type { BseSessions } from "./sessions.js";
import { BseTransport } from "./transport.js";
import { WEB_SERVICE_STYLE, type WebServiceStyles } from "./web-service.js";

/** What a mandate cancellation answers: the exchange has no API for it. */
export const MANDATE_CANCEL_REMARK = "NO EXCHANGE API: CANCEL THE MANDATE WITH THE BANK / EXCHANGE BACK OFFICE";

/**
 * The exchange port over BSE StAR MF's web services: sessions, order entry (lump sums, SIP top-ups,
 * redemptions), the durable TransNo and its per-order record, and the reports (order status, allotment
 * and redemption statements). The methods not built yet answer NotSupportedByBseError (docs/operations.md "The
 * production exchange"). Each service is a module beside this one, handed the adapter's context.
 */
export class BseExchange implements ExchangePort {
  readonly sessions: BseSessions;
  private readonly childOrdersApi: ChildOrdersApi;
  private readonly context: BseContext;

  constructor(
    db: Db,
    private readonly config: BseConfig,
    private readonly log: Log,
    options: { now?: () => number; webServiceStyle?: WebServiceStyles } = {},
  ) {
    const transport = new BseTransport({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, log });
    this.sessions = sessionsFor(transport, config, log, options.now);
    const now = options.now ?? Date.now;
    const webServiceStyle = options.webServiceStyle ?? WEB_SERVICE_STYLE;
    this.childOrdersApi = new ChildOrdersApi(transport, config, log, now, webServiceStyle.childOrders);
    this.context = { db, config, transport, sessions: this.sessions, log, now, webServiceStyle };
  }

  /** Places an order once (orders.ts, send-once.ts). */
  placeOrder(order: OrderEntry): Promise<OrderPlacement> {
    return placeOrderAtExchange(this.context, order);
  }
  /** Cancels a SIP, XSIP, STP or SWP registration (orders.ts); other orders cannot be cancelled at the exchange. */
  cancelOrder(orderId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    return cancelOrderAtExchange(this.context, orderId);
  }
  /** PauseSIP (pause-sip.ts); the exchange has no resume, so this adapter has no resumeSip. */
  pauseSip(orderId: string, installments: number): Promise<{ paused: true } | { paused: false; remark: string }> {
    return pauseSipAtExchange(this.context, orderId, installments);
  }
  orderStatus(orderIds: string[]): Promise<OrderStatusReport[]> {
    return orderStatusReports(this.context, orderIds);
  }
  allotments(orderIds: string[]): Promise<AllotmentReport[]> {
    return allotmentReports(this.context, orderIds);
  }
  /** The order status report of a day (day-reports.ts). */
  orderStatusForDate(date: string): Promise<ExchangeOrderRow[]> {
    return orderStatusOfDay(this.context, date);
  }
  /** The allotment and redemption statements' rows of a day's orders (day-reports.ts). */
  allotmentsForDate(date: string): Promise<ExchangeAllotmentRow[]> {
    return allotmentsOfDay(this.context, date);
  }
  matchInstallments(installments: InstallmentOrderRef[]): Promise<Array<{ orderId: string; exchangeOrderNumber: string }>> {
    return matchInstallmentsToChildOrders(this.context, this.childOrdersApi, installments);
  }

  /** The start-up self-check: one login to order entry (the session is kept for the orders), its outcome logged. */
  async selfCheck(log: Log = this.log): Promise<LoginCheck> {
    const check = await checkLogin(this.sessions, this.config, "order");
    if (check.ok) log.info({ member_id: check.memberId, user_id: check.userId, session_expires_at: check.expiresAt }, "BSE StAR MF login succeeded");
    else log.warn({ member_id: check.memberId, user_id: check.userId, exchange_message: check.message }, "BSE StAR MF login failed");
    return check;
  }

  /** Enhanced UCC (NEW, or MOD when the exchange has the client code), then FATCA (investors.ts). */
  registerInvestor(ucc: UccRegistration): Promise<RegistrationOutcome> {
    return registerClient(this.context, ucc);
  }
  /**
   * The exchange has no status call for a UCC: `registerInvestor` answers REGISTERED or REJECTED at once,
   * so an investor still PENDING has not been answered yet, and its registration job decides.
   */
  investorStatus(_clientCode: string): Promise<RegistrationOutcome> {
    return Promise.resolve({ status: "PENDING", remark: null });
  }
  /** Enhanced UCC with MOD, then FATCA again when it changed (investor-changes.ts). */
  modifyInvestor(change: UccModification): Promise<RegistrationOutcome> {
    return modifyClient(this.context, change);
  }
  registerMandate(mandate: MandateRegistration): Promise<RegistrationOutcome & { exchangeMandateId: string | null }> {
    return registerMandateAtExchange(this.context, mandate);
  }
  mandateStatus(mandateId: string): Promise<RegistrationOutcome> {
    return mandateStatusAtExchange(this.context, mandateId);
  }
  mandateAuthUrl(mandateId: string): Promise<string | null> {
    return mandateAuthUrlAtExchange(this.context, mandateId);
  }
  /**
   * The document has no mandate cancellation (a mandate is cancelled with the bank): a final "not cancelled"
   * whose remark tells the operator what to do (docs/operations.md "The production exchange"); nothing is sent.
   */
  cancelMandate(_mandateId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    return Promise.resolve({ cancelled: false, remark: MANDATE_CANCEL_REMARK });
  }
  createPayment(payment: PaymentRequest): Promise<PaymentInitiation> {
    return initiatePayment(this.context, payment);
  }
  paymentStatus(paymentIds: string[]): Promise<PaymentStatusReport[]> {
    return paymentStatuses(this.context, paymentIds);
  }
}
