import { describe, expect, it } from "vitest";
import { ExchangeUnavailableError, type ExchangePort } from "../../../src/integrations/exchange/port.js";
import { dispatchOrder } from "../../../src/domains/orders/jobs/dispatch.js";
import { useTestApp } from "../../helpers/app.js";
import { createBseScheme } from "../../helpers/bse-double/schemes.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { hurried } from "../../helpers/bse-double/hurried.js";
import { pendingInvestor } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { eventNames, placedOrder, today } from "../../helpers/orders.js";

const env: Record<string, string> = {};
// The app keeps the double's 2-second call budget; only the calls scripted to hang get a short one (`hurried`).
const double = useBseDouble(env);
const app = useTestApp(env);

/**
 * A distributor with an investor the exchange knows. UCC registration through the adapter is the next
 * slice, so the investor is marked REGISTERED in the database, as the registration would.
 */
async function orderingInvestor() {
  const { token } = await app.newDistributor();
  const investor = await pendingInvestor(app, token);
  await app.prisma.investor.update({ where: { id: investor.id }, data: { status: "REGISTERED" } });
  const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id } });
  return { token, account: investor.account, uccCode };
}

let schemes = 0;
async function scheme() {
  schemes += 1;
  const code = `BSE${String(schemes).padStart(3, "0")}`;
  await createBseScheme(app, double.current, code);
  return code;
}

const orderRow = (id: string) => app.prisma.order.findUniqueOrThrow({ where: { id }, select: { status: true, exchangeOrderNumber: true, providerRemark: true, failureCode: true } });

