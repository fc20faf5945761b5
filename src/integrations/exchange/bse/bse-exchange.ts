import type { Db } from "../../../platform/db/client.js";
import type { BseConfig } from "./bse-config.js";
import type { Log } from "../../../platform/lib/logger.js";
import {
  ExchangeUnavailableError,
  type AllotmentReport,
  type ExchangePort,
  type InstallmentOrderRef,
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
import type { Prisma } from "../../../platform/db/client.js";
import type { OrderFailureCode } from "../outcomes.js";
import { todayInIndia } from "../../../platform/lib/india-date.js";
import { BseMappingError } from "./codes.js";
import { mappingRemark } from "./investors.js";
import { cancelSwp, checkStp, checkSwp, sendStp, sendSwp, stpRecordOf, stpRegistrationOf, swpRegistrationOf, transferProblem, type StpRecord, type SwpRecord } from "./systematic-transfers.js";
import type { BseContext } from "./bse-context.js";
import { ChildOrdersApi, type ChildOrder, type SystematicPlanType } from "./child-orders.js";
import { childOrdersOf, insertChildOrder, matchedNumbers } from "./child-orders.repo.js";
import { registerClient } from "./investors.js";
import { mandateAuthUrlAtExchange, mandateStatusAtExchange, registerMandateAtExchange } from "./mandates.js";
import { initiatePayment, paymentStatuses } from "./payments.js";
import { insertOrderRef, isCancelKind, isRegistrationKind, orderRefs, recordOutcome, refsOfOrders, type BseOrderRef, type BseOrderRefKind } from "./order-refs.repo.js";
import { isOrderEntryType, orderEntryParams, readOrderEntryAnswer, type Member, type OrderEntryAnswer } from "./order-entry.js";
import { BseRefusedError } from "./refusals.js";
import { failureCodeFor, providerRemark } from "./remarks.js";
import { cancelRequest, PLAN_OPERATION, planProblem, planRequest, readPlanAnswer, withSession, type PlanRequest } from "./plan-entry.js";
import { orderStatusRows, REPORTS, reportParams, statementRows, type OrderStatusRow } from "./reports.js";
import { BseLoginError, BseSessionError, BseSessions, type SessionService } from "./sessions.js";
import { ORDER_ENTRY_SERVICE, WEB_SERVICE } from "./soap.js";
import { internalRefOf } from "./trans-no-layout.js";
import { allocateTransNo } from "./trans-no.js";
import { readSwitchAnswer, switchParams } from "./switch-entry.js";
import { BseTransport, ExchangeNotDeliveredError } from "./transport.js";
import { WEB_SERVICE_STYLE, type WebServiceStyles } from "./web-service.js";

/** What a mandate cancellation answers: the exchange has no API for it. */
export const MANDATE_CANCEL_REMARK = "NO EXCHANGE API: CANCEL THE MANDATE WITH THE BANK / EXCHANGE BACK OFFICE";

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

/** A redemption's or SWP's refusal before sending: the exchange requires the account the money goes to. */
export const NO_PAYOUT_ACCOUNT = "THE INVESTOR HAS NO BANK ACCOUNT FOR THE PAYOUT";

/** How long the order status report may lag behind order entry (docs/operations.md "The production exchange"). */
export const REPORT_LAG_MS = 15 * 60_000;

/** What one order request became: the placement, and a switch's switch-in order number. */
type SentAnswer = OrderEntryAnswer & { secondOrderNumber?: string | null };

/**
 * The exchange port over BSE StAR MF's web services: sessions, order entry (lump sums, SIP top-ups,
 * redemptions), the durable TransNo and its per-order record, and the reports (order status, allotment
 * and redemption statements). The methods not built yet answer NotSupportedByBseError (docs/operations.md "The
 * production exchange").
 */
export class BseExchange implements ExchangePort {
  readonly sessions: BseSessions;
  private readonly transport: BseTransport;
  private readonly member: Member;
  private readonly now: () => number;
  private readonly childOrdersApi: ChildOrdersApi;
  private readonly context: BseContext;

  constructor(
    private readonly db: Db,
    private readonly config: BseConfig,
    private readonly log: Log,
    options: { now?: () => number; webServiceStyle?: WebServiceStyles } = {},
  ) {
    this.transport = new BseTransport({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, log });
    this.sessions = sessionsFor(this.transport, config, log, options.now);
    this.member = { userId: config.userId, memberId: config.memberId, defaultEuin: config.euin };
    this.now = options.now ?? Date.now;
    const webServiceStyle = options.webServiceStyle ?? WEB_SERVICE_STYLE;
    this.childOrdersApi = new ChildOrdersApi(this.transport, config, log, this.now, webServiceStyle.childOrders);
    this.context = { db, config, transport: this.transport, sessions: this.sessions, log, now: this.now, webServiceStyle };
  }

  /**
   * Places an order once. The order's earlier TransNos are read first: an answered one is answered
   * again (a dispatch that died after the exchange answered); one sent without a known answer is looked
   * up in the order status report. Otherwise a new TransNo is recorded, then sent; the answer is recorded
   * before it is returned.
   */
  async placeOrder(order: OrderEntry): Promise<OrderPlacement> {
    const { orderType } = order;
    if (!["SIP", "XSIP", "STP", "SWP", "SWITCH"].includes(orderType) && !isOrderEntryType(orderType)) throw new NotSupportedByBseError(`placeOrder(${orderType})`);
    const refusal = this.refusalBeforeSending(order);
    if (refusal) return { status: "REJECTED", exchangeOrderNumber: null, ...refusal };
    const earlier = await this.earlierAnswer(order.orderId);
    if (earlier) return earlier;
    if (orderType === "STP") {
      return this.send<StpRecord>(
        order.orderId,
        "STP",
        (transNo) => sendStp(this.context, stpRegistrationOf(order, internalRefOf(transNo), this.member), { transType: "NEW" }),
        (transNo) => stpRecordOf(stpRegistrationOf(order, internalRefOf(transNo), this.member)),
      );
    }
    if (orderType === "SWP") {
      return this.send<SwpRecord>(order.orderId, "SWP", (transNo) => sendSwp(this.context, swpRegistrationOf(order, internalRefOf(transNo), this.member)), () => ({ clientCode: order.clientCode }));
    }
    return this.sessions.withSession("order", async (session) => {
      if (orderType === "SWITCH") {
        return this.send(order.orderId, "SWITCH", async (transNo) =>
          readSwitchAnswer(await this.transport.soap(ORDER_ENTRY_SERVICE, "switchOrderEntryParam", switchParams(order, transNo, this.member, session)), transNo),
        );
      }
      if (orderType === "SIP" || orderType === "XSIP") {
        const operation = PLAN_OPERATION[orderType];
        return this.send(
          order.orderId,
          orderType,
          async (transNo, request) => readPlanAnswer(operation, await this.transport.soap(ORDER_ENTRY_SERVICE, operation, withSession(request!, session)), transNo, false),
          (transNo) => planRequest(order, orderType, transNo, this.member),
        );
      }
      return this.send(order.orderId, "LUMPSUM", async (transNo) =>
        readOrderEntryAnswer(await this.transport.soap(ORDER_ENTRY_SERVICE, "orderEntryParam", orderEntryParams({ ...order, orderType }, transNo, this.member, session)), transNo),
      );
    });
  }

  /**
   * Why the order cannot go to the exchange as it stands, with its failure code, or null: a redemption or
   * SWP with no account to pay into (the exchange requires one: Param3, field 19), a SIP/XSIP the exchange
   * cannot take (an XSIP whose mandate has no exchange id is `mandate_invalid`), an STP/SWP missing a part or
   * with a field the exchange cannot take.
   */
  private refusalBeforeSending(order: OrderEntry): { remark: string; failureCode: OrderFailureCode } | null {
    const { orderType } = order;
    if ((orderType === "REDEMPTION" || orderType === "SWP") && !order.payoutAccountNumber) return { remark: NO_PAYOUT_ACCOUNT, failureCode: "payout_account_invalid" };
    if (orderType === "SIP" || orderType === "XSIP") {
      const problem = planProblem(order, orderType);
      if (problem) return { remark: problem, failureCode: orderType === "XSIP" && !order.exchangeMandateId ? "mandate_invalid" : "exchange_rejected" };
    }
    if (orderType === "STP" || orderType === "SWP") {
      const problem = this.transferProblem(order);
      if (problem) return { remark: problem, failureCode: "exchange_rejected" };
    }
    return null;
  }

  /** Why an STP or SWP cannot go as it stands: a missing part, or a field the exchange cannot take. */
  private transferProblem(order: OrderEntry): string | null {
    const problem = transferProblem(order);
    if (problem) return problem;
    try {
      if (order.orderType === "STP") checkStp(this.context, stpRegistrationOf(order, "0000000000", this.member));
      else checkSwp(swpRegistrationOf(order, "0000000000", this.member));
    } catch (error) {
      if (error instanceof BseMappingError) return mappingRemark(error);
      throw error;
    }
    return null;
  }

  /**
   * Cancels a SIP, XSIP or STP registration (CXL, repeating its request, naming its registration number)
   * or an SWP (MFAPI flag 10). A
   * lump sum, redemption or switch cannot be cancelled at the exchange any more (real-time integration with
   * the registrars); a registration the exchange never took has nothing to cancel. A cancellation already
   * accepted is not sent again; one the exchange says is already cancelled counts as cancelled.
   */
  async cancelOrder(orderId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    const refs = await orderRefs(this.db, orderId);
    const registration = refs.filter((ref) => !isCancelKind(ref.kind)).at(-1);
    if (!registration || registration.outcome !== "ACCEPTED") return { cancelled: false, remark: "NOT PLACED AT THE EXCHANGE" };
    if (!isRegistrationKind(registration.kind)) return { cancelled: false, remark: "THE EXCHANGE DOES NOT CANCEL ORDERS OF THIS TYPE" };
    const kind = registration.kind as "SIP" | "XSIP" | "STP" | "SWP";
    if (refs.some((ref) => ref.kind === `${kind}_CANCEL` && ref.outcome === "ACCEPTED")) return { cancelled: true };
    if (kind === "STP" || kind === "SWP") return cancelledOrRemark(await this.cancelTransfer(orderId, registration, kind));
    const request = registration.request as PlanRequest | null;
    if (!request) throw new Error(`the ${kind} registration ${registration.transNo} has no recorded request to cancel`);
    const operation = PLAN_OPERATION[kind];
    const answer = await this.sessions.withSession("order", (session) =>
      this.send(
        orderId,
        `${kind}_CANCEL`,
        async (transNo, cancel) => readPlanAnswer(operation, await this.transport.soap(ORDER_ENTRY_SERVICE, operation, withSession(cancel!, session)), transNo, true),
        (transNo) => cancelRequest(request, kind, registration.exchangeOrderNumber!, transNo),
      ),
    );
    return cancelledOrRemark(answer);
  }

  /** An STP's CXL (its recorded registration again, naming the number) or an SWP's flag 10, under a new TransNo. */
  private cancelTransfer(orderId: string, registration: BseOrderRef, kind: "STP" | "SWP"): Promise<SentAnswer> {
    const registrationNo = registration.exchangeOrderNumber!;
    if (!registration.request) throw new Error(`the ${kind} registration ${registration.transNo} has no recorded request to cancel`);
    if (kind === "SWP") return this.send(orderId, "SWP_CANCEL", () => cancelSwp(this.context, registration.request as unknown as SwpRecord, registrationNo));
    const stp = registration.request as unknown as StpRecord;
    return this.send(orderId, "STP_CANCEL", () => sendStp(this.context, { ...stp, mobile: null, email: null }, { transType: "CXL", registrationNo }));
  }

  /**
   * The answer the order already has at the exchange, or null when a new TransNo is to be sent: none was
   * sent, or the last was certainly not placed. A TransNo sent without an answer is looked up: found,
   * its answer; not found while the report may still lag (REPORT_LAG_MS), the order is held PENDING (the
   * periodic status sync asks again and, once the window has passed, dispatches it again); not found
   * after that, the exchange never received it, and a new TransNo goes.
   */
  private async earlierAnswer(orderId: string): Promise<OrderPlacement | null> {
    const last = (await orderRefs(this.db, orderId)).filter((ref) => !isCancelKind(ref.kind)).at(-1);
    if (!last || last.outcome === "NOT_PLACED") return null;
    if (last.outcome !== null) return answerOf(last);
    const found = await this.lookUpSent(last);
    if (found) return found;
    const waited = this.now() - last.sentAt.getTime();
    if (waited < REPORT_LAG_MS) {
      return { status: "PENDING", exchangeOrderNumber: null, remark: `SENT AS ${last.transNo} WITHOUT AN ANSWER; AWAITING THE EXCHANGE'S ORDER STATUS REPORT` };
    }
    const remark = `NOT IN THE ORDER STATUS REPORT ${Math.round(waited / 60_000)} MINUTES AFTER IT WAS SENT`;
    await recordOutcome(this.db, last.transNo, { outcome: "NOT_PLACED", exchangeOrderNumber: null, remark });
    this.log.warn({ order_id: orderId, trans_no: last.transNo }, "an order sent without an answer is not at the exchange; sending it again under a new TransNo");
    return null;
  }

  /**
   * What the exchange knows of a TransNo sent without a recorded answer: the order status report of the
   * days since it was sent, matched on the internal reference sent with it. Found, the answer is recorded.
   * A registration is not in that report: it stays unknown (never sent twice; reconciled by hand).
   */
  private async lookUpSent(ref: BseOrderRef): Promise<OrderPlacement | null> {
    if (isRegistrationKind(ref.kind)) {
      throw new ExchangeUnavailableError(`registration sent to the exchange as ${ref.transNo} got no answer; it is not sent again until reconciled with the exchange`);
    }
    const rows = await this.orderStatusRows(todayInIndia(ref.sentAt), todayInIndia(new Date(this.now())));
    const row = rows.find((r) => r.internalRefNo === internalRefOf(ref.transNo));
    if (!row) return null;
    const answer = placementOfRow(row);
    if (answer.status !== "PENDING") {
      await recordOutcome(this.db, ref.transNo, { outcome: answer.status, exchangeOrderNumber: row.orderNumber || null, remark: answer.remark });
    }
    this.log.info({ order_id: ref.orderId, trans_no: ref.transNo, status: answer.status }, "found an unanswered order in the exchange's order status report");
    return answer;
  }

  /**
   * Sends one request under a new TransNo, recorded first; its answer is recorded before it is returned.
   * Refused for its session or our login (a login inside the call: an SWP's upload session; credentials in
   * the body: STP), or never delivered, the TransNo is NOT_PLACED (the exchange has nothing under it).
   */
  private async send<R = PlanRequest>(
    orderId: string,
    kind: BseOrderRefKind,
    request: (transNo: string, recorded: R | undefined) => Promise<SentAnswer>,
    recordedRequest?: (transNo: string) => R,
  ): Promise<SentAnswer> {
    const sentAt = new Date(this.now());
    const transNo = await allocateTransNo(this.db, this.member.memberId, sentAt);
    const recorded = recordedRequest?.(transNo);
    await insertOrderRef(this.db, { transNo, orderId, sentAt, kind, request: recorded as Prisma.InputJsonValue | undefined });
    let answer: SentAnswer;
    try {
      answer = await request(transNo, recorded);
    } catch (error) {
      if (error instanceof ExchangeNotDeliveredError || error instanceof BseSessionError || error instanceof BseLoginError || error instanceof BseRefusedError) {
        await recordOutcome(this.db, transNo, { outcome: "NOT_PLACED", exchangeOrderNumber: null, remark: null });
      }
      throw error;
    }
    await recordOutcome(this.db, transNo, {
      outcome: answer.status, exchangeOrderNumber: answer.exchangeOrderNumber, remark: answer.remark, secondOrderNumber: answer.secondOrderNumber ?? null,
    });
    this.log.info({ order_id: orderId, trans_no: transNo, kind, status: answer.status, exchange_order_number: answer.exchangeOrderNumber }, "BSE order entry answered");
    const { secondOrderNumber: _second, ...placement } = answer;
    return placement;
  }

  /**
   * The order status report's word on our orders: the exchange's orders we know the number of (answered,
   * or installments matched to the exchange's child orders) and the TransNos sent without an answer
   * (matched on their internal reference). VALID is ACCEPTED, INVALID REJECTED (with the remark), anything
   * else PENDING; an order the report does not hold is not reported. Registrations are not orders of the
   * report and are never reported.
   */
  async orderStatus(orderIds: string[]): Promise<OrderStatusReport[]> {
    const known = await this.knownOrders(orderIds);
    if (known.length === 0) return [];
    const rows = await this.orderStatusRows(earliest(known), todayInIndia(new Date(this.now())));
    const byNumber = new Map(rows.map((r) => [r.orderNumber, r]));
    const byRef = new Map(rows.map((r) => [r.internalRefNo, r]));
    const reports: OrderStatusReport[] = [];
    for (const order of known) {
      const row = order.number ? byNumber.get(order.number) : order.unanswered ? byRef.get(internalRefOf(order.unanswered.transNo)) : undefined;
      if (!row) continue;
      const answer = placementOfRow(row);
      if (order.unanswered && answer.status !== "PENDING") {
        await recordOutcome(this.db, order.unanswered.transNo, { outcome: answer.status, exchangeOrderNumber: row.orderNumber || null, remark: answer.remark });
      }
      reports.push({ orderId: order.orderId, status: answer.status, exchangeOrderNumber: answer.status === "REJECTED" ? null : row.orderNumber || null, remark: answer.remark });
    }
    return reports;
  }

  /**
   * The allotment statement (purchases, a switch's switch-in order) and the redemption statement
   * (redemptions, SWP installments) rows of our orders, matched on the exchange's order number; NAV,
   * units and amount exact decimal strings.
   */
  async allotments(orderIds: string[]): Promise<AllotmentReport[]> {
    const known = (await this.knownOrders(orderIds)).filter((o) => o.number !== null);
    if (known.length === 0) return [];
    const query = { fromDate: earliest(known), toDate: todayInIndia(new Date(this.now())) };
    const [purchases, redemptions] = await Promise.all(
      (["allotment", "redemption"] as const).map(async (kind) =>
        statementRows(kind, await this.transport.soapNode(WEB_SERVICE, REPORTS[kind].operation, reportParams(kind, this.reportCredentials(), query))),
      ),
    );
    const byNumber = new Map([...purchases!, ...redemptions!].map((r) => [r.orderNumber, r]));
    return known.flatMap((order): AllotmentReport[] => {
      const row = byNumber.get(order.allotmentNumber ?? order.number!);
      if (!row) return [];
      return [{
        orderId: order.orderId, exchangeOrderNumber: order.number!, folioNo: row.folioNo, schemeCode: row.schemeCode,
        nav: row.nav, units: row.units, amount: row.amount, allotmentDate: row.reportDate, valid: row.valid, remark: providerRemark(row.remark),
      }];
    });
  }

  /**
   * The exchange's child orders of our installments (services §7): per registration and due day, the
   * child orders the exchange generated that no installment has taken yet, in order-number order, go to
   * our installments in installment order; each match is recorded (bse_child_orders), so the reports
   * follow it. An SWP's child orders are redemptions (the redemption statement allots them); an STP's
   * come in switch-out/switch-in pairs: the installment takes the switch-out's number and its allotment is
   * the switch-in's row, as for a switch. Registrations the exchange never took are left alone.
   */
  async matchInstallments(installments: InstallmentOrderRef[]): Promise<Array<{ orderId: string; exchangeOrderNumber: string }>> {
    const refs = await refsOfOrders(this.db, [...new Set(installments.map((i) => i.registrationOrderId))]);
    const registrations = new Map<string, BseOrderRef>();
    for (const ref of refs) if (!isCancelKind(ref.kind)) registrations.set(ref.orderId, ref);
    const groups = new Map<string, InstallmentOrderRef[]>();
    for (const installment of installments) {
      const key = `${installment.registrationOrderId} ${installment.dueDate}`;
      groups.set(key, [...(groups.get(key) ?? []), installment]);
    }
    const matches: Array<{ orderId: string; exchangeOrderNumber: string }> = [];
    for (const group of groups.values()) {
      const { registrationOrderId, clientCode, dueDate } = group[0]!;
      const registration = registrations.get(registrationOrderId);
      const planType = registration?.outcome === "ACCEPTED" ? childPlanTypeOf(registration) : null;
      if (!registration || !planType) continue;
      const taken = await matchedNumbers(this.db, registrationOrderId);
      const children = (await this.childOrdersApi.childOrders({ clientCode, planType, registrationNo: registration.exchangeOrderNumber!, date: dueDate }))
        .filter((c) => !taken.has(c.orderNumber))
        .sort((a, b) => Number(a.orderNumber) - Number(b.orderNumber));
      const installmentOrders = planType === "STP" ? switchPairs(children) : children.map((c) => ({ ...c, switchIn: null }));
      for (const installment of [...group].sort((a, b) => a.installmentNo - b.installmentNo)) {
        const child = installmentOrders.shift();
        if (!child) break;
        const row = {
          orderId: installment.orderId, registrationOrderId, exchangeOrderNumber: child.orderNumber, switchInOrderNumber: child.switchIn,
          orderDate: new Date(`${dueDate}T00:00:00Z`), buySell: child.buySell,
        };
        if (await insertChildOrder(this.db, row)) matches.push({ orderId: installment.orderId, exchangeOrderNumber: child.orderNumber });
      }
    }
    return matches;
  }

  /**
   * What this adapter knows of each order: the exchange's order number (and a switch's switch-in number,
   * whose allotment row it is), or its TransNo sent without an answer, and the day it went to the exchange.
   */
  private async knownOrders(orderIds: string[]): Promise<KnownOrder[]> {
    const [refs, children] = await Promise.all([refsOfOrders(this.db, orderIds), childOrdersOf(this.db, orderIds)]);
    const lastRef = new Map<string, BseOrderRef>();
    for (const ref of refs) if (!isCancelKind(ref.kind)) lastRef.set(ref.orderId, ref);
    const known: KnownOrder[] = children.map((c) => ({
      orderId: c.orderId, number: c.exchangeOrderNumber, allotmentNumber: c.switchInOrderNumber, unanswered: null, day: c.orderDate.toISOString().slice(0, 10),
    }));
    for (const ref of lastRef.values()) {
      if (isRegistrationKind(ref.kind)) continue;
      const day = todayInIndia(ref.sentAt);
      if (ref.outcome === "ACCEPTED" && ref.exchangeOrderNumber) {
        known.push({ orderId: ref.orderId, number: ref.exchangeOrderNumber, allotmentNumber: ref.secondOrderNumber, unanswered: null, day });
      } else if (ref.outcome === null) {
        known.push({ orderId: ref.orderId, number: null, allotmentNumber: null, unanswered: ref, day });
      }
    }
    return known;
  }

  private async orderStatusRows(fromDate: string, toDate: string) {
    return orderStatusRows(await this.transport.soapNode(WEB_SERVICE, REPORTS.orderStatus.operation, reportParams("orderStatus", this.reportCredentials(), { fromDate, toDate })));
  }

  private reportCredentials() {
    return { userId: this.config.userId, memberId: this.config.memberId, password: this.config.password };
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

/** The plan type ChildOrderDetails is asked with for a registration whose child orders are matched, or null. */
function childPlanTypeOf(registration: BseOrderRef): SystematicPlanType | null {
  if (registration.kind === "SIP" || registration.kind === "SWP" || registration.kind === "STP") return registration.kind;
  if (registration.kind !== "XSIP") return null;
  const isIsip = (registration.request as PlanRequest | null)?.some(([name, value]) => name === "Param2" && !!value) ?? false;
  return isIsip ? "ISIP" : "XSIP";
}

/**
 * An STP's child orders (in order-number order) as installments: each switch-out (R) with the first
 * switch-in (P) numbered after it; a switch-out whose switch-in is not listed yet waits for the next pass.
 */
function switchPairs(children: ChildOrder[]): Array<ChildOrder & { switchIn: string | null }> {
  const ins = children.filter((c) => c.buySell === "P");
  return children.flatMap((out) => {
    if (out.buySell !== "R") return [];
    const at = ins.findIndex((c) => Number(c.orderNumber) > Number(out.orderNumber));
    if (at < 0) return [];
    const [into] = ins.splice(at, 1);
    return [{ ...out, switchIn: into!.orderNumber }];
  });
}

interface KnownOrder {
  orderId: string;
  /** The exchange's order number (a switch's switch-out order); null while a TransNo awaits its answer. */
  number: string | null;
  /** The order whose allotment row is this order's (a switch's switch-in order), when not `number`. */
  allotmentNumber: string | null;
  unanswered: BseOrderRef | null;
  /** YYYY-MM-DD (India): the day it went to the exchange. */
  day: string;
}

const earliest = (orders: KnownOrder[]) => orders.map((o) => o.day).sort()[0]!;

/** An order status report row as a placement: VALID is ACCEPTED, INVALID REJECTED, anything else PENDING. */
function placementOfRow(row: OrderStatusRow): OrderEntryAnswer | (OrderPlacement & { status: "PENDING" }) {
  const remark = providerRemark(row.remark);
  if (row.orderStatus === "VALID") return { status: "ACCEPTED", exchangeOrderNumber: row.orderNumber, remark };
  if (row.orderStatus === "INVALID") {
    const text = remark ?? "INVALID AT THE EXCHANGE";
    return { status: "REJECTED", exchangeOrderNumber: row.orderNumber || null, remark: text, failureCode: failureCodeFor(text) };
  }
  return { status: "PENDING", exchangeOrderNumber: row.orderNumber || null, remark };
}

/** A cancellation's answer: accepted, or one the exchange says is already cancelled, counts as cancelled. */
function cancelledOrRemark(answer: SentAnswer): { cancelled: true } | { cancelled: false; remark: string } {
  if (answer.status === "ACCEPTED" || /ALREADY CANCELL?ED/i.test(answer.remark ?? "")) return { cancelled: true };
  return { cancelled: false, remark: answer.remark ?? "CANCELLATION REFUSED" };
}

function answerOf(ref: BseOrderRef): OrderPlacement {
  if (ref.outcome === "ACCEPTED") return { status: "ACCEPTED", exchangeOrderNumber: ref.exchangeOrderNumber!, remark: ref.remark };
  const remark = ref.remark ?? "REJECTED BY THE EXCHANGE";
  return { status: "REJECTED", exchangeOrderNumber: ref.exchangeOrderNumber, remark, failureCode: failureCodeFor(remark) };
}
