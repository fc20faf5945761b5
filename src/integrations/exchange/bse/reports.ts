import { maskFreeText } from "../../../platform/lib/mask.js";
import { Decimal } from "../../../platform/lib/money.js";
import { bseDate } from "./format.js";
import { ExchangeUnavailableError } from "../port.js";
import { asNode, contractParam, nodeText, type SoapParam } from "./soap.js";

/**
 * The order status report, the allotment statement and the redemption statement (bse-starmf-services.md
 * §8) on the web service: one request shape (member code, user id and the login password in every
 * request: no session), `Status` 100 with the rows or 101 with the reason. Element names are the
 * service's data contracts (OrderRequest, OrderDetails, AllotmentDetails, RedemptionDetails), members in
 * alphabetical order as WCF sends them.
 */

export const REPORTS = {
  orderStatus: { operation: "OrderStatus", list: "OrderDetails", row: "OrderDetails" },
  allotment: { operation: "AllotmentStatement", list: "AllotmentDetails", row: "AllotmentDetails" },
  redemption: { operation: "RedemptionStatement", list: "RedemptionDetails", row: "RedemptionDetails" },
} as const;
export type ReportKind = keyof typeof REPORTS;

export interface ReportCredentials {
  userId: string;
  memberId: string;
  password: string;
}

export interface ReportQuery {
  /** YYYY-MM-DD (India), both inclusive. */
  fromDate: string;
  toDate: string;
  clientCode?: string | null;
}

/**
 * The request: every filter open (order type, sub-type, status `All`, settlement type `ALL`), the dates
 * and optionally a client. `TransType` (order status only) is left empty for both purchases and
 * redemptions: the document calls it conditional without saying when (a UAT point). `OrderNo` stays empty:
 * given, it would make the exchange ignore every other filter, one call per order.
 */
export function reportParams(kind: ReportKind, who: ReportCredentials, query: ReportQuery): SoapParam[] {
  const members: SoapParam[] = [
    ["ClientCode", query.clientCode ?? null],
    ["Filler1", null],
    ["Filler2", null],
    ["Filler3", null],
    ["FromDate", bseDate("fromDate", query.fromDate)],
    ["MemberCode", who.memberId],
    ["OrderNo", null],
    ["OrderStatus", "All"],
    ["OrderType", "All"],
    ["Password", who.password],
    ["SettType", "ALL"],
    ["SubOrderType", "All"],
    ["ToDate", bseDate("toDate", query.toDate)],
    ...(kind === "orderStatus" ? ([["TransType", null]] as const) : []),
    ["UserId", who.userId],
  ];
  return [contractParam(members)];
}

type Fields = Record<string, string>;

/**
 * The rows of a report answer. 101 is the exchange's refusal (unavailable, so the job retries, with its
 * reason), except a "no records" message, which some members report for an empty range: no rows.
 */
export function reportRows(kind: ReportKind, result: unknown): Fields[] {
  const { operation, list, row } = REPORTS[kind];
  const node = asNode(result);
  const status = nodeText(node?.Status);
  const message = nodeText(node?.Message);
  if (status === "101") {
    if (/NO (DATA|RECORDS?)( FOUND)?/i.test(message)) return [];
    throw new ExchangeUnavailableError(`BSE ${operation}: ${maskFreeText(message) || "refused"}`);
  }
  if (status !== "100") throw new ExchangeUnavailableError(`BSE ${operation}: unexpected status ${JSON.stringify(status.slice(0, 10))}`);
  const items = asNode(node?.[list])?.[row];
  return (Array.isArray(items) ? items : items === undefined ? [] : [items]).map((item) => {
    const fields: Fields = {};
    for (const [key, value] of Object.entries(asNode(item) ?? {})) fields[key] = nodeText(value).trim();
    return fields;
  });
}

