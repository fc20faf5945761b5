import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import type { Db } from "../../../src/platform/db/client.js";
import type { BseConfig } from "../../../src/integrations/exchange/bse/bse-config.js";
import { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import { orderEntryParams, readOrderEntryAnswer } from "../../../src/integrations/exchange/bse/order-entry.js";
import { readPlanAnswer } from "../../../src/integrations/exchange/bse/plan-entry.js";
import { BseSessionError } from "../../../src/integrations/exchange/bse/sessions.js";
import { readSwitchAnswer } from "../../../src/integrations/exchange/bse/switch-entry.js";
import { ORDER_ENTRY_SERVICE } from "../../../src/integrations/exchange/bse/soap.js";
import { BseTransport } from "../../../src/integrations/exchange/bse/transport.js";
import { ExchangeUnavailableError, type OrderEntry } from "../../../src/integrations/exchange/port.js";
import { newId } from "../../../src/platform/lib/ids.js";
import type { BseDouble } from "../../helpers/bse-double/double.js";
import { doubleConfig, useBseAdapterWorld } from "../../helpers/bse-double/adapter-world.js";
import { startBseDouble } from "../../helpers/bse-double/double.js";
import { capturingLogger } from "../../helpers/logs.js";

let prisma: Db;
let double: BseDouble;

useBseAdapterWorld((world) => {
  ({ prisma, double } = world);
});

const config = (overrides: Partial<BseConfig> = {}) => doubleConfig(double, overrides);
const exchange = (overrides: Partial<BseConfig> = {}) => new BseExchange(prisma, config(overrides), capturingLogger().logger);

const order = (fields: Partial<OrderEntry> = {}): OrderEntry => ({
  orderId: newId("ord"), clientCode: "UCC0001", orderType: "LUMPSUM_PURCHASE", schemeCode: "02-DP", toSchemeCode: null, purchaseType: "FRESH",
  amount: "5000.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: true, remarks: null,
  holdingMode: "PHYSICAL", subBrokerArn: null, payoutAccountNumber: null, ...fields,
});

const refsOf = (orderId: string) =>
  prisma.bseOrderRef.findMany({ where: { orderId }, orderBy: { transNo: "asc" }, select: { transNo: true, outcome: true, exchangeOrderNumber: true, remark: true } });
const booked = (transNo: string) => double.orderEntry.orders.filter((o) => o.transNo === transNo);
const sent = (field: string, transNo: string) => booked(transNo)[0]!.values.get(field);

describe("BSE order entry (orderEntryParam) against the double", () => {
  it("places a fresh lump sum purchase: ACCEPTED with the exchange's order number, the TransNo and answer recorded", async () => {
    const entry = order({ euin: "E123456", euinDeclared: false, subBrokerArn: "ARN-99999", remarks: "first buy" });
    const placement = await exchange().placeOrder(entry);
    expect(placement).toEqual({ status: "ACCEPTED", exchangeOrderNumber: expect.stringMatching(/^\d+$/), remark: expect.stringMatching(/^ORD CONF: Your Request for FRESH PURCHASE 5000.00/) });
    const [ref] = await refsOf(entry.orderId);
    expect(ref).toEqual({ transNo: expect.stringMatching(/^\d{8}10234\d{6}$/), outcome: "ACCEPTED", exchangeOrderNumber: placement.exchangeOrderNumber, remark: placement.remark });
    const values = Object.fromEntries(booked(ref!.transNo)[0]!.values);
    expect(values).toMatchObject({
      TransCode: "NEW", OrderId: "", UserID: "1023401", MemberId: "10234", ClientCode: "UCC0001", SchemeCd: "02-DP", BuySell: "P", BuySellType: "FRESH",
      DPTxn: "P", OrderVal: "5000.00", Qty: "", AllRedeem: "N", FolioNo: "", Remarks: "first buy", KYCStatus: "Y", RefNo: ref!.transNo.slice(4, 8) + ref!.transNo.slice(-6), EUIN: "E123456",
      EUINVal: "N", MinRedeem: "N", DPC: "Y", Parma1: "ARN-99999", Param2: "", Param3: "",
    });
  });

  it("an additional purchase into a physical folio, a SIP top-up as ADDITIONAL, and BSE_EUIN when the order names none", async () => {
    const additional = order({ purchaseType: "ADDITIONAL", folioNo: "123456/78" });
    await exchange().placeOrder(additional);
    const [a] = await refsOf(additional.orderId);
    expect([sent("BuySellType", a!.transNo), sent("FolioNo", a!.transNo)]).toEqual(["ADDITIONAL", "123456/78"]);

    const topUp = order({ orderType: "SIP_TOPUP", purchaseType: null, folioNo: "123456/78", euinDeclared: false });
    expect((await exchange({ euin: "E654321" }).placeOrder(topUp)).status).toBe("ACCEPTED");
    const [t] = await refsOf(topUp.orderId);
    expect([sent("BuySell", t!.transNo), sent("BuySellType", t!.transNo), sent("EUIN", t!.transNo), sent("EUINVal", t!.transNo)]).toEqual(["P", "ADDITIONAL", "E654321", "N"]);
  });

  it("redeems by units, by amount and all units, paying into the investor's account; demat orders send no folio", async () => {
    const cases = [
      [order({ orderType: "REDEMPTION", purchaseType: null, amount: null, units: "100.000", folioNo: "F1", payoutAccountNumber: "50100012345678" }), { OrderVal: "", Qty: "100.000", AllRedeem: "N", FolioNo: "F1", DPTxn: "P" }],
      [order({ orderType: "REDEMPTION", purchaseType: null, amount: "2500.00", folioNo: "F1", payoutAccountNumber: "50100012345678" }), { OrderVal: "2500.00", Qty: "", AllRedeem: "N" }],
      [order({ orderType: "REDEMPTION", purchaseType: null, amount: null, allUnits: true, holdingMode: "CDSL", folioNo: "F1", payoutAccountNumber: "50100012345678" }), { OrderVal: "", Qty: "", AllRedeem: "Y", FolioNo: "", DPTxn: "C" }],
    ] as const;
    for (const [entry, expected] of cases) {
      expect((await exchange().placeOrder(entry)).status).toBe("ACCEPTED");
      const [ref] = await refsOf(entry.orderId);
      expect(Object.fromEntries(booked(ref!.transNo)[0]!.values)).toMatchObject({ BuySell: "R", BuySellType: "FRESH", Param3: "50100012345678", ...expected });
    }
  });

  it("a redemption with no account to pay into is REJECTED (payout_account_invalid) before anything is sent: Param3 is mandatory for redemptions", async () => {
    const calls = double.calls.filter((c) => c.operation === "orderEntryParam").length;
    const entry = order({ orderType: "REDEMPTION", purchaseType: null, amount: null, units: "10.000", folioNo: "F1", payoutAccountNumber: null });
    expect(await exchange().placeOrder(entry)).toEqual({
      status: "REJECTED", exchangeOrderNumber: null, remark: "THE INVESTOR HAS NO BANK ACCOUNT FOR THE PAYOUT", failureCode: "payout_account_invalid",
    });
    expect(double.calls.filter((c) => c.operation === "orderEntryParam").length).toBe(calls);
    expect(await refsOf(entry.orderId)).toEqual([]);
  });

  it("the TransNo's day is the adapter's clock's day in India, the one its record's sent_at is taken from", async () => {
    // 23:50 in India on 2026-03-14 (18:20 UTC); the double's "today" is that day.
    const at = Date.parse("2026-03-14T18:20:00Z");
    const dated = await startBseDouble({ today: () => "2026-03-14" });
    try {
      const entry = order();
      const bse = new BseExchange(prisma, doubleConfig(dated), capturingLogger().logger, { now: () => at });
      expect((await bse.placeOrder(entry)).status).toBe("ACCEPTED");
      const [ref] = await prisma.bseOrderRef.findMany({ where: { orderId: entry.orderId } });
      expect(ref!.transNo.slice(0, 13)).toBe("2026031410234");
      expect(ref!.sentAt.toISOString()).toBe("2026-03-14T18:20:00.000Z");
    } finally {
      await dated.close();
    }
  });

  it("an answer too short to read that names a session refusal logs in again, on every order message; any other is unavailable", () => {
    const transNo = "2026031410234000001";
    const readers: Array<(result: string) => unknown> = [
      (result) => readOrderEntryAnswer(result, transNo),
      (result) => readSwitchAnswer(result, transNo),
      (result) => readPlanAnswer("xsipOrderEntryParam", result, transNo, false),
    ];
    for (const read of readers) {
      for (const [result, message] of [["101|INVALID ENCRYPTED PASSWORD", "INVALID ENCRYPTED PASSWORD"], [" PASSWORD EXPIRED ", "PASSWORD EXPIRED"]] as const) {
        const error = (() => { try { return read(result); } catch (e) { return e; } })();
        expect(error).toBeInstanceOf(BseSessionError);
        expect((error as BseSessionError).exchangeMessage).toBe(message);
      }
      expect(() => read("101|SOMETHING ELSE")).toThrow(ExchangeUnavailableError);
    }
  });

  it("a rejection keeps the exchange's remark (PAN masked) and maps it to a failure code", async () => {
    double.orderEntry.rejectNext("FAILED: INVALID CLIENT CODE FOR PAN ABCDE1234F");
    const entry = order();
    expect(await exchange().placeOrder(entry)).toEqual({
      status: "REJECTED", exchangeOrderNumber: null, remark: "FAILED: INVALID CLIENT CODE FOR PAN ABXXXXX34F", failureCode: "client_not_registered",
    });
    double.orderEntry.rejectNext("FAILED: SCHEME NOT AVAILABLE FOR PURCHASE");
    expect(await exchange().placeOrder(order())).toMatchObject({ status: "REJECTED", remark: "FAILED: SCHEME NOT AVAILABLE FOR PURCHASE", failureCode: "exchange_rejected" });
    expect(await refsOf(entry.orderId)).toEqual([expect.objectContaining({ outcome: "REJECTED", remark: "FAILED: INVALID CLIENT CODE FOR PAN ABXXXXX34F" })]);
  });

  it("the double checks lengths and values the way the exchange does: a too-long client code is rejected", async () => {
    expect(await exchange().placeOrder(order({ clientCode: "C".repeat(21) }))).toMatchObject({ status: "REJECTED", remark: "FAILED: CLIENTCODE EXCEEDS 20 CHARACTERS" });
  });

  it("a repeated placement of the same order answers the recorded answer without calling the exchange", async () => {
    const entry = order();
    const first = await exchange().placeOrder(entry);
    const calls = double.calls.length;
    expect(await exchange().placeOrder(entry)).toEqual(first);
    expect(double.calls.length).toBe(calls);
  });

  it("a session that expires mid-call is renewed once and the order sent again under a new TransNo", async () => {
    const bse = exchange();
    await bse.placeOrder(order());
    const logins = double.sessions.logins.order;
    double.failNext("orderEntryParam", "expire-session");
    const entry = order();
    expect((await bse.placeOrder(entry)).status).toBe("ACCEPTED");
    expect(double.sessions.logins.order).toBe(logins + 1);
    const refs = await refsOf(entry.orderId);
    expect(refs.map((r) => r.outcome)).toEqual(["NOT_PLACED", "ACCEPTED"]);
    expect(double.orderEntry.orders.filter((o) => refs.some((r) => r.transNo === o.transNo))).toHaveLength(1);
  });

  it.each(["timeout", "malformed", "http-503"] as const)(
    "%s: unavailable (jobs retry); the retry looks the TransNo up in the order status report before sending anything",
    async (outcome) => {
      const entry = order();
      double.failNext("orderEntryParam", outcome);
      const error = await exchange({ timeoutMs: 300 }).placeOrder(entry).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExchangeUnavailableError);
      const [ref] = await refsOf(entry.orderId);
      expect(ref!.outcome).toBeNull();
      const orderCalls = () => double.calls.filter((c) => c.operation === "orderEntryParam").length;
      const calls = orderCalls();
      const retry = await exchange().placeOrder(entry);
      expect(orderCalls()).toBe(calls);
      expect(double.calls.at(-1)!.operation).toBe("OrderStatus");
      if (outcome === "http-503") {
        // The exchange never ran it, but the report may lag: held, nothing sent again yet.
        expect(retry).toEqual({ status: "PENDING", exchangeOrderNumber: null, remark: `SENT AS ${ref!.transNo} WITHOUT AN ANSWER; AWAITING THE EXCHANGE'S ORDER STATUS REPORT` });
        expect(await refsOf(entry.orderId)).toHaveLength(1);
      } else {
        expect(retry).toEqual({ status: "ACCEPTED", exchangeOrderNumber: booked(ref!.transNo)[0]!.orderNo, remark: "ORDER CONFIRMED" });
        expect(await refsOf(entry.orderId)).toEqual([expect.objectContaining({ outcome: "ACCEPTED", exchangeOrderNumber: booked(ref!.transNo)[0]!.orderNo })]);
      }
    },
  );

  it("a request never delivered (connection refused) is NOT_PLACED, and the retry places it under a new TransNo", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port: p } = server.address() as { port: number };
        server.close(() => resolve(p));
      });
    });
    const entry = order();
    await expect(exchange({ baseUrl: `http://127.0.0.1:${port}` }).placeOrder(entry)).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect((await refsOf(entry.orderId)).map((r) => r.outcome)).toEqual([]); // the login never got through either
    expect((await exchange().placeOrder(entry)).status).toBe("ACCEPTED");
    expect((await refsOf(entry.orderId)).map((r) => r.outcome)).toEqual(["ACCEPTED"]);
  });

  it("never sends a TransNo twice (its record is written first), and the double refuses a repeated one as the exchange would", async () => {
    const first = order();
    await exchange().placeOrder(first);
    const [ref] = await refsOf(first.orderId);
    // The counter lost (restored from an old backup): the next TransNo repeats, and is refused before it is sent.
    await prisma.bseTransNoCounter.update({ where: { day: ref!.transNo.slice(0, 8) }, data: { n: Number(ref!.transNo.slice(-6)) - 1 } });
    const orderCalls = () => double.calls.filter((c) => c.operation === "orderEntryParam").length;
    const calls = orderCalls();
    await expect(exchange().placeOrder(order())).rejects.toThrow(/Unique constraint failed/);
    expect(orderCalls()).toBe(calls);

    // Sent anyway (straight through the transport), the exchange refuses it: flag 1, nothing placed.
    const bse = exchange();
    const session = await bse.sessions.session("order");
    const transport = new BseTransport({ baseUrl: double.baseUrl, timeoutMs: 2000, log: capturingLogger().logger });
    const params = orderEntryParams({ ...order(), orderType: "LUMPSUM_PURCHASE" }, ref!.transNo, { userId: "1023401", memberId: "10234", defaultEuin: undefined }, session);
    const placed = double.orderEntry.orders.length;
    expect(await transport.soap(ORDER_ENTRY_SERVICE, "orderEntryParam", params)).toBe(
      `NEW|${ref!.transNo}|0|1023401|10234|UCC0001|FAILED: DUPLICATE TRANSACTION NUMBER|1`,
    );
    expect(double.orderEntry.orders.length).toBe(placed);
  });

  it("refuses a lump sum's CXL (and MOD): the exchange no longer cancels or modifies one-time orders", async () => {
    const entry = order();
    const placement = await exchange().placeOrder(entry);
    const bse = exchange();
    const session = await bse.sessions.session("order");
    const transport = new BseTransport({ baseUrl: double.baseUrl, timeoutMs: 2000, log: capturingLogger().logger });
    const [ref] = await refsOf(entry.orderId);
    for (const code of ["CXL", "MOD"]) {
      const transNo = `${ref!.transNo.slice(0, 13)}9${code === "CXL" ? "00001" : "00002"}`;
      const params = orderEntryParams({ ...entry, orderType: "LUMPSUM_PURCHASE" }, transNo, { userId: "1023401", memberId: "10234", defaultEuin: undefined }, session).map(
        ([name, value]) => [name, name === "TransCode" ? code : name === "OrderId" ? placement.exchangeOrderNumber : value] as const,
      );
      expect(await transport.soap(ORDER_ENTRY_SERVICE, "orderEntryParam", params)).toBe(
        `${code}|${transNo}|${placement.exchangeOrderNumber}|1023401|10234|UCC0001|FAILED: ORDER ${code === "CXL" ? "CANCELLATION" : "MODIFICATION"} NOT ALLOWED|1`,
      );
    }
    expect(double.orderEntry.orders.filter((o) => o.clientCode === "UCC0001" && o.transNo === ref!.transNo)).toHaveLength(1);
  });
});
