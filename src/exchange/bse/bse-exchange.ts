import type { Db } from "../../db/client.js";
import type { BseConfig } from "../../env.js";
import type { Log } from "../../lib/logger.js";
import {
  ExchangeUnavailableError,
  type AllotmentReport,
  type ExchangePort,
  type MandateRegistration,
  type OrderEntry,
  type OrderPlacement,
  type OrderStatusReport,
  type PaymentInitiation,
  type PaymentRequest,
  type PaymentStatusReport,
  type RegistrationOutcome,
  type UccRegistration,
} from "../port.js";
import type { BseContext } from "./bse-context.js";
import { registerClient } from "./investors.js";
import { mandateAuthUrlAtExchange, mandateStatusAtExchange, registerMandateAtExchange } from "./mandates.js";
import { initiatePayment, paymentStatuses } from "./payments.js";
import { insertOrderRef, orderRefs, recordOutcome, type BseOrderRef } from "./order-refs.repo.js";
import { isOrderEntryType, orderEntryParams, readOrderEntryAnswer, type Member, type OrderEntryAnswer } from "./order-entry.js";
import { failureCodeFor } from "./remarks.js";
import { BseLoginError, BseSessionError, BseSessions, type Session, type SessionService } from "./sessions.js";
import { ORDER_ENTRY_SERVICE } from "./soap.js";
import { allocateTransNo } from "./trans-no.js";
import { BseTransport, ExchangeNotDeliveredError } from "./transport.js";

/** A port method this adapter does not implement yet: a plain error (not "unavailable"), so nothing pretends to work. */
export class NotSupportedByBseError extends Error {
  constructor(method: string) {
    super(`not yet supported by the BSE adapter: ${method}`);
    this.name = "NotSupportedByBseError";
  }
}

/** What a login check found (bse:check, the start-up self-check); never the password or the session itself. */
export type LoginCheck =
  | { ok: true; service: SessionService; userId: string; memberId: string; baseUrl: string; expiresAt: string; passKey: "BSE_PASSKEY" | "generated" }
  | { ok: false; service: SessionService; userId: string; memberId: string; baseUrl: string; message: string };

/**
 * The exchange port over BSE StAR MF's web services. This slice: sessions, order entry for lump sums,
 * SIP top-ups and redemptions, the durable TransNo and its per-order record. The other methods answer
 * NotSupportedByBseError until their slices land (README "The production exchange").
 */
export class BseExchange implements ExchangePort {
  readonly sessions: BseSessions;
  private readonly transport: BseTransport;
  private readonly member: Member;
  private readonly context: BseContext;

  constructor(private readonly db: Db, private readonly config: BseConfig, private readonly log: Log, options: { now?: () => number } = {}) {
    this.transport = new BseTransport({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, log });
    this.sessions = sessionsFor(this.transport, config, log, options.now);
    this.member = { userId: config.userId, memberId: config.memberId, defaultEuin: config.euin };
    this.context = { db, config, transport: this.transport, sessions: this.sessions, log, now: options.now ?? Date.now };
  }

  /**
   * Places an order once. The order's earlier TransNos are read first: an answered one is answered
   * again (a dispatch that died after the exchange answered); one sent without a known answer is looked
   * up, and until the exchange says what became of it nothing is sent again. Otherwise a new TransNo is
   * recorded, then sent; the answer is recorded before it is returned.
   */
  async placeOrder(order: OrderEntry): Promise<OrderPlacement> {
    const { orderType } = order;
    if (!isOrderEntryType(orderType)) throw new NotSupportedByBseError(`placeOrder(${orderType})`);
    const earlier = await this.earlierAnswer(order.orderId);
    if (earlier) return earlier;
    return this.sessions.withSession("order", (session) => this.sendOrder({ ...order, orderType }, session));
  }

  private async earlierAnswer(orderId: string): Promise<OrderPlacement | null> {
    const last = (await orderRefs(this.db, orderId)).at(-1);
    if (!last || last.outcome === "NOT_PLACED") return null;
    if (last.outcome !== null) return answerOf(last);
    const found = await this.lookUpSent(last);
    if (found) {
      await recordOutcome(this.db, last.transNo, { outcome: found.status, exchangeOrderNumber: found.exchangeOrderNumber, remark: found.remark });
      return found;
    }
    throw new ExchangeUnavailableError(
      `order sent to the exchange as ${last.transNo} got no answer; it is not sent again until the exchange's order status report says what became of it`,
    );
  }

