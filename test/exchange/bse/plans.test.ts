import { describe, expect, it } from "vitest";
import type { Db } from "../../../src/platform/db/client.js";
import type { BseConfig } from "../../../src/integrations/exchange/bse/bse-config.js";
import { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import { firstInstallmentDate } from "../../../src/integrations/exchange/bse/plan-entry.js";
import { readSwitchAnswer } from "../../../src/integrations/exchange/bse/switch-entry.js";
import { ExchangeUnavailableError, type OrderEntry } from "../../../src/integrations/exchange/port.js";
import { newId } from "../../../src/platform/lib/ids.js";
import type { BseDouble } from "../../helpers/bse-double/double.js";
import { doubleConfig, useBseAdapterWorld } from "../../helpers/bse-double/adapter-world.js";
import { capturingLogger } from "../../helpers/logs.js";

let prisma: Db;
let double: BseDouble;

useBseAdapterWorld((world) => {
  ({ prisma, double } = world);
});

const exchange = (overrides: Partial<BseConfig> = {}, options: ConstructorParameters<typeof BseExchange>[3] = {}) =>
  new BseExchange(
    prisma,
    doubleConfig(double, overrides),
    capturingLogger().logger,
    options,
  );

const base = (fields: Partial<OrderEntry>): OrderEntry => ({
  orderId: newId("ord"), clientCode: "UCC0001", orderType: "LUMPSUM_PURCHASE", schemeCode: "02-DP", toSchemeCode: null, purchaseType: null,
  amount: null, units: null, allUnits: false, folioNo: "F1", mandateId: null, euin: null, euinDeclared: true, remarks: null,
  holdingMode: "PHYSICAL", subBrokerArn: null, payoutAccountNumber: null, ...fields,
});
const sip = (fields: Partial<OrderEntry> = {}) =>
  base({ orderType: "SIP", amount: "5000.00", folioNo: null, plan: { frequency: "MONTHLY", startDate: "2026-03-20", installments: 12, installmentDay: 5 }, ...fields });
const refsOf = (orderId: string) => prisma.bseOrderRef.findMany({ where: { orderId }, orderBy: { sentAt: "asc" } });
const lastCall = (operation: string) => Object.fromEntries(double.calls.filter((c) => c.operation === operation).at(-1)!.params);

describe("switch (switchOrderEntryParam) against the double", () => {
  it("switches an amount: ACCEPTED with the switch-out order, the switch-in order kept; status by the SO order, allotment from the SI order's row", async () => {
    const entry = base({ orderType: "SWITCH", toSchemeCode: "03-GR", amount: "2500.00", euin: "E123456", euinDeclared: false, subBrokerArn: "ARN-1" });
    const placement = await exchange().placeOrder(entry);
    const [ref] = await refsOf(entry.orderId);
    const [out, into] = double.orderEntry.orders.filter((o) => o.transNo === ref!.transNo);
    expect(placement).toEqual({ status: "ACCEPTED", exchangeOrderNumber: out!.orderNo, remark: `SWITCH ORDER CONFIRMED: SO ORDER NO ${out!.orderNo} SI ORDER NO ${into!.orderNo}` });
    expect(ref).toMatchObject({ kind: "SWITCH", outcome: "ACCEPTED", exchangeOrderNumber: out!.orderNo, secondOrderNumber: into!.orderNo });
    expect(lastCall("switchOrderEntryParam")).toEqual({
      TransCode: "NEW", TransNo: ref!.transNo, OrderId: "", UserId: "1023401", MemberId: "10234", ClientCode: "UCC0001", FromSchemeCd: "02-DP", ToSchemeCd: "03-GR",
      BuySell: "SO", BuySellType: "FRESH", DPTxn: "P", OrderVal: "2500.00", SwitchUnits: "", AllUnitsFlag: "N", FolioNo: "F1", Remarks: "", KYCStatus: "Y",
      SubBrCode: "", EUIN: "E123456", EUINVal: "N", MinRedeem: "N", IPAdd: "", Password: expect.any(String), PassKey: expect.stringMatching(/^[A-Za-z0-9]{10}$/),
      Parma1: "ARN-1", Param2: "", Param3: "", Filler1: "", Filler2: "", Filler3: "", Filler4: "", Filler5: "", Filler6: "",
    });

    expect(await exchange().orderStatus([entry.orderId])).toEqual([{ orderId: entry.orderId, status: "ACCEPTED", exchangeOrderNumber: out!.orderNo, remark: "ORDER CONFIRMED" }]);
    double.reports.allot(into!.orderNo, { nav: "25.1", units: "99.601", amount: "2500.00", folioNo: "F1" });
    expect(await exchange().allotments([entry.orderId])).toEqual([
      { orderId: entry.orderId, exchangeOrderNumber: out!.orderNo, folioNo: "F1", schemeCode: "03-GR", nav: "25.1000", units: "99.601", amount: "2500.00", allotmentDate: expect.any(String), valid: true, remark: "ALLOTTED" },
    ]);
  });

  it("switches all units of a demat holding: AllUnitsFlag Y, no amount, units or folio", async () => {
    const entry = base({ orderType: "SWITCH", toSchemeCode: "03-GR", allUnits: true, holdingMode: "NSDL" });
    expect((await exchange().placeOrder(entry)).status).toBe("ACCEPTED");
    expect(lastCall("switchOrderEntryParam")).toMatchObject({ DPTxn: "N", OrderVal: "", SwitchUnits: "", AllUnitsFlag: "Y", FolioNo: "" });
  });

  it("reads the switch answer whichever order the flag and the remark come in (open point 3)", () => {
    expect(readSwitchAnswer("NEW|T1|101|1|10234|C1|0|OK: DONE|102", "T1")).toEqual({ status: "ACCEPTED", exchangeOrderNumber: "101", remark: "OK: DONE", secondOrderNumber: "102" });
    expect(readSwitchAnswer("NEW|T1|0|1|10234|C1|FAILED: A|B|1|", "T1")).toMatchObject({ status: "REJECTED", remark: "FAILED: A|B", exchangeOrderNumber: null });
    expect(() => readSwitchAnswer("NEW|T1|101|1|10234|C1|0|OK", "T1")).toThrow(ExchangeUnavailableError);
  });
});

describe("SIP and XSIP registrations and their cancellation against the double", () => {
  it("registers a SIP: every element in order, the first installment date, whole rupees; ACCEPTED with the registration number", async () => {
    const entry = sip({ subBrokerArn: "ARN-1" });
    const placement = await exchange().placeOrder(entry);
    const registration = double.plans.registrations.at(-1)!;
    expect(placement).toEqual({ status: "ACCEPTED", exchangeOrderNumber: registration.regNo, remark: "SIP REGISTRATION DONE SUCCESSFULLY" });
    const [ref] = await refsOf(entry.orderId);
    expect(ref).toMatchObject({ kind: "SIP", outcome: "ACCEPTED", exchangeOrderNumber: registration.regNo });
    expect(lastCall("sipOrderEntryParam")).toEqual({
      TransactionCode: "NEW", UniqueRefNo: ref!.transNo, SchemeCode: "02-DP", MemberCode: "10234", ClientCode: "UCC0001", UserID: "1023401",
      InternalRefNo: ref!.transNo.slice(4, 8) + ref!.transNo.slice(-6), TransMode: "P", DpTxnMode: "P", StartDate: "05/04/2026", FrequencyType: "MONTHLY",
      FrequencyAllowed: "1", InstallmentAmount: "5000", NoOfInstallment: "12", Remarks: "", FolioNo: "", FirstOrderFlag: "N", SubberCode: "", Euin: "",
      EuinVal: "Y", DPC: "Y", RegId: "", IPAdd: "", Password: expect.any(String), PassKey: expect.any(String), Param1: "ARN-1", Param2: "", Param3: "",
      Filler1: "", Filler2: "", Filler3: "", Filler4: "", Filler5: "", Filler6: "",
    });
    // A registration is not an order of the reports: nothing is asked for it.
    const calls = double.calls.length;
    expect(await exchange().orderStatus([entry.orderId])).toEqual([]);
    expect(await exchange().allotments([entry.orderId])).toEqual([]);
    expect(double.calls.length).toBe(calls);
  });

  it("cancels a SIP (CXL repeating the registration, naming its number) once; a second cancel sends nothing", async () => {
    const entry = sip();
    const { exchangeOrderNumber: regNo } = await exchange().placeOrder(entry);
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: true });
    const cxl = lastCall("sipOrderEntryParam");
    expect(cxl).toMatchObject({ TransactionCode: "CXL", RegId: regNo, SchemeCode: "02-DP", ClientCode: "UCC0001", InstallmentAmount: "5000", NoOfInstallment: "12", StartDate: "05/04/2026" });
    expect(double.plans.registrations.find((r) => r.regNo === regNo)!.cancelled).toBe(true);
    const refs = await refsOf(entry.orderId);
    expect(refs.map((r) => [r.kind, r.outcome])).toEqual([["SIP", "ACCEPTED"], ["SIP_CANCEL", "ACCEPTED"]]);
    expect(cxl.UniqueRefNo).toBe(refs[1]!.transNo);
    const calls = double.calls.length;
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: true });
    expect(double.calls.length).toBe(calls);
    // The registration's own answer is still what a retried dispatch gets.
    expect(await exchange().placeOrder(entry)).toMatchObject({ status: "ACCEPTED", exchangeOrderNumber: regNo });
  });

  it("registers an XSIP on an XSIP mandate (MandateID) and an ISIP on an ISIP mandate (Param2), and cancels the XSIP", async () => {
    const xsip = sip({ orderType: "XSIP", exchangeMandateId: "123456", plan: { frequency: "WEEKLY", startDate: "2026-03-20", installments: 10, installmentDay: null } });
    expect((await exchange().placeOrder(xsip)).status).toBe("ACCEPTED");
    expect(lastCall("xsipOrderEntryParam")).toMatchObject({ MandateID: "123456", Param2: "", StartDate: "20/03/2026", FrequencyType: "WEEKLY", XsipRegID: "", Brokerage: "" });
    const isip = sip({ orderType: "XSIP", exchangeMandateId: "BSE000000000123" });
    expect((await exchange().placeOrder(isip)).status).toBe("ACCEPTED");
    expect(lastCall("xsipOrderEntryParam")).toMatchObject({ MandateID: "", Param2: "BSE000000000123" });
    expect(await exchange().cancelOrder(xsip.orderId)).toEqual({ cancelled: true });
    expect(lastCall("xsipOrderEntryParam")).toMatchObject({ TransactionCode: "CXL", XsipRegID: (await refsOf(xsip.orderId))[0]!.exchangeOrderNumber, MandateID: "123456" });
  });

  it("refuses without sending what the exchange cannot take: an XSIP without the exchange's mandate id, paise in a SIP installment", async () => {
    const calls = double.calls.length;
    expect(await exchange().placeOrder(sip({ orderType: "XSIP", exchangeMandateId: null }))).toEqual({
      status: "REJECTED", exchangeOrderNumber: null, remark: "THE MANDATE HAS NO EXCHANGE MANDATE ID YET", failureCode: "mandate_invalid",
    });
    expect(await exchange().placeOrder(sip({ amount: "5000.50" }))).toMatchObject({ status: "REJECTED", remark: "THE EXCHANGE TAKES SIP INSTALLMENTS IN WHOLE RUPEES" });
    expect(double.calls.length).toBe(calls);
  });

  it("a cancellation the exchange refuses answers its remark; a lump sum cannot be cancelled at the exchange", async () => {
    const entry = sip();
    const { exchangeOrderNumber: regNo } = await exchange().placeOrder(entry);
    double.plans.registrations.find((r) => r.regNo === regNo)!.clientCode = "SOMEONE";
    expect(await exchange().cancelOrder(entry.orderId)).toEqual({ cancelled: false, remark: "FAILED: INVALID SIP REGISTRATION NUMBER" });
    const lumpSum = base({ amount: "5000.00", purchaseType: "FRESH" });
    await exchange().placeOrder(lumpSum);
    expect(await exchange().cancelOrder(lumpSum.orderId)).toEqual({ cancelled: false, remark: "THE EXCHANGE DOES NOT CANCEL ORDERS OF THIS TYPE" });
    expect(await exchange().cancelOrder(newId("ord"))).toEqual({ cancelled: false, remark: "NOT PLACED AT THE EXCHANGE" });
  });

  it("a registration sent without an answer is never sent again (not in any report): unavailable until reconciled", async () => {
    const entry = sip();
    double.failNext("sipOrderEntryParam", "timeout");
    await expect(exchange({ timeoutMs: 300 }).placeOrder(entry)).rejects.toBeInstanceOf(ExchangeUnavailableError);
    const registrations = double.plans.registrations.length;
    const [ref] = await refsOf(entry.orderId);
    await expect(exchange().placeOrder(entry)).rejects.toThrow(`registration sent to the exchange as ${ref!.transNo} got no answer; it is not sent again until reconciled with the exchange`);
    expect(double.plans.registrations.length).toBe(registrations);
  });

  it("the first installment date: the installment day on or after the start, clamped to the month; weekly plans start on the start date", () => {
    expect(firstInstallmentDate({ frequency: "MONTHLY", startDate: "2026-03-05", installments: 1, installmentDay: 5 })).toBe("05/03/2026");
    expect(firstInstallmentDate({ frequency: "QUARTERLY", startDate: "2026-01-29", installments: 1, installmentDay: 28 })).toBe("28/02/2026");
    expect(firstInstallmentDate({ frequency: "MONTHLY", startDate: "2026-03-20", installments: 1, installmentDay: null })).toBe("20/03/2026");
  });

  it("matches installments to the exchange's child orders of their registration and day, each number once; a lapsed child order session is renewed", async () => {
    const entry = sip({ orderType: "XSIP", exchangeMandateId: "BSE000000000456" });
    const { exchangeOrderNumber: regNo } = await exchange().placeOrder(entry);
    const bse = exchange();
    const installment = (n: number, dueDate = "2026-04-05") => ({
      orderId: newId("ord"), registrationOrderId: entry.orderId, clientCode: "UCC0001", orderType: "XSIP" as const, installmentNo: n, dueDate,
    });
    const first = installment(1);
    expect(await bse.matchInstallments([first])).toEqual([]);
    const childNo = double.childOrders.generate(regNo!, "2026-04-05");
    expect(await bse.matchInstallments([first, installment(2, "2026-04-12")])).toEqual([{ orderId: first.orderId, exchangeOrderNumber: childNo }]);
    // ISIP: the registration's mandate went in Param2, so the plan type asked is ISIP (the double refuses another).
    expect(double.calls.filter((c) => c.operation === "ChildOrderDetails").length).toBeGreaterThanOrEqual(3);
    // Already matched: not given to another installment of the same day.
    expect(await bse.matchInstallments([installment(3)])).toEqual([]);

    const logins = double.childOrders.logins;
    double.childOrders.expireAll();
    const next = double.childOrders.generate(regNo!, "2026-04-12");
    const second = installment(2, "2026-04-12");
    expect(await bse.matchInstallments([second])).toEqual([{ orderId: second.orderId, exchangeOrderNumber: next }]);
    expect(double.childOrders.logins).toBe(logins + 1);
  });

  it("a refused child order login is unavailable with the exchange's reason PAN-masked, as the other logins (error text and log)", async () => {
    const entry = sip({ orderType: "XSIP", exchangeMandateId: "123457" });
    const { exchangeOrderNumber: regNo } = await exchange().placeOrder(entry);
    const capture = capturingLogger();
    const bse = new BseExchange(prisma, doubleConfig(double), capture.logger);
    double.childOrders.generate(regNo!, "2026-06-05");
    double.childOrders.refuseNextLogin("FAILED: USER ABCDE1234F IS DISABLED. CONTACT ADMIN");
    const installment = { orderId: newId("ord"), registrationOrderId: entry.orderId, clientCode: "UCC0001", orderType: "XSIP" as const, installmentNo: 1, dueDate: "2026-06-05" };
    const refused = await bse.matchInstallments([installment]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ExchangeUnavailableError);
    expect((refused as Error).message).toBe("BSE child order login failed: FAILED: USER ABXXXXX34F IS DISABLED. CONTACT ADMIN");
    expect(capture.parsed().filter((l) => l.msg === "BSE login failed")).toEqual([
      expect.objectContaining({ service: "child-orders", exchange_message: "FAILED: USER ABXXXXX34F IS DISABLED. CONTACT ADMIN" }),
    ]);
  });

  it("child orders on the other reading of StarMFWebService (JSON at .svc/<Operation>, web-service.ts): the same match", async () => {
    const entry = sip({ orderType: "XSIP", exchangeMandateId: "123456" });
    const { exchangeOrderNumber: regNo } = await exchange().placeOrder(entry);
    const json = exchange({}, { webServiceStyle: { mandates: "json", childOrders: "json" } });
    const soapCalls = double.calls.filter((c) => c.operation === "ChildOrderDetails" || c.operation === "GetPasswordForChildOrder").length;
    const childNo = double.childOrders.generate(regNo!, "2026-05-05");
    const installment = { orderId: newId("ord"), registrationOrderId: entry.orderId, clientCode: "UCC0001", orderType: "XSIP" as const, installmentNo: 1, dueDate: "2026-05-05" };
    expect(await json.matchInstallments([installment])).toEqual([{ orderId: installment.orderId, exchangeOrderNumber: childNo }]);
    expect(double.calls.filter((c) => c.operation === "ChildOrderDetails" || c.operation === "GetPasswordForChildOrder").length).toBe(soapCalls);
  });
});
