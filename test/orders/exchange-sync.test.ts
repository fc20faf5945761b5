import { beforeAll, describe, expect, it } from "vitest";
import type { ExchangePort, OrderEntry } from "../../src/integrations/exchange/port.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { syncOrdersWithExchange } from "../../src/domains/orders/jobs/sync-exchange.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, eventNames, lumpsumOrder, orderingInvestor, placedOrder } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "930001");
  ctx = await orderingInvestor(app);
});

const lumpsum = (overrides: Record<string, unknown>) => lumpsumOrder("930001", { amount: 1000, ...overrides });
const place = (overrides: Record<string, unknown> = {}) => placedOrder(app, ctx, lumpsum(overrides));
const accepted = (overrides: Record<string, unknown> = {}) => acceptedOrder(app, ctx, lumpsum(overrides));
const row = (id: string) => app.prisma.order.findUniqueOrThrow({ where: { id } });
const sync = () => runTask(app, syncOrdersWithExchange, {});

describe("dispatch never places an order twice", () => {
  it("a worker that dies after the exchange took the order, before commit: the retry finds the same exchange order", async () => {
    const id = await place();
    const sandbox = app.services.sandboxExchange!;
    const crashing: ExchangePort = Object.assign(Object.create(Object.getPrototypeOf(sandbox)), sandbox, {
      placeOrder: async (order: OrderEntry) => {
        await sandbox.placeOrder(order);
        throw new Error("worker killed after the exchange call");
      },
    });
    await expect(runTask(app, dispatchOrder, { order_id: id }, { services: { ...app.services, exchange: crashing } })).rejects.toThrow("worker killed");
    expect((await row(id)).status).toBe("PENDING");

    await runTask(app, dispatchOrder, { order_id: id }, { attempts: 2 });
    await runTask(app, dispatchOrder, { order_id: id }, { attempts: 3 });
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { kind: "ORDER", reference: id } })).toBe(1);
    expect(await row(id)).toMatchObject({ status: "ACCEPTED", exchangeOrderNumber: `SBX${id.slice(-12).toUpperCase()}` });
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);
  });

  it("two dispatches of one order at the same moment book it once and move it once", async () => {
    const id = await place();
    await Promise.all([runTask(app, dispatchOrder, { order_id: id }), runTask(app, dispatchOrder, { order_id: id }), runTask(app, dispatchOrder, { order_id: id })]);
    expect(await app.prisma.sandboxExchangeRecord.count({ where: { kind: "ORDER", reference: id } })).toBe(1);
    expect((await row(id)).status).toBe("ACCEPTED");
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);
  });
});

describe("allotment statement (the path a real exchange uses)", () => {
  it("applies a valid row exactly (NAV 4 dp, units 3 dp, amount 2 dp), once, through the same state change", async () => {
    const id = await accepted();
    await app.services.sandboxExchange!.reportAllotment(id, {
      folioNo: "9100234/51", schemeCode: "930001", nav: "12.3456", units: "81.000", amount: "1000.00", allotmentDate: "2026-11-20", valid: true, remark: null,
    });
    await sync();
    await sync();
    expect(await row(id)).toMatchObject({ status: "ALLOTTED", folioNo: "9100234/51" });
    const allotted = await row(id);
    expect([allotted.nav?.toFixed(4), allotted.allottedUnits?.toFixed(3), allotted.allottedAmount?.toFixed(2)]).toEqual(["12.3456", "81.000", "1000.00"]);
    const view = (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
    expect(view).toMatchObject({ status: "ALLOTTED", nav: 12.3456, units: 81, allotted_amount: 1000, allotment_date: "2026-11-20", folio_no: "9100234/51" });
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.allotted"]);
  });

  it("rejects an order whose row is marked invalid", async () => {
    const id = await accepted();
    await app.services.sandboxExchange!.reportAllotment(id, {
      folioNo: "", schemeCode: "930001", nav: "0", units: "0", amount: "0", allotmentDate: "2026-11-20", valid: false, remark: "RTA: KYC NOT VALIDATED",
    });
    await sync();
    expect(await row(id)).toMatchObject({ status: "REJECTED", failureCode: "allotment_rejected", providerRemark: "RTA: KYC NOT VALIDATED" });
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.rejected"]);
  });

  it("the simulation's allotment is in the exchange's books, so the statement agrees and moves nothing twice", async () => {
    const id = await accepted();
    expect((await app.http("GET", `/api/simulation/orders/v1/${id}/allot?nav=20`, { token: ctx.token })).status).toBe(200);
    const [report] = await app.services.exchange.allotments([id]);
    expect(report).toMatchObject({ orderId: id, nav: "20.0000", units: "50.000", amount: "1000.00", valid: true });
    await sync();
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.allotted"]);
  });
});

describe("status sync", () => {
  it("moves a held order when the exchange decides, and rejects an accepted one the exchange later rejects", async () => {
    const held = await accepted({ remarks: "SIM:HOLD" });
    const rejectedLater = await accepted();
    const untouched = await accepted();
    await sync();
    expect((await row(held)).status).toBe("PENDING");

    await app.services.sandboxExchange!.set("ORDER", held, "ACCEPTED", "ORDER CONFIRMED");
    await app.services.sandboxExchange!.set("ORDER", rejectedLater, "REJECTED", "RTA: DUPLICATE ORDER");
    await sync();
    await sync();
    expect(await row(held)).toMatchObject({ status: "ACCEPTED", providerRemark: "ORDER CONFIRMED" });
    expect(await row(rejectedLater)).toMatchObject({ status: "REJECTED", failureCode: "exchange_rejected", providerRemark: "RTA: DUPLICATE ORDER" });
    expect((await row(untouched)).status).toBe("ACCEPTED");
    expect(await eventNames(app, held)).toEqual(["order.accepted"]);
    expect(await eventNames(app, rejectedLater)).toEqual(["order.accepted", "order.rejected"]);
  });
});
