import type { Db } from "../../../platform/db/client.js";
import { maskAccountNumber, maskEmail, maskFreeText, maskMobile, maskPan, maskPansDeep } from "../../../platform/lib/mask.js";
import {
  ExchangeUnavailableError,
  type AllotmentReport,
  type ExchangeAllotmentRow,
  type ExchangeOrderRow,
  type ExchangePort,
  type MandateRegistration,
  type OrderEntry,
  type OrderPlacement,
  type OrderStatusReport,
  type PaymentInitiation,
  type PaymentRequest,
  type PaymentStatusReport,
  type RegistrationOutcome,
  type UccModification,
  type UccRegistration,
} from "../port.js";
import * as books from "./sandbox.repo.js";
import { Batcher } from "../../../platform/lib/batcher.js";
import { INDIA_OFFSET_MS } from "../../../platform/lib/india-date.js";

type Kind = books.RecordKind;

/** What the books keep of an order that cancellation reads: the order entry's type, and a refusal a simulation endpoint set. */
interface OrderBooks {
  orderType?: string;
  refuseCancel?: string;
  remarks?: string | null;
  /** Installments paused, one entry per pause; `resumed` when one was ended early. */
  pauses?: Array<{ installments: number; resumed?: boolean }>;
}
/** The registrations the exchange cancels (bse-starmf-orders.md section 5); one-time orders it does not. */
const REGISTRATION_TYPES = new Set(["SIP", "XSIP", "STP", "SWP"]);
/** The order types the exchange's reports show as redemptions (R); a switch's row is its switch-out. */
const SELLS = new Set(["REDEMPTION", "SWITCH", "SWP"]);

/** SIM:FAIL's transport failure asks for a retry this soon, so such an order ends FAILED in seconds, not minutes. */
const SIM_FAIL_RETRY_MS = 500;
type Status = books.RecordStatus;
type AllotmentRow = Omit<AllotmentReport, "orderId" | "exchangeOrderNumber">;

/**
 * The sandbox exchange. It keeps its own books in `sandbox_exchange_records` and is deterministic:
 * what it was sent stays PENDING until a simulation endpoint moves it (or, with MF_SANDBOX_AUTO_REGISTER,
 * is registered on arrival). A registration sent twice is recognised by its reference.
 *
 * Its books keep no clear personal data: what it needs to behave is the reference, the status and
 * (for orders) the allotment; the rest is kept for inspection in the masked forms the API shows, and
 * every remark (free text) with PANs masked.
 */
export class SandboxExchange implements ExchangePort {
  /** Bookings arriving together (dispatch jobs running at the same time) are written in one statement. */
  private readonly bookings: Batcher<books.NewRecord, Pick<books.SandboxRecord, "status" | "remark">>;

  constructor(private readonly db: Db, private readonly options: { autoRegister: boolean }) {
    this.bookings = new Batcher((records) => books.bookOnce(this.db, records));
  }

  async registerInvestor(ucc: UccRegistration): Promise<RegistrationOutcome> {
    return this.receive("UCC", ucc.clientCode, uccForBooks(ucc));
  }

  investorStatus(clientCode: string): Promise<RegistrationOutcome> {
    return this.status("UCC", clientCode);
  }

  /** Books the modification by the change's id; it waits for a simulation (apply-change, reject-change) as a registration does. */
  async modifyInvestor(change: UccModification): Promise<RegistrationOutcome> {
    return this.receive("UCC_CHANGE", change.changeId, { ...uccForBooks(change.ucc), fatcaChanged: change.fatcaChanged });
  }

  async registerMandate(mandate: MandateRegistration): Promise<RegistrationOutcome & { exchangeMandateId: string | null }> {
    const payload = { ...mandate, bank: { ...mandate.bank, accountNumber: mandate.bank.accountNumber.slice(-4) } };
    const outcome = await this.receive("MANDATE", mandate.mandateId, payload);
    return { ...outcome, exchangeMandateId: `SBX${mandate.mandateId.slice(-10).toUpperCase()}` };
  }

