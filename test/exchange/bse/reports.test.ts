import { describe, expect, it } from "vitest";
import type { Db } from "../../../src/platform/db/client.js";
import type { BseConfig } from "../../../src/integrations/exchange/bse/bse-config.js";
import { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import { REPORT_LAG_MS } from "../../../src/integrations/exchange/bse/send-once.js";
import { exactDecimal, isoDate, reportRows } from "../../../src/integrations/exchange/bse/reports.js";
import { ExchangeUnavailableError, type OrderEntry } from "../../../src/integrations/exchange/port.js";
import { newId } from "../../../src/platform/lib/ids.js";
import { todayInIndia } from "../../../src/platform/lib/india-date.js";
import type { BseDouble } from "../../helpers/bse-double/double.js";
import { doubleConfig, useBseAdapterWorld } from "../../helpers/bse-double/adapter-world.js";
import { capturingLogger } from "../../helpers/logs.js";

let prisma: Db;
let double: BseDouble;

useBseAdapterWorld((world) => {
  ({ prisma, double } = world);
});

const config = (overrides: Partial<BseConfig> = {}) => doubleConfig(double, overrides);
const exchange = (overrides: Partial<BseConfig> = {}, now?: () => number) => new BseExchange(prisma, config(overrides), capturingLogger().logger, { now });

const order = (fields: Partial<OrderEntry> = {}): OrderEntry => ({
  orderId: newId("ord"), clientCode: "UCC0001", orderType: "LUMPSUM_PURCHASE", schemeCode: "02-DP", toSchemeCode: null, purchaseType: "FRESH",
  amount: "5000.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: true, remarks: null,
  holdingMode: "PHYSICAL", subBrokerArn: null, payoutAccountNumber: null, ...fields,
});
const redemption = (fields: Partial<OrderEntry> = {}) =>
  order({ orderType: "REDEMPTION", purchaseType: null, amount: null, units: "100.000", folioNo: "F1", payoutAccountNumber: "50100012345678", ...fields });

const today = () => todayInIndia();
const ddmmyyyy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const orderCalls = () => double.calls.filter((c) => c.operation === "orderEntryParam").length;
const refsOf = (orderId: string) => prisma.bseOrderRef.findMany({ where: { orderId }, orderBy: { sentAt: "asc" } });

async function placed(entry: OrderEntry) {
  const placement = await exchange().placeOrder(entry);
  if (placement.status !== "ACCEPTED") throw new Error(`not accepted: ${placement.remark}`);
  return placement.exchangeOrderNumber;
}

describe("the order status report (OrderStatus) against the double", () => {
  it("reports VALID orders ACCEPTED and INVALID ones REJECTED with the remark (PAN masked) and its failure code; unknown ids are not reported", async () => {
    const valid = order();
    const invalid = order();
    const validNo = await placed(valid);
    const invalidNo = await placed(invalid);
    double.reports.invalidate(invalidNo, "PAYMENT NOT RECEIVED TILL DATE FOR ABCDE1234F");

    const reports = await exchange().orderStatus([valid.orderId, invalid.orderId, newId("ord")]);
    expect(reports.sort((a, b) => a.orderId.localeCompare(b.orderId))).toEqual(
      [
        { orderId: valid.orderId, status: "ACCEPTED", exchangeOrderNumber: validNo, remark: "ORDER CONFIRMED" },
        { orderId: invalid.orderId, status: "REJECTED", exchangeOrderNumber: null, remark: "PAYMENT NOT RECEIVED TILL DATE FOR ABXXXXX34F" },
      ].sort((a, b) => a.orderId.localeCompare(b.orderId)),
    );
    // One request: the days since the earliest order, every filter open, the login password (no session).
    const request = double.reports.requests.at(-1)!;
    expect(request.operation).toBe("OrderStatus");
    expect(Object.fromEntries(request.values)).toEqual({
      ClientCode: "", Filler1: "", Filler2: "", Filler3: "", FromDate: ddmmyyyy(today()), MemberCode: "10234", OrderNo: "", OrderStatus: "All",
      OrderType: "All", Password: double.credentials.password, SettType: "ALL", SubOrderType: "All", ToDate: ddmmyyyy(today()), TransType: "", UserId: "1023401",
    });
  });

  it("asks nothing when no order of the batch is at the exchange", async () => {
    const calls = double.calls.length;
    expect(await exchange().orderStatus([newId("ord")])).toEqual([]);
    expect(double.calls.length).toBe(calls);
  });

  it("a refusal of the report (wrong password) is unavailable with the exchange's text, so the sync retries", async () => {
    const entry = order();
    await placed(entry);
    const error = await exchange({ password: "Wrong@123" }).orderStatus([entry.orderId]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as Error).message).toBe("BSE OrderStatus: FAILED:INVALID ACCOUNT INFORMATION");
  });
});