  /**
   * What the exchange knows of a TransNo sent without a recorded answer: the order status report (a later
   * slice) answers it. Until then: unknown, so the order is never sent twice.
   */
  private async lookUpSent(_ref: BseOrderRef): Promise<OrderEntryAnswer | null> {
    return null;
  }

  private async sendOrder(order: OrderEntry & { orderType: "LUMPSUM_PURCHASE" | "SIP_TOPUP" | "REDEMPTION" }, session: Session): Promise<OrderPlacement> {
    const transNo = await allocateTransNo(this.db, this.member.memberId);
    await insertOrderRef(this.db, { transNo, orderId: order.orderId, sentAt: new Date() });
    let answer: OrderEntryAnswer;
    try {
      const result = await this.transport.soap(ORDER_ENTRY_SERVICE, "orderEntryParam", orderEntryParams(order, transNo, this.member, session));
      answer = readOrderEntryAnswer(result, transNo);
    } catch (error) {
      // Refused for its session, or never delivered: the exchange has no order under this TransNo.
      if (error instanceof ExchangeNotDeliveredError || error instanceof BseSessionError) {
        await recordOutcome(this.db, transNo, { outcome: "NOT_PLACED", exchangeOrderNumber: null, remark: null });
      }
      throw error;
    }
    await recordOutcome(this.db, transNo, { outcome: answer.status, exchangeOrderNumber: answer.exchangeOrderNumber, remark: answer.remark });
    this.log.info({ order_id: order.orderId, trans_no: transNo, status: answer.status, exchange_order_number: answer.exchangeOrderNumber }, "BSE order entry answered");
    return answer;
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
  registerMandate(mandate: MandateRegistration): Promise<RegistrationOutcome & { exchangeMandateId: string | null }> {
    return registerMandateAtExchange(this.context, mandate);
  }
  mandateStatus(mandateId: string): Promise<RegistrationOutcome> {
    return mandateStatusAtExchange(this.context, mandateId);
  }
  mandateAuthUrl(mandateId: string): Promise<string | null> {
    return mandateAuthUrlAtExchange(this.context, mandateId);
  }
  /** The document has no mandate cancellation (a mandate is cancelled with the bank): not supported. */
  cancelMandate(_mandateId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    return unsupported("cancelMandate");
  }
  cancelOrder(_orderId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    return unsupported("cancelOrder");
  }
  orderStatus(_orderIds: string[]): Promise<OrderStatusReport[]> {
    return unsupported("orderStatus");
  }
  allotments(_orderIds: string[]): Promise<AllotmentReport[]> {
    return unsupported("allotments");
  }
  createPayment(payment: PaymentRequest): Promise<PaymentInitiation> {
    return initiatePayment(this.context, payment);
  }
  paymentStatus(paymentIds: string[]): Promise<PaymentStatusReport[]> {
    return paymentStatuses(this.context, paymentIds);
  }
}

function sessionsFor(transport: BseTransport, config: BseConfig, log: Log, now?: () => number): BseSessions {
  return new BseSessions(transport, { userId: config.userId, memberId: config.memberId, password: config.password, passKey: config.passKey }, log, undefined, now);
}

/** Sessions of their own (bse:check, which needs no database). */
export function standaloneSessions(config: BseConfig, log: Log): BseSessions {
  return sessionsFor(new BseTransport({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, log }), config, log);
}

/** Logs in to `service` (unless a live session exists) and says how it went; never the password or the session. */
export async function checkLogin(sessions: BseSessions, config: BseConfig, service: SessionService): Promise<LoginCheck> {
  const who = { service, userId: config.userId, memberId: config.memberId, baseUrl: config.baseUrl };
  try {
    const session = await sessions.session(service);
    return { ok: true, ...who, expiresAt: new Date(session.expiresAt).toISOString(), passKey: config.passKey ? "BSE_PASSKEY" : "generated" };
  } catch (error) {
    if (error instanceof BseLoginError) return { ok: false, ...who, message: error.exchangeMessage };
    if (error instanceof ExchangeUnavailableError) return { ok: false, ...who, message: error.message };
    throw error;
  }
}

function unsupported(method: string): Promise<never> {
  return Promise.reject(new NotSupportedByBseError(method));
}

function answerOf(ref: BseOrderRef): OrderPlacement {
  if (ref.outcome === "ACCEPTED") return { status: "ACCEPTED", exchangeOrderNumber: ref.exchangeOrderNumber!, remark: ref.remark };
  const remark = ref.remark ?? "REJECTED BY THE EXCHANGE";
  return { status: "REJECTED", exchangeOrderNumber: ref.exchangeOrderNumber, remark, failureCode: failureCodeFor(remark) };
}