  mandateStatus(mandateId: string): Promise<RegistrationOutcome> {
    return this.status("MANDATE", mandateId);
  }

  /** The sandbox's mandates are moved by the simulation endpoints: there is no bank page to authorise them on. */
  mandateAuthUrl(_mandateId: string): Promise<string | null> {
    return Promise.resolve(null);
  }

  async cancelMandate(mandateId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    const record = await books.findRecord(this.db, "MANDATE", mandateId);
    if (!record || (record.status !== "REGISTERED" && record.status !== "CANCELLED")) {
      return { cancelled: false, remark: "MANDATE NOT REGISTERED" };
    }
    await this.set("MANDATE", mandateId, "CANCELLED", "CANCELLED BY MEMBER");
    return { cancelled: true };
  }

  /**
   * Order entry. Test triggers in `remarks`: SIM:FAIL is a transport failure (nothing is booked),
   * SIM:REJECT is rejected with a remark, SIM:HOLD stays PENDING until a simulation endpoint moves it; any
   * other valid order is accepted. An order id seen before gets its first answer again.
   */
  async placeOrder(order: OrderEntry): Promise<OrderPlacement> {
    const remarks = order.remarks ?? "";
    if (remarks.includes("SIM:FAIL")) {
      throw new ExchangeUnavailableError("SANDBOX: SIMULATED TRANSPORT FAILURE", { retryAfterMs: SIM_FAIL_RETRY_MS, notPlaced: true });
    }
    const [status, remark] = remarks.includes("SIM:REJECT")
      ? (["REJECTED", "SANDBOX: ORDER REJECTED (SIM:REJECT)"] as const)
      : remarks.includes("SIM:HOLD")
        ? (["PENDING", "SANDBOX: ORDER HELD (SIM:HOLD)"] as const)
        : (["ACCEPTED", "ORDER CONFIRMED"] as const);
    const booked = await this.book("ORDER", order.orderId, status, remark, { ...order, remarks: maskFreeText(order.remarks), payoutAccountNumber: order.payoutAccountNumber && maskAccountNumber(order.payoutAccountNumber) });
    return placement(booked.status, sandboxOrderNumber(order.orderId), booked.remark);
  }

  /**
   * As the exchange: a SIP, XSIP, STP or SWP registration it has accepted is cancelled (again: still
   * cancelled); a one-time order is not (the exchange withdrew their cancellation), nor an order it has
   * not accepted. A registration whose cancellation a simulation endpoint refused (`refuseCancellation`) is refused.
   */
  async cancelOrder(orderId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }> {
    const record = await this.record("ORDER", orderId);
    if (!record) return { cancelled: false, remark: "ORDER NOT FOUND" };
    const payload = record.payload as OrderBooks;
    if (!payload.orderType || !REGISTRATION_TYPES.has(payload.orderType)) return { cancelled: false, remark: "THE EXCHANGE DOES NOT CANCEL ORDERS OF THIS TYPE" };
    if (record.status === "CANCELLED") return { cancelled: true };
    if (record.status !== "ACCEPTED") return { cancelled: false, remark: `ORDER ${record.status}` };
    if (payload.refuseCancel) return { cancelled: false, remark: payload.refuseCancel };
    await this.set("ORDER", orderId, "CANCELLED", "CANCELLED BY MEMBER");
    return { cancelled: true };
  }