describe("the allotment and redemption statements against the double", () => {
  it("maps allotment rows (purchases) and redemption rows to exact NAV (4 dp), units (3 dp) and amount, with folio and report date", async () => {
    const buy = order();
    const sell = redemption();
    const rejected = order();
    const pending = order();
    const buyNo = await placed(buy);
    const sellNo = await placed(sell);
    const rejectedNo = await placed(rejected);
    await placed(pending);
    double.reports.allot(buyNo, { nav: "12.3456", units: "404.998", amount: "4999.99", folioNo: "1234567/89", reportDate: "2026-01-02" });
    double.reports.allot(sellNo, { nav: "10.5", units: "100", amount: "1050.00", folioNo: "F1" });
    double.reports.allot(rejectedNo, { nav: "0", units: "0", amount: "0", folioNo: "", valid: false, remark: "REJECTED: KYC NOT VALID FOR ABCDE1234F" });

    const rows = await exchange().allotments([buy.orderId, sell.orderId, rejected.orderId, pending.orderId]);
    const byOrder = new Map(rows.map((r) => [r.orderId, r]));
    expect(rows).toHaveLength(3);
    expect(byOrder.get(buy.orderId)).toEqual({
      orderId: buy.orderId, exchangeOrderNumber: buyNo, folioNo: "1234567/89", schemeCode: "02-DP", nav: "12.3456", units: "404.998", amount: "4999.99",
      allotmentDate: "2026-01-02", valid: true, remark: "ALLOTTED",
    });
    expect(byOrder.get(sell.orderId)).toEqual({
      orderId: sell.orderId, exchangeOrderNumber: sellNo, folioNo: "F1", schemeCode: "02-DP", nav: "10.5000", units: "100.000", amount: "1050.00",
      allotmentDate: today(), valid: true, remark: "REDEEMED",
    });
    expect(byOrder.get(rejected.orderId)).toMatchObject({ valid: false, remark: "REJECTED: KYC NOT VALID FOR ABXXXXX34F" });
    expect(double.reports.requests.slice(-2).map((r) => r.operation).sort()).toEqual(["AllotmentStatement", "RedemptionStatement"]);
  });

  it("reads the report's numbers as exact decimals and its dates in any of the forms seen", () => {
    expect(exactDecimal("op", "nav", "10.12345", 4)).toBe("10.12345");
    expect(exactDecimal("op", "units", "7", 3)).toBe("7.000");
    expect(() => exactDecimal("op", "nav", "1e3", 4)).toThrow(ExchangeUnavailableError);
    expect(() => exactDecimal("op", "nav", "", 4)).toThrow("BSE op: nav is not a decimal");
    expect(["2026-01-02", "20260102", "02/01/2026", "02/01/2026 00:00:00"].map((d) => isoDate("op", d))).toEqual(Array(4).fill("2026-01-02"));
    expect(() => isoDate("op", "Jan 2 2026")).toThrow(ExchangeUnavailableError);
  });

  it("a 101 saying there are no records is an empty report; any other 101 or status is unavailable", () => {
    expect(reportRows("allotment", { Status: "101", Message: "NO RECORDS FOUND" })).toEqual([]);
    expect(() => reportRows("allotment", { Status: "101", Message: "FAILED: INVALID FROM DATE" })).toThrow("BSE AllotmentStatement: FAILED: INVALID FROM DATE");
    expect(() => reportRows("allotment", { Status: "" })).toThrow(ExchangeUnavailableError);
    expect(reportRows("orderStatus", { Status: "100", OrderDetails: { OrderDetails: { OrderNumber: " 1 " } } })).toEqual([{ OrderNumber: "1" }]);
  });
});