describe("dispatch through the real job with MF_EXCHANGE=bse, against the double", () => {
  it("uses the BSE adapter, and the simulation routes do not exist", async () => {
    expect(app.services.exchange.constructor.name).toBe("BseExchange");
    expect(app.services.sandboxExchange).toBeUndefined();
  });

  it("the process dies after the exchange answered; the retried job places nothing twice and applies the first answer", async () => {
    const ctx = await orderingInvestor();
    const schemeCode = await scheme();
    const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: schemeCode, amount: 5000, purchase_type: "FRESH" });

    // The port books the order at the exchange, then the process dies before the answer is applied.
    const real = app.services.exchange;
    const dying: ExchangePort = Object.assign(Object.create(real) as ExchangePort, {
      placeOrder: async (entry: Parameters<ExchangePort["placeOrder"]>[0]) => {
        await real.placeOrder(entry);
        throw new Error("process killed");
      },
    });
    await expect(runTask(app, dispatchOrder, { order_id: id }, { services: { ...app.services, exchange: dying } })).rejects.toThrow("process killed");
    expect(await orderRow(id)).toMatchObject({ status: "PENDING", exchangeOrderNumber: null });
    const atExchange = double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode);
    expect(atExchange).toHaveLength(1);

    await runTask(app, dispatchOrder, { order_id: id }, { attempts: 2 });
    expect(await orderRow(id)).toMatchObject({ status: "ACCEPTED", exchangeOrderNumber: atExchange[0]!.orderNo, failureCode: null });
    expect(double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode)).toHaveLength(1);
    expect(await app.prisma.bseOrderRef.count({ where: { orderId: id } })).toBe(1);
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);
  });

  it("a rejection ends REJECTED with the exchange's remark (PAN masked) and its failure code", async () => {
    const ctx = await orderingInvestor();
    const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: await scheme(), amount: 5000, purchase_type: "FRESH" });
    double.current.orderEntry.rejectNext("FAILED: INVALID MANDATE NUMBER FOR GIVEN CLIENT CODE ABCDE1234F");
    await runTask(app, dispatchOrder, { order_id: id });
    expect(await orderRow(id)).toEqual({
      status: "REJECTED", exchangeOrderNumber: null, providerRemark: "FAILED: INVALID MANDATE NUMBER FOR GIVEN CLIENT CODE ABXXXXX34F", failureCode: "mandate_invalid",
    });
  });

  it("the exchange placed it but the answer was lost (a timeout): the retried job finds it in the order status report, ACCEPTED, one exchange order", async () => {
    const ctx = await orderingInvestor();
    const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: await scheme(), amount: 5000, purchase_type: "FRESH" });
    double.current.failNext("orderEntryParam", "timeout");
    await expect(runTask(app, dispatchOrder, { order_id: id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect((await orderRow(id)).status).toBe("PENDING");
    const atExchange = double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode);
    expect(atExchange).toHaveLength(1);
    await runTask(app, dispatchOrder, { order_id: id }, { attempts: 2 });
    expect(await orderRow(id)).toEqual({ status: "ACCEPTED", exchangeOrderNumber: atExchange[0]!.orderNo, providerRemark: "ORDER CONFIRMED", failureCode: null });
    expect(double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode)).toHaveLength(1);
  });

  it("sent, never run by the exchange, and not in the report yet: held PENDING (not FAILED) even on the last attempt, nothing sent twice", async () => {
    const ctx = await orderingInvestor();
    const id = await placedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: await scheme(), amount: 5000, purchase_type: "FRESH" });
    double.current.failNext("orderEntryParam", "timeout-before");
    await expect(runTask(app, dispatchOrder, { order_id: id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    await runTask(app, dispatchOrder, { order_id: id }, { attempts: 5, maxAttempts: 5 });
    const row = await orderRow(id);
    expect(row).toMatchObject({ status: "PENDING", exchangeOrderNumber: null, failureCode: null });
    expect(row.providerRemark).toMatch(/^SENT AS \d{19} WITHOUT AN ANSWER; AWAITING THE EXCHANGE'S ORDER STATUS REPORT$/);
    expect(double.current.orderEntry.orders.filter((o) => o.clientCode === ctx.uccCode)).toHaveLength(0);
  });

  it("an SWP and an STP through the real job: the investor's mobile, e-mail and bank account sent (decrypted), the registration number stored, none of them logged", async () => {
    const ctx = await orderingInvestor();
    double.current.registrations.clients.set(ctx.uccCode, { clientCode: ctx.uccCode, regnType: "NEW", fields: [], accounts: ["001234567890"] });
    const plan = { frequency: "MONTHLY", start_date: today(), installments: 6 };
    const swpId = await placedOrder(app, ctx, { order_type: "SWP", scheme_code: await scheme(), folio_no: "7788/11", amount: 1500, swp: plan });
    const stpScheme = await scheme();
    const stpId = await placedOrder(app, ctx, { order_type: "STP", scheme_code: stpScheme, folio_no: "7788/11", amount: 2000, stp: { ...plan, to_scheme_code: await scheme() } });
    app.logs.length = 0;
    await runTask(app, dispatchOrder, { order_id: swpId });
    await runTask(app, dispatchOrder, { order_id: stpId });

    const swp = [...double.current.registrations.swps.values()].find((r) => r.clientCode === ctx.uccCode)!;
    expect(swp.fields.slice(16)).toEqual(["9876543210", "asha.rao@example.in", "001234567890"]);
    expect(await orderRow(swpId)).toMatchObject({ status: "ACCEPTED", exchangeOrderNumber: swp.registrationNo });
    const stp = [...double.current.transfers.stps.values()].find((r) => r.clientCode === ctx.uccCode)!;
    expect(stp.body).toMatchObject({ FromBSESchemeCode: `BSE${stpScheme}`, Filler1: "9876543210", Filler2: "asha.rao@example.in", InstAmount: "2000.00" });
    expect(await orderRow(stpId)).toMatchObject({ status: "ACCEPTED", exchangeOrderNumber: stp.registrationNo });
    expect(app.logs.join("\n")).not.toMatch(/9876543210|asha\.rao|001234567890/);
  });
});