export interface OrderStatusRow {
  orderNumber: string;
  internalRefNo: string;
  clientCode: string;
  /** VALID, INVALID (or what else the exchange writes). */
  orderStatus: string;
  remark: string;
  /** YYYY-MM-DD, the order's day; "" when the row has none. */
  date: string;
  schemeCode: string;
  /** P purchase, R redemption, as written. */
  buySell: string;
  /** As written (the report's NUMERIC: 2 and 3 decimals); "" when absent. */
  amount: string;
  units: string;
}

export function orderStatusRows(result: unknown): OrderStatusRow[] {
  return reportRows("orderStatus", result).map((f) => ({
    orderNumber: f.OrderNumber ?? "",
    internalRefNo: f.InternalRefNo ?? "",
    clientCode: f.ClientCode ?? "",
    orderStatus: (f.OrderStatus ?? "").toUpperCase(),
    remark: f.OrderRemarks ?? "",
    date: f.Date ? isoDate(REPORTS.orderStatus.operation, f.Date) : "",
    schemeCode: f.SchemeCode ?? "",
    buySell: (f.BuySell ?? "").toUpperCase(),
    amount: f.Amount ?? "",
    units: f.Units ?? "",
  }));
}

export interface StatementRow {
  orderNumber: string;
  folioNo: string;
  schemeCode: string;
  /** Exact decimal strings: NAV 4 places, units 3, amount 2 (never through a float). */
  nav: string;
  units: string;
  amount: string;
  /** YYYY-MM-DD. */
  reportDate: string;
  /** YYYY-MM-DD, the day of the order allotted; "" when the row has none. */
  orderDate: string;
  valid: boolean;
  remark: string;
}

/** Allotment statement rows (purchases) or redemption statement rows (whose NAV, units and amount are the redemption's). */
export function statementRows(kind: "allotment" | "redemption", result: unknown): StatementRow[] {
  const operation = REPORTS[kind].operation;
  return reportRows(kind, result).map((f) => {
    const [nav, units, amount] = kind === "allotment" ? [f.AllottedNav, f.AllottedUnit, f.AllottedAmt] : [f.Nav, f.Unit, f.Amt];
    const valid = (f.ValidFlag ?? "").toUpperCase() === "Y";
    return {
      orderNumber: f.OrderNo ?? "",
      folioNo: f.FolioNo ?? "",
      schemeCode: f.SchemeCode ?? "",
      nav: valid ? exactDecimal(operation, "nav", nav, 4) : (nav ?? ""),
      units: valid ? exactDecimal(operation, "units", units, 3) : (units ?? ""),
      amount: valid ? exactDecimal(operation, "amount", amount, 2) : (amount ?? ""),
      reportDate: isoDate(operation, f.ReportDate ?? ""),
      orderDate: f.OrderDate ? isoDate(operation, f.OrderDate) : "",
      valid,
      remark: f.Remarks ?? "",
    };
  });
}

/**
 * A reported number as an exact decimal string with (at least) the document's places: `10.5` NAV is
 * `10.5000`; more places than documented are kept (the allotment rounds them its own way). Anything that
 * is not a plain decimal is a malformed answer.
 */
export function exactDecimal(operation: string, field: string, value: string | undefined, places: number): string {
  const raw = (value ?? "").trim();
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new ExchangeUnavailableError(`BSE ${operation}: ${field} is not a decimal (${JSON.stringify(raw.slice(0, 20))})`);
  const decimals = raw.includes(".") ? raw.length - raw.indexOf(".") - 1 : 0;
  return decimals >= places ? raw : new Decimal(raw).toFixed(places);
}

/** YYYY-MM-DD from the report's `YYYY-MM-DD`, `YYYYMMDD` or `DD/MM/YYYY` (a time after it ignored). */
export function isoDate(operation: string, value: string): string {
  const v = value.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})\/(\d{2})\/(\d{4})/.exec(v);
  if (m) return `${m[3]}-${m[2]}-${m[1]}`;
  throw new ExchangeUnavailableError(`BSE ${operation}: report date ${JSON.stringify(v.slice(0, 20))} is not a date`);
}
