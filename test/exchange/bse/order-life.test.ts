import { describe, expect, it } from "vitest";
import { dispatchOrder } from "../../../src/domains/orders/jobs/dispatch.js";
import { syncOrdersWithExchange } from "../../../src/domains/orders/jobs/sync-exchange.js";
import { useTestApp } from "../../helpers/app.js";
import { createBseScheme } from "../../helpers/bse-double/schemes.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { hurried } from "../../helpers/bse-double/hurried.js";
import { registerInvestor } from "../../../src/domains/investors/jobs/register.js";
import { checkMandateStatus, registerMandate } from "../../../src/domains/mandates/jobs/register.js";
import { investorKnownToExchange, mandateBody, pendingInvestor } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { createDueInstallments } from "../../../src/domains/orders/schedule.js";
import { eventNames, placedOrder, today } from "../../helpers/orders.js";

const env: Record<string, string> = {};
// The app keeps the double's 2-second call budget; only the calls scripted to hang get a short one (`hurried`).
const double = useBseDouble(env);
const app = useTestApp(env);

const registeredInvestor = () => investorKnownToExchange(app);

const sync = () => runTask(app, syncOrdersWithExchange, {});

describe("the life of an order with MF_EXCHANGE=bse, against the double", () => {
  it("a lump sum: placed -> dispatched -> ACCEPTED -> the allotment statement -> ALLOTTED with the exchange's exact NAV and units", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "LIFE01");
    const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: "LIFE01", amount: 5000, purchase_type: "FRESH" });

    await runTask(app, dispatchOrder, { order_id: id });
    const [booked] = double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode);
    expect(booked).toMatchObject({ schemeCode: "BSELIFE01", buySell: "P", amount: "5000.00" });
    let res = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(res.body).toMatchObject({ status: "ACCEPTED", exchange_order_number: booked!.orderNo });

    // The sync before the registrar's run: the report says VALID, no allotment row yet; nothing moves.
    await sync();
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body.status).toBe("ACCEPTED");

    double.current.reports.allot(booked!.orderNo, { nav: "12.3456", units: "404.998", amount: "4999.99", folioNo: "9988776/12", reportDate: "2026-01-05" });
    await sync();
    res = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ALLOTTED", exchange_order_number: booked!.orderNo, folio_no: "9988776/12" });
    const row = await app.prisma.order.findUniqueOrThrow({ where: { id }, select: { nav: true, allottedUnits: true, allottedAmount: true, allotmentDate: true } });
    expect([row.nav!.toFixed(4), row.allottedUnits!.toFixed(3), row.allottedAmount!.toFixed(2), row.allotmentDate!.toISOString().slice(0, 10)]).toEqual([
      "12.3456", "404.998", "4999.99", "2026-01-05",
    ]);
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.allotted"]);

    // Repeating the sync changes nothing (every move is conditional).
    await sync();
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.allotted"]);
  });

  it("an order the exchange later marks INVALID (its payment never came) ends REJECTED with the exchange's remark", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "LIFE02");
    const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: "LIFE02", amount: 5000, purchase_type: "FRESH" });
    await runTask(app, dispatchOrder, { order_id: id });
    const [booked] = double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode);
    double.current.reports.invalidate(booked!.orderNo, "PAYMENT NOT RECEIVED TILL DATE");
    await sync();
    const row = await app.prisma.order.findUniqueOrThrow({ where: { id }, select: { status: true, providerRemark: true, failureCode: true } });
    expect(row).toEqual({ status: "REJECTED", providerRemark: "PAYMENT NOT RECEIVED TILL DATE", failureCode: "exchange_rejected" });
  });

  it("a dispatch whose answer was lost and whose job is gone: the status sync's recovery finds it in the report and applies it, one exchange order", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "LIFE03");
    const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: "LIFE03", amount: 5000, purchase_type: "FRESH" });
    double.current.failNext("orderEntryParam", "timeout");
    await runTask(app, dispatchOrder, { order_id: id }, { services: hurried(app) }).catch(() => undefined);
    // The job is gone (its attempts used up and deleted by hand, or never queued again).
    await app.prisma.$executeRawUnsafe(`DELETE FROM graphile_worker._private_jobs WHERE key = $1`, `orders__dispatch:${id}`);
    await sync();
    const [booked] = double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode);
    const row = await app.prisma.order.findUniqueOrThrow({ where: { id }, select: { status: true, exchangeOrderNumber: true } });
    expect(row).toEqual({ status: "ACCEPTED", exchangeOrderNumber: booked!.orderNo });
    expect(double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode)).toHaveLength(1);
  });

  it("a SIP: registered (the registration number), its installment matched to the exchange's child order of the due day, then allotted from the statement", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "LIFE04");
    const id = await placedOrder(app, ctx, { order_type: "SIP", scheme_code: "LIFE04", amount: 1000, sip: { frequency: "WEEKLY", start_date: today(), installments: 4, installment_day: 5 } });
    await runTask(app, dispatchOrder, { order_id: id });
    const registration = double.current.plans.registrations.find((r) => r.clientCode === ctx.uccCode)!;
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body).toMatchObject({ status: "ACCEPTED", exchange_order_number: registration.regNo });

    await createDueInstallments(app.prisma, today());
    const child = await app.prisma.order.findFirstOrThrow({ where: { parentOrderId: id }, select: { id: true, exchangeOrderNumber: true } });
    expect(child.exchangeOrderNumber).toBe(`${registration.regNo}-1`);

    // Before the exchange generates the child order, the sync leaves the installment as it is.
    await sync();
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: child.id } })).exchangeOrderNumber).toBe(`${registration.regNo}-1`);

    const childNo = double.current.childOrders.generate(registration.regNo, today());
    await sync();
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: child.id } })).exchangeOrderNumber).toBe(childNo);

    double.current.reports.allot(childNo, { nav: "20.0001", units: "49.999", amount: "1000.00", folioNo: "5551234/01" });
    await sync();
    const allotted = await app.prisma.order.findUniqueOrThrow({ where: { id: child.id }, select: { status: true, nav: true, allottedUnits: true, exchangeOrderNumber: true } });
    expect([allotted.status, allotted.nav!.toFixed(4), allotted.allottedUnits!.toFixed(3), allotted.exchangeOrderNumber]).toEqual(["ALLOTTED", "20.0001", "49.999", childNo]);
    // The registration itself stays ACCEPTED (never allotted).
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id } })).status).toBe("ACCEPTED");
  });

  it("an SWP: registered, its installment matched to the exchange's child order (a redemption) of the due day, then ALLOTTED from the redemption statement", async () => {
    const ctx = await registeredInvestor();
    double.current.registrations.clients.set(ctx.uccCode, { clientCode: ctx.uccCode, regnType: "NEW", fields: [], accounts: ["001234567890"] });
    await createBseScheme(app, double.current, "LIFE07");
    const id = await placedOrder(app, ctx, { order_type: "SWP", scheme_code: "LIFE07", folio_no: "7788/11", amount: 1500, swp: { frequency: "MONTHLY", start_date: today(), installments: 6 } });
    await runTask(app, dispatchOrder, { order_id: id });
    const registration = [...double.current.registrations.swps.values()].find((r) => r.clientCode === ctx.uccCode)!;
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body).toMatchObject({ status: "ACCEPTED", exchange_order_number: registration.registrationNo });

    await createDueInstallments(app.prisma, today());
    const child = await app.prisma.order.findFirstOrThrow({ where: { parentOrderId: id }, select: { id: true, exchangeOrderNumber: true, orderType: true } });
    expect(child).toMatchObject({ orderType: "SWP", exchangeOrderNumber: `${registration.registrationNo}-1` });
    await sync();
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: child.id } })).exchangeOrderNumber).toBe(`${registration.registrationNo}-1`);

    const childNo = double.current.childOrders.generate(registration.registrationNo, today());
    expect(double.current.orderEntry.orders.find((o) => o.orderNo === childNo)).toMatchObject({ buySell: "R", schemeCode: "BSELIFE07", amount: "1500.00" });
    await sync();
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: child.id } })).exchangeOrderNumber).toBe(childNo);
    expect(await app.prisma.bseChildOrder.findMany({ where: { orderId: child.id }, select: { exchangeOrderNumber: true, buySell: true } })).toEqual([{ exchangeOrderNumber: childNo, buySell: "R" }]);
    // (The double lists an SWP's child orders only when asked with plan type SWP.)

    double.current.reports.allot(childNo, { nav: "25.1234", units: "59.705", amount: "1500.00", folioNo: "7788/11" });
    await sync();
    const redeemed = await app.prisma.order.findUniqueOrThrow({ where: { id: child.id }, select: { status: true, nav: true, allottedUnits: true, allottedAmount: true, exchangeOrderNumber: true } });
    expect([redeemed.status, redeemed.nav!.toFixed(4), redeemed.allottedUnits!.toFixed(3), redeemed.allottedAmount!.toFixed(2), redeemed.exchangeOrderNumber]).toEqual([
      "ALLOTTED", "25.1234", "59.705", "1500.00", childNo,
    ]);
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id } })).status).toBe("ACCEPTED");
  });

  it("an STP: registered, its installment matched to the exchange's switch-out/switch-in child orders of the due day, then ALLOTTED from the switch-in's row", async () => {
    const ctx = await registeredInvestor();
    await createBseScheme(app, double.current, "LIFE08");
    await createBseScheme(app, double.current, "LIFE09");
    const id = await placedOrder(app, ctx, {
      order_type: "STP", scheme_code: "LIFE08", folio_no: "7788/12", amount: 2000, stp: { frequency: "MONTHLY", start_date: today(), installments: 6, to_scheme_code: "LIFE09" },
    });
    await runTask(app, dispatchOrder, { order_id: id });
    const registration = [...double.current.transfers.stps.values()].find((r) => r.clientCode === ctx.uccCode)!;
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body).toMatchObject({ status: "ACCEPTED", exchange_order_number: registration.registrationNo });

    await createDueInstallments(app.prisma, today());
    const child = await app.prisma.order.findFirstOrThrow({ where: { parentOrderId: id }, select: { id: true, exchangeOrderNumber: true, orderType: true } });
    expect(child).toMatchObject({ orderType: "STP", exchangeOrderNumber: `${registration.registrationNo}-1` });
    await sync();
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: child.id } })).exchangeOrderNumber).toBe(`${registration.registrationNo}-1`);

    const outNo = double.current.childOrders.generate(registration.registrationNo, today());
    const [out, into] = double.current.orderEntry.orders.filter((o) => o.orderNo >= outNo && o.clientCode === ctx.uccCode);
    expect([out!.orderNo, out!.buySell, out!.schemeCode, into!.buySell, into!.schemeCode]).toEqual([outNo, "R", "BSELIFE08", "P", "BSELIFE09"]);
    await sync();
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: child.id } })).exchangeOrderNumber).toBe(outNo);
    expect(await app.prisma.bseChildOrder.findMany({ where: { orderId: child.id }, select: { exchangeOrderNumber: true, switchInOrderNumber: true, buySell: true } })).toEqual([
      { exchangeOrderNumber: outNo, switchInOrderNumber: into!.orderNo, buySell: "R" },
    ]);

    // The switch-out's redemption row is not the installment's allotment; the switch-in's is.
    double.current.reports.allot(outNo, { nav: "10.0000", units: "200.000", amount: "2000.00", folioNo: "7788/12" });
    await sync();
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id: child.id } })).status).toBe("ACCEPTED");
    double.current.reports.allot(into!.orderNo, { nav: "40.0004", units: "49.999", amount: "2000.00", folioNo: "7788/12" });
    await sync();
    const allotted = await app.prisma.order.findUniqueOrThrow({ where: { id: child.id }, select: { status: true, nav: true, allottedUnits: true, exchangeOrderNumber: true } });
    expect([allotted.status, allotted.nav!.toFixed(4), allotted.allottedUnits!.toFixed(3), allotted.exchangeOrderNumber]).toEqual(["ALLOTTED", "40.0004", "49.999", outNo]);
    expect((await app.prisma.order.findUniqueOrThrow({ where: { id } })).status).toBe("ACCEPTED");
  });

  it("the whole life from registration: UCC + FATCA through the job, a mandate registered and approved, a lump sum ALLOTTED, an XSIP on the mandate; no secret or PAN logged", async () => {
    double.current.registrations.refuseUnknownClients();
    app.logs.length = 0;
    const { token } = await app.newDistributor();
    const investor = await pendingInvestor(app, token);
    const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id } });

    await runTask(app, registerInvestor, { investor_id: investor.id });
    expect(await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id }, select: { status: true } })).toEqual({ status: "REGISTERED" });
    expect(double.current.registrations.clients.get(uccCode)!.regnType).toBe("NEW");
    expect(double.current.registrations.fatca.has(investor.pan)).toBe(true);

    const created = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) });
    expect(created.status).toBe(201);
    const mandateId = created.body.id as string;
    await runTask(app, registerMandate, { mandate_id: mandateId });
    const { exchangeMandateId } = await app.prisma.mandate.findUniqueOrThrow({ where: { id: mandateId } });
    expect(double.current.registrations.mandates.get(exchangeMandateId!)).toMatchObject({ clientCode: uccCode, type: "N", status: "REGISTERED BY MEMBER" });
    double.current.registrations.setMandateStatus(exchangeMandateId!, "APPROVED");
    await runTask(app, checkMandateStatus, { mandate_id: mandateId });
    expect((await app.http("GET", `/api/mandates/v1/${mandateId}`, { token })).body).toMatchObject({ status: "REGISTERED" });

    const ctx = { token, account: investor.account };
    await createBseScheme(app, double.current, "LIFE05");
    const lumpSum = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: "LIFE05", amount: 7500, purchase_type: "FRESH" });
    await runTask(app, dispatchOrder, { order_id: lumpSum });
    const [booked] = double.current.orderEntry.orders.filter((o) => o.clientCode === uccCode);
    expect((await app.http("GET", `/api/orders/v1/${lumpSum}`, { token })).body).toMatchObject({ status: "ACCEPTED", exchange_order_number: booked!.orderNo });
    double.current.reports.allot(booked!.orderNo, { nav: "31.4159", units: "238.732", amount: "7500.00", folioNo: "4455667/88", reportDate: "2026-01-06" });
    await sync();
    expect((await app.http("GET", `/api/orders/v1/${lumpSum}`, { token })).body).toMatchObject({ status: "ALLOTTED", folio_no: "4455667/88" });
    const row = await app.prisma.order.findUniqueOrThrow({ where: { id: lumpSum }, select: { nav: true, allottedUnits: true } });
    expect([row.nav!.toFixed(4), row.allottedUnits!.toFixed(3)]).toEqual(["31.4159", "238.732"]);
    expect(await eventNames(app, lumpSum)).toEqual(["order.accepted", "order.allotted"]);

    await createBseScheme(app, double.current, "LIFE06");
    const xsip = await placedOrder(app, ctx, {
      order_type: "XSIP", scheme_code: "LIFE06", amount: 2000, mandate_id: mandateId, sip: { frequency: "MONTHLY", start_date: today(), installments: 12, installment_day: 10 },
    });
    await runTask(app, dispatchOrder, { order_id: xsip });
    const registration = double.current.plans.registrations.find((r) => r.clientCode === uccCode && r.kind === "XSIP")!;
    expect(registration.values.get("MandateID")).toBe(exchangeMandateId);
    expect((await app.http("GET", `/api/orders/v1/${xsip}`, { token })).body).toMatchObject({ status: "ACCEPTED", exchange_order_number: registration.regNo });

    const logged = app.logs.join("\n");
    expect(logged.length).toBeGreaterThan(0);
    const secrets = [investor.pan, "9876543210", "asha.rao@example.in", "001234567890", double.current.credentials.password, "double-api-key", ...double.current.sessions.issued];
    for (const secret of secrets) expect(logged).not.toContain(secret);
  });
});
