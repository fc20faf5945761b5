import type { OrderEntry } from "../port.js";
import { ExchangeUnavailableError } from "../port.js";
import { DP_TXN, euinOf, unreadableAnswer, type Member, type OrderEntryAnswer } from "./order-entry.js";
import { rejectedOrder } from "./refusals.js";
import { providerRemark } from "./remarks.js";
import { BseSessionError, isSessionRefusal, type Session } from "./sessions.js";
import type { SoapParam } from "./soap.js";

/**
 * switchOrderEntryParam (bse-starmf-orders.md §4d): out of the order's scheme (SO) into `toSchemeCode`, by
 * amount, units or all units, every element in the document's order (element names from the WSDL; the
 * v3.1 fillers by analogy, open point 2). Switch has no RefNo and no DPC; Param2 and Param3 carry mobile
 * and e-mail in v3.1 (sent empty, as for lump sums).
 */
export function switchParams(order: OrderEntry, transNo: string, member: Member, session: Session): SoapParam[] {
  const dpTxn = DP_TXN[order.holdingMode ?? "PHYSICAL"];
  return [
    ["TransCode", "NEW"],
    ["TransNo", transNo],
    ["OrderId", null],
    ["UserId", member.userId],
    ["MemberId", member.memberId],
    ["ClientCode", order.clientCode],
    ["FromSchemeCd", order.schemeCode],
    ["ToSchemeCd", order.toSchemeCode],
    ["BuySell", "SO"],
    ["BuySellType", order.purchaseType ?? "FRESH"],
    ["DPTxn", dpTxn],
    ["OrderVal", order.allUnits ? null : order.amount],
    ["SwitchUnits", order.allUnits ? null : order.units],
    ["AllUnitsFlag", order.allUnits ? "Y" : "N"],
    ["FolioNo", dpTxn === "P" ? order.folioNo : null],
    ["Remarks", order.remarks ? order.remarks.slice(0, 255) : null],
    ["KYCStatus", "Y"],
    ["SubBrCode", null],
    ["EUIN", euinOf(order, member)],
    ["EUINVal", order.euinDeclared ? "Y" : "N"],
    ["MinRedeem", "N"],
    ["IPAdd", null],
    ["Password", session.encryptedPassword],
    ["PassKey", session.passKey],
    ["Parma1", order.subBrokerArn],
    ["Param2", null],
    ["Param3", null],
    ["Filler1", null],
    ["Filler2", null],
    ["Filler3", null],
    ["Filler4", null],
    ["Filler5", null],
    ["Filler6", null],
  ];
}

/**
 * Reads `TransCode|TransNo|SO order|UserId|MemberId|ClientCode|remark and flag|SI order`. The document
 * gives the flag and the remark in an uncertain order (open point 3): the one of positions 7-8 that is
 * exactly 0 or 1 is the flag. Accepted: the switch-out order number, and the switch-in number beside it.
 */
export function readSwitchAnswer(result: string, transNo: string): OrderEntryAnswer & { secondOrderNumber: string | null } {
  const fields = result.split("|").map((f) => f.trim());
  if (fields.length < 9) throw unreadableAnswer("switchOrderEntryParam", result, fields.length);
  const middle = fields.slice(6, -1);
  const flagFirst = middle[0] === "0" || middle[0] === "1";
  const flag = flagFirst ? middle[0]! : middle.at(-1)!;
  const remark = (flagFirst ? middle.slice(1) : middle.slice(0, -1)).join("|");
  if (flag === "1" && isSessionRefusal(remark)) throw new BseSessionError(remark);
  if (fields[1] !== transNo) throw new ExchangeUnavailableError("BSE switchOrderEntryParam: the answer is for another reference");
  const number = (value: string | undefined) => (value && /^[1-9]\d*$/.test(value) ? value : null);
  const outNo = number(fields[2]);
  const inNo = number(fields.at(-1));
  if (flag === "0") {
    if (!outNo) throw new ExchangeUnavailableError("BSE switchOrderEntryParam: accepted without an order number");
    return { status: "ACCEPTED", exchangeOrderNumber: outNo, remark: providerRemark(remark), secondOrderNumber: inNo };
  }
  if (flag === "1") {
    return { ...rejectedOrder("switchOrderEntryParam", remark, outNo), secondOrderNumber: null };
  }
  throw new ExchangeUnavailableError("BSE switchOrderEntryParam: unexpected success flag");
}
