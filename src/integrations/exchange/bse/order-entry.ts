import type { OrderEntry, OrderPlacement } from "../port.js";
import type { BseConfig } from "./bse-config.js";
import { ExchangeUnavailableError } from "../port.js";
import { rejectedOrder } from "./refusals.js";
import { providerRemark } from "./remarks.js";
import { BseSessionError, isSessionRefusal, type Session } from "./sessions.js";
import type { SoapParam } from "./soap.js";
import { internalRefOf } from "./trans-no-layout.js";

/**
 * orderEntryParam (bse-starmf-orders.md §3): lump sum purchases (P, FRESH or ADDITIONAL; a SIP top-up is
 * an ADDITIONAL purchase) and redemptions (R: units, amount or all units), every element in the
 * document's order, empty ones sent empty.
 */

export const ORDER_ENTRY_TYPES = ["LUMPSUM_PURCHASE", "SIP_TOPUP", "REDEMPTION"] as const satisfies ReadonlyArray<OrderEntry["orderType"]>;
export type OrderEntryType = (typeof ORDER_ENTRY_TYPES)[number];

export function isOrderEntryType(type: OrderEntry["orderType"]): type is OrderEntryType {
  return (ORDER_ENTRY_TYPES as readonly string[]).includes(type);
}

export interface Member {
  userId: string;
  memberId: string;
  /** BSE_EUIN: the EUIN sent when an order names none and is not declared execution-only. */
  defaultEuin: string | undefined;
}

/** The member the adapter's orders go out as, from its settings. */
export function memberOf(config: BseConfig): Member {
  return { userId: config.userId, memberId: config.memberId, defaultEuin: config.euin };
}

export const DP_TXN = { PHYSICAL: "P", CDSL: "C", NSDL: "N" } as const;

/** The EUIN sent: the order's, else BSE_EUIN unless the order is declared execution-only. */
export function euinOf(order: Pick<OrderEntry, "euin" | "euinDeclared">, member: Member): string | null {
  return order.euin ?? (order.euinDeclared ? null : (member.defaultEuin ?? null));
}

/** The parameters of orderEntryParam, in the document's order. */
export function orderEntryParams(order: OrderEntry & { orderType: OrderEntryType }, transNo: string, member: Member, session: Session): SoapParam[] {
  const purchase = order.orderType !== "REDEMPTION";
  const dpTxn = DP_TXN[order.holdingMode ?? "PHYSICAL"];
  const euin = euinOf(order, member);
  return [
    ["TransCode", "NEW"],
    ["TransNo", transNo],
    ["OrderId", null],
    ["UserID", member.userId],
    ["MemberId", member.memberId],
    ["ClientCode", order.clientCode],
    ["SchemeCd", order.schemeCode],
    ["BuySell", purchase ? "P" : "R"],
    ["BuySellType", order.orderType === "SIP_TOPUP" ? "ADDITIONAL" : (order.purchaseType ?? "FRESH")],
    ["DPTxn", dpTxn],
    ["OrderVal", order.allUnits ? null : order.amount],
    ["Qty", purchase || order.allUnits ? null : order.units],
    ["AllRedeem", !purchase && order.allUnits ? "Y" : "N"],
    // Blank for demat (the units sit in the demat account), as the document says.
    ["FolioNo", dpTxn === "P" ? order.folioNo : null],
    ["Remarks", order.remarks ? order.remarks.slice(0, 255) : null],
    // Orders are placed only for REGISTERED investors, whose registration checked their KYC.
    ["KYCStatus", "Y"],
    // The order status report returns a 10-character internal reference: MMDD + the running number.
    ["RefNo", internalRefOf(transNo)],
    ["SubBrCode", null],
    ["EUIN", euin],
    ["EUINVal", order.euinDeclared ? "Y" : "N"],
    ["MinRedeem", "N"],
    ["DPC", "Y"],
    ["IPAdd", null],
    ["Password", session.encryptedPassword],
    ["PassKey", session.passKey],
    ["Parma1", order.subBrokerArn],
    ["Param2", null],
    ["Param3", purchase ? null : order.payoutAccountNumber],
    ["MobileNo", null],
    ["EmailID", null],
    ["MandateID", null],
    ["Filler1", null],
    ["Filler2", null],
    ["Filler3", null],
    ["Filler4", null],
    ["Filler5", null],
    ["Filler6", null],
  ];
}

/**
 * An order answer too short to read: a session refusal in another shape than ours (the document shows
 * none; `101|INVALID ENCRYPTED PASSWORD` or the bare text) still logs in again once, as every session
 * refusal does; anything else is unavailable.
 */
export function unreadableAnswer(operation: string, result: string, fieldCount: number): Error {
  if (isSessionRefusal(result)) return new BseSessionError(result.replace(/^\s*10[01]\s*\|/, "").trim());
  return new ExchangeUnavailableError(`BSE ${operation}: unexpected answer (${fieldCount} fields)`);
}

/** The exchange's answer to one order request, as read from its 8 pipe fields. */
export type OrderEntryAnswer = OrderPlacement & { status: "ACCEPTED" | "REJECTED" };

/**
 * Reads `TransCode|TransNo|OrderNo|UserID|MemberId|ClientCode|remark|flag`, by position (the remark may
 * hold anything, even a `|`): flag 0 is ACCEPTED with the order number, 1 REJECTED with the remark and its
 * failure code (refusals.ts: a refused login is unavailable). A session refusal is BseSessionError (log in again, send again); an answer of another
 * shape, or for another TransNo, is ExchangeUnavailableError.
 */
export function readOrderEntryAnswer(result: string, transNo: string): OrderEntryAnswer {
  const fields = result.split("|");
  if (fields.length < 8) throw unreadableAnswer("orderEntryParam", result, fields.length);
  const flag = fields.at(-1)!.trim();
  const remark = fields.slice(6, -1).join("|").trim();
  const orderNumber = fields[2]!.trim();
  if (flag === "1" && isSessionRefusal(remark)) throw new BseSessionError(remark);
  if (fields[1]!.trim() !== transNo) throw new ExchangeUnavailableError(`BSE orderEntryParam: the answer is for another reference`);
  const knownNumber = /^[1-9]\d*$/.test(orderNumber) ? orderNumber : null;
  if (flag === "0") {
    if (!knownNumber) throw new ExchangeUnavailableError("BSE orderEntryParam: accepted without an order number");
    return { status: "ACCEPTED", exchangeOrderNumber: knownNumber, remark: providerRemark(remark) };
  }
  if (flag === "1") {
    return rejectedOrder("orderEntryParam", remark, knownNumber);
  }
  throw new ExchangeUnavailableError(`BSE orderEntryParam: unexpected success flag`);
}