  /**
   * As the exchange's PauseSIP: an accepted SIP or XSIP registration is paused (booked in its record); another order
   * is refused. An order placed with `SIM:REFUSE_PAUSE` in its remarks has its pauses refused.
   */
  async pauseSip(orderId: string, installments: number): Promise<{ paused: true } | { paused: false; remark: string }> {
    const record = await this.record("ORDER", orderId);
    if (!record) return { paused: false, remark: "REGISTRATION NOT FOUND" };
    const payload = record.payload as OrderBooks;
    if (payload.orderType !== "SIP" && payload.orderType !== "XSIP") return { paused: false, remark: "ONLY A SIP OR XSIP REGISTRATION CAN BE PAUSED" };
    if (record.status !== "ACCEPTED") return { paused: false, remark: `REGISTRATION ${record.status}` };
    if (payload.remarks?.includes("SIM:REFUSE_PAUSE")) return { paused: false, remark: "SANDBOX: PAUSE REFUSED (SIM:REFUSE_PAUSE)" };
    await books.mergePayload(this.db, "ORDER", orderId, { pauses: [...(payload.pauses ?? []), { installments }] });
    return { paused: true };
  }

  /** Ends the registration's latest pause early (the sandbox allows it; BSE's PauseSIP has no resume). */
  async resumeSip(orderId: string): Promise<{ resumed: true } | { resumed: false; remark: string }> {
    const record = await this.record("ORDER", orderId);
    const pauses = (record?.payload as OrderBooks | undefined)?.pauses ?? [];
    const last = pauses.at(-1);
    if (!last || last.resumed) return { resumed: false, remark: "NO PAUSE TO RESUME" };
    await books.mergePayload(this.db, "ORDER", orderId, { pauses: [...pauses.slice(0, -1), { ...last, resumed: true }] });
    return { resumed: true };
  }

  /**
   * For the simulation endpoints: from now on the exchange refuses this order's cancellations with `exchangeRemark` (kept in
   * its books, so a cancellation job running at the same time is refused too).
   */
  async refuseCancellation(orderId: string, orderType: string, exchangeRemark: string): Promise<void> {
    await books.mergePayload(this.db, "ORDER", orderId, { orderType, refuseCancel: maskFreeText(exchangeRemark) });
  }

  /** For the simulation endpoints: the order type of an order one decided on before it was ever sent (its books had no entry). */
  async noteOrderType(orderId: string, orderType: string): Promise<void> {
    await books.mergePayload(this.db, "ORDER", orderId, { orderType });
  }

  async orderStatus(orderIds: string[]): Promise<OrderStatusReport[]> {
    const records = await books.findRecords(this.db, "ORDER", orderIds);
    return records.map((r) => ({
      orderId: r.reference,
      status: r.status === "REJECTED" ? "REJECTED" : r.status === "PENDING" ? "PENDING" : "ACCEPTED",
      exchangeOrderNumber: r.status === "REJECTED" ? null : sandboxOrderNumber(r.reference),
      remark: r.remark,
    }));
  }

  /** Allotment rows of orders a simulation endpoint has allotted (the allotment is kept in the record's payload). */
  async allotments(orderIds: string[]): Promise<AllotmentReport[]> {
    const records = await books.findRecords(this.db, "ORDER", orderIds, "ALLOTTED");
    return records.flatMap((r) => {
      const allotment = (r.payload as { allotment?: AllotmentRow }).allotment;
      return allotment ? [{ ...allotment, orderId: r.reference, exchangeOrderNumber: sandboxOrderNumber(r.reference) }] : [];
    });
  }

  /**
   * The order status report of an India day, from the books: every order received by order entry that day
   * (registrations are not orders of the report, as at BSE; an installment the sandbox never received is not
   * in it). The order type, amount and units are the order entry's.
   */
  async orderStatusForDate(date: string): Promise<ExchangeOrderRow[]> {
    return (await this.ordersBookedOn(date)).map(({ record, entry }) => ({
      orderId: record.reference,
      exchangeOrderNumber: sandboxOrderNumber(record.reference),
      clientCode: entry.clientCode ?? "",
      schemeCode: entry.schemeCode ?? "",
      buySell: SELLS.has(entry.orderType!) ? "R" : "P",
      status: record.status === "REJECTED" ? "REJECTED" : record.status === "PENDING" ? "PENDING" : "ACCEPTED",
      amount: entry.amount ?? null,
      units: entry.units ?? null,
      remark: record.remark,
    }));
  }

