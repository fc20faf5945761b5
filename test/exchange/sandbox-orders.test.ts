import { describe, expect, it } from "vitest";
import { ExchangeUnavailableError, type OrderEntry } from "../../src/integrations/exchange/port.js";
import { SandboxExchange } from "../../src/integrations/exchange/sandbox/sandbox-exchange.js";
import { newId } from "../../src/platform/lib/ids.js";
import { useTestApp } from "../helpers/app.js";

const app = useTestApp();

const order = (remarks: string | null = null): OrderEntry => ({
  orderId: newId("ord"),
  clientCode: "MFTEST0001",
  orderType: "LUMPSUM_PURCHASE",
  schemeCode: "119551",
  toSchemeCode: null,
  purchaseType: "FRESH",
  amount: "5000.00",
  units: null,
  allUnits: false,
  folioNo: null,
  mandateId: null,
  euin: null,
  euinDeclared: true,
  remarks,
  holdingMode: "PHYSICAL",
  subBrokerArn: null,
  payoutAccountNumber: null,
});

describe("the sandbox exchange's order entry (for the orders domain)", () => {
  const exchange = () => new SandboxExchange(app.prisma, { autoRegister: false });

  it("accepts a valid order once: a repeated placement of the same order id gets the same answer", async () => {
    const entry = order();
    const first = await exchange().placeOrder(entry);
    expect(first).toEqual({ status: "ACCEPTED", exchangeOrderNumber: expect.stringMatching(/^SBX/), remark: "ORDER CONFIRMED" });
    expect(await exchange().placeOrder(entry)).toEqual(first);
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { kind: "ORDER", reference: entry.orderId } })).toBe(1);
    expect(await exchange().orderStatus([entry.orderId])).toEqual([
      { orderId: entry.orderId, status: "ACCEPTED", exchangeOrderNumber: first.exchangeOrderNumber, remark: "ORDER CONFIRMED" },
    ]);
  });

  it("honours SIM:REJECT, SIM:HOLD and SIM:FAIL in remarks", async () => {
    expect(await exchange().placeOrder(order("please SIM:REJECT"))).toEqual({
      status: "REJECTED",
      exchangeOrderNumber: null,
      remark: "SANDBOX: ORDER REJECTED (SIM:REJECT)",
    });
    expect((await exchange().placeOrder(order("SIM:HOLD"))).status).toBe("PENDING");
    const failing = order("SIM:FAIL");
    await expect(exchange().placeOrder(failing)).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { reference: failing.orderId } })).toBe(0);
  });

  it("cancels an accepted registration (not a one-time order), reports allotments the simulation recorded, and books payments once", async () => {
    const registration = { ...order(), orderType: "SIP" as const };
    await exchange().placeOrder(registration);
    expect(await exchange().cancelOrder(registration.orderId)).toEqual({ cancelled: true });
    expect(await exchange().cancelOrder(registration.orderId)).toEqual({ cancelled: true });
    const oneTime = order();
    await exchange().placeOrder(oneTime);
    expect(await exchange().cancelOrder(oneTime.orderId)).toEqual({ cancelled: false, remark: "THE EXCHANGE DOES NOT CANCEL ORDERS OF THIS TYPE" });
    expect(await exchange().cancelOrder(newId("ord"))).toEqual({ cancelled: false, remark: "ORDER NOT FOUND" });
    const failing = order("SIM:FAIL");
    await expect(exchange().placeOrder(failing)).rejects.toMatchObject({ notPlaced: true });

    const allotted = order();
    await exchange().placeOrder(allotted);
    const allotment = { folioNo: "SIM/123", schemeCode: "119551", nav: "12.3456", units: "405.000", amount: "5000.00", allotmentDate: "2026-11-20", valid: true, remark: null };
    await app.prisma.sandboxExchangeRecord.update({
      where: { kind_reference: { kind: "ORDER", reference: allotted.orderId } },
      data: { status: "ALLOTTED", payload: { allotment } },
    });
    expect(await exchange().allotments([allotted.orderId, registration.orderId])).toEqual([
      { ...allotment, orderId: allotted.orderId, exchangeOrderNumber: expect.stringMatching(/^SBX/) },
    ]);

    const payment = { paymentId: newId("pay"), clientCode: "MFTEST0001", orderIds: [allotted.orderId], amount: "5000.00", mode: "UPI" as const, mandateId: null, vpa: "asha@okbank", bankAccount: { accountNumber: "50100012345678", ifsc: "HDFC0000001" }, returnUrl: null };
    const first = await exchange().createPayment(payment);
    expect(first.status).toBe("PENDING");
    expect(await exchange().createPayment(payment)).toEqual(first);
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { kind: "PAYMENT", reference: payment.paymentId } })).toBe(1);
    // The books never keep the investor's address or account.
    const booked = JSON.stringify((await app.prisma.sandboxExchangeRecord.findFirstOrThrow({ where: { kind: "PAYMENT", reference: payment.paymentId } })).payload);
    expect(booked).not.toContain("asha@okbank");
    expect(booked).not.toContain("50100012345678");
  });
});