describe("the safe retry: an order sent without an answer is looked up in the order status report", () => {
  it("the exchange accepted it and the answer was lost: the retry finds it, one exchange order, and the report's word is recorded", async () => {
    const entry = order();
    double.failNext("orderEntryParam", "timeout");
    await expect(exchange({ timeoutMs: 300 }).placeOrder(entry)).rejects.toBeInstanceOf(ExchangeUnavailableError);
    const calls = orderCalls();
    const retry = await exchange().placeOrder(entry);
    const booked = double.orderEntry.orders.filter((o) => o.transNo === retry.exchangeOrderNumber || o.orderNo === retry.exchangeOrderNumber);
    expect(retry).toEqual({ status: "ACCEPTED", exchangeOrderNumber: booked[0]!.orderNo, remark: "ORDER CONFIRMED" });
    expect(orderCalls()).toBe(calls);
    expect((await refsOf(entry.orderId)).map((r) => [r.outcome, r.exchangeOrderNumber])).toEqual([["ACCEPTED", booked[0]!.orderNo]]);
    // The third time needs no report: the recorded answer.
    const reportCalls = double.reports.requests.length;
    expect(await exchange().placeOrder(entry)).toEqual(retry);
    expect(double.reports.requests.length).toBe(reportCalls);
  });

  it("not in the report yet (it lags): held PENDING within the window; the status sync's report finds it later", async () => {
    const entry = order();
    double.failNext("orderEntryParam", "timeout");
    await expect(exchange({ timeoutMs: 300 }).placeOrder(entry)).rejects.toBeInstanceOf(ExchangeUnavailableError);
    const [ref] = await refsOf(entry.orderId);
    const booked = double.orderEntry.orders.find((o) => o.transNo === ref!.transNo)!;
    double.reports.hide(booked.orderNo);
    expect((await exchange().placeOrder(entry)).status).toBe("PENDING");
    double.reports.show(booked.orderNo);
    expect(await exchange().orderStatus([entry.orderId])).toEqual([{ orderId: entry.orderId, status: "ACCEPTED", exchangeOrderNumber: booked.orderNo, remark: "ORDER CONFIRMED" }]);
    expect((await refsOf(entry.orderId)).map((r) => r.outcome)).toEqual(["ACCEPTED"]);
  });

  it("never received (it failed before the exchange ran it): after the window, NOT_PLACED and sent again under a new TransNo, one exchange order", async () => {
    const entry = order();
    double.failNext("orderEntryParam", "timeout-before");
    await expect(exchange({ timeoutMs: 300 }).placeOrder(entry)).rejects.toBeInstanceOf(ExchangeUnavailableError);
    const [first] = await refsOf(entry.orderId);
    expect(double.orderEntry.orders.some((o) => o.transNo === first!.transNo)).toBe(false);

    const justBefore = () => first!.sentAt.getTime() + REPORT_LAG_MS - 1;
    expect((await exchange({}, justBefore).placeOrder(entry)).status).toBe("PENDING");
    const after = () => first!.sentAt.getTime() + REPORT_LAG_MS;
    const placement = await exchange({}, after).placeOrder(entry);
    expect(placement.status).toBe("ACCEPTED");
    const refs = await refsOf(entry.orderId);
    expect(refs.map((r) => [r.outcome, r.remark?.replace(/\d+ MINUTES/, "N MINUTES") ?? null])).toEqual([
      ["NOT_PLACED", "NOT IN THE ORDER STATUS REPORT N MINUTES AFTER IT WAS SENT"],
      ["ACCEPTED", expect.stringMatching(/^ORD CONF/)],
    ]);
    expect(double.orderEntry.orders.filter((o) => refs.some((r) => r.transNo === o.transNo))).toHaveLength(1);
  });
});