  /** The allotment statement's rows of the orders received on an India day that a simulation (or a test) has allotted. */
  async allotmentsForDate(date: string): Promise<ExchangeAllotmentRow[]> {
    return (await this.ordersBookedOn(date)).flatMap(({ record }) => {
      const allotment = record.status === "ALLOTTED" ? (record.payload as { allotment?: AllotmentRow }).allotment : undefined;
      return allotment ? [{ ...allotment, orderId: record.reference, exchangeOrderNumber: sandboxOrderNumber(record.reference) }] : [];
    });
  }

  private async ordersBookedOn(date: string) {
    const from = new Date(Date.parse(`${date}T00:00:00Z`) - INDIA_OFFSET_MS);
    const records = await books.recordsBookedBetween(this.db, "ORDER", from, new Date(from.getTime() + 86_400_000));
    return records
      .map((record) => ({ record, entry: record.payload as Partial<Pick<OrderEntry, "orderType" | "clientCode" | "schemeCode" | "amount" | "units">> }))
      .filter(({ entry }) => entry.orderType !== undefined && !REGISTRATION_TYPES.has(entry.orderType));
  }

  async createPayment(payment: PaymentRequest): Promise<PaymentInitiation> {
    // The books keep what identifies the payment, never the investor's address or account.
    const { vpa: _vpa, bankAccount: _account, ...kept } = payment;
    await this.book("PAYMENT", payment.paymentId, "PENDING", null, kept);
    return { status: "PENDING", paymentReference: `SBXPAY${payment.paymentId.slice(-10).toUpperCase()}` };
  }

  async paymentStatus(paymentIds: string[]): Promise<PaymentStatusReport[]> {
    const records = await books.findRecords(this.db, "PAYMENT", paymentIds);
    return records.map((r) => ({
      paymentId: r.reference,
      status: r.status === "CAPTURED" || r.status === "FAILED" || r.status === "REFUNDED" ? r.status : "PENDING",
      remark: r.remark,
    }));
  }

  /**
   * For the simulation endpoints: the exchange's allotment statement reports an order (valid or not). The service
   * learns of it through `allotments`, as it would from the real statement.
   */
  async reportAllotment(orderId: string, allotment: AllotmentRow): Promise<void> {
    const remark = maskFreeText(allotment.remark ?? (allotment.valid ? "ALLOTTED" : "ALLOTMENT REJECTED"));
    const record = await this.record("ORDER", orderId);
    const payload = { ...((record?.payload as object | undefined) ?? {}), allotment: { ...allotment, remark: maskFreeText(allotment.remark) } };
    await books.upsertRecord(this.db, "ORDER", orderId, { status: "ALLOTTED", remark, payload });
  }

  private record(kind: Kind, reference: string) {
    return books.findRecord(this.db, kind, reference);
  }

  /**
   * For the simulation endpoints: the exchange decides on a registration (UCC or mandate) it has received, or will receive,
   * unless it has already decided (MF_SANDBOX_AUTO_REGISTER registers on receipt). Answers the decision it
   * now holds, which a concurrent registration job then gets too.
   */
  async decide(kind: "UCC" | "UCC_CHANGE" | "MANDATE", reference: string, status: "REGISTERED" | "REJECTED", exchangeRemark: string): Promise<RegistrationOutcome> {
    const remark = maskFreeText(exchangeRemark);
    await books.insertRecordOnce(this.db, { kind, reference, status, remark, payload: {} });
    await books.decidePending(this.db, kind, reference, { status, remark });
    const record = await books.getRecord(this.db, kind, reference);
    return toOutcome(record.status, record.remark);
  }

  /** For the simulation endpoints: the exchange changes its mind about a registration. */
  async set(kind: Kind, reference: string, status: Status, exchangeRemark: string | null): Promise<void> {
    const remark = maskFreeText(exchangeRemark);
    await books.upsertRecord(this.db, kind, reference, { status, remark });
  }

  private async receive(kind: Kind, reference: string, payload: object): Promise<RegistrationOutcome> {
    const [status, remark] = this.options.autoRegister
      ? (["REGISTERED", "SANDBOX: REGISTERED ON RECEIPT"] as const)
      : (["PENDING", "SANDBOX: AWAITING SIMULATION"] as const);
    const booked = await this.book(kind, reference, status, remark, payload);
    return toOutcome(booked.status, booked.remark);
  }

  /**
   * Books what the exchange received, once: the first booking of a reference wins, and a repeat (a
   * retried or concurrent dispatch) gets that first booking back, as the real exchange answers a
   * duplicate with the original.
   */
  private async book(kind: Kind, reference: string, status: Status, remark: string | null, payload: object) {
    return this.bookings.add({ kind, reference, status, remark: maskFreeText(remark), payload: maskPansDeep(JSON.parse(JSON.stringify(payload))) });
  }

  private async status(kind: Kind, reference: string): Promise<RegistrationOutcome> {
    const record = await books.findRecord(this.db, kind, reference);
    return record ? toOutcome(record.status, record.remark) : { status: "PENDING", remark: "SANDBOX: NOT RECEIVED" };
  }
}

/**
 * What the books keep of a UCC: the exchange codes, and the personal details only as the API shows
 * them (PAN, mobile, email and CKYC number masked); names, dates of birth, addresses, bank accounts,
 * nominees and other holders not at all.
 */
function uccForBooks(ucc: UccRegistration) {
  const holder = ucc.primaryHolder;
  return {
    clientCode: ucc.clientCode,
    taxStatus: ucc.taxStatus,
    holdingNature: ucc.holdingNature,
    occupation: ucc.occupation,
    clientType: ucc.clientType,
    depository: ucc.depository,
    primaryHolder: { pan: maskPan(holder.pan), kycType: holder.kycType, ckycNumber: holder.ckycNumber ? maskAccountNumber(holder.ckycNumber) : null },
    jointHolders: ucc.jointHolders.length,
    guardian: ucc.guardian !== null,
    contact: {
      email: maskEmail(ucc.contact.email),
      mobile: maskMobile(ucc.contact.mobile),
      emailRelation: ucc.contact.emailRelation,
      mobileRelation: ucc.contact.mobileRelation,
    },
    address: { state: ucc.address.state, country: ucc.address.country },
    bankAccounts: ucc.bankAccounts.length,
    nominees: ucc.nominees.length,
    nominationOptedOut: ucc.nominationOptedOut,
    fatca: {
      occupationType: ucc.fatca.occupationType,
      incomeSlab: ucc.fatca.incomeSlab,
      pep: ucc.fatca.pep,
      sourceOfWealth: ucc.fatca.sourceOfWealth,
      countryOfBirth: ucc.fatca.countryOfBirth,
      taxResidentOtherCountry: ucc.fatca.taxResidentOtherCountry,
    },
  };
}

function toOutcome(status: Status, remark: string | null): RegistrationOutcome {
  if (status === "REGISTERED" || status === "CANCELLED") return { status: "REGISTERED", remark };
  if (status === "REJECTED") return { status: "REJECTED", remark: remark ?? "REJECTED" };
  return { status: "PENDING", remark };
}

/** The exchange's order number for an order: derived from our id, so it is the same on every retry. */
function sandboxOrderNumber(orderId: string): string {
  return `SBX${orderId.slice(-12).toUpperCase()}`;
}

function placement(status: Status, exchangeOrderNumber: string, remark: string | null): OrderPlacement {
  if (status === "REJECTED") return { status: "REJECTED", exchangeOrderNumber: null, remark: remark ?? "REJECTED" };
  if (status === "PENDING") return { status: "PENDING", exchangeOrderNumber, remark };
  return { status: "ACCEPTED", exchangeOrderNumber, remark };
}
