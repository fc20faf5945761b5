import { describe, expect, it } from "vitest";
import { cancelOrderAtExchange } from "../../../src/domains/orders/jobs/cancel-at-exchange.js";
import { dispatchOrder } from "../../../src/domains/orders/jobs/dispatch.js";
import { getOrderById } from "../../../src/domains/orders/orders.repo.js";
import { createDueInstallments } from "../../../src/domains/orders/schedule.js";
import { movePayment } from "../../../src/domains/payments/lifecycle.js";
import { createPayment } from "../../../src/domains/payments/payments.service.js";
import { useTestApp } from "../../helpers/app.js";
import { createBseScheme } from "../../helpers/bse-double/schemes.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { investorKnownToExchange } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { dayPlus, eventNames, placedOrder, today } from "../../helpers/orders.js";

/** SEBI's automatic SIP cancellation with MF_EXCHANGE=bse (issue 26 point 4): the CXL reaches the double. */

const env: Record<string, string> = {};
const double = useBseDouble(env);
const app = useTestApp(env);

describe("automatic cancellation with MF_EXCHANGE=bse", () => {
  it("a monthly SIP's 3 failed installment payments: the CXL goes to the exchange; confirmed -> CANCELLED with the reason", async () => {
    const ctx = await investorKnownToExchange(app);
    await createBseScheme(app, double.current, "ACX01");
    const id = await placedOrder(app, ctx, { order_type: "SIP", scheme_code: "ACX01", amount: 1000, sip: { frequency: "MONTHLY", start_date: today(), installments: 3, installment_day: 28 } });
    await runTask(app, dispatchOrder, { order_id: id });
    const registration = double.current.plans.registrations.find((r) => r.clientCode === ctx.uccCode)!;
    expect(await createDueInstallments(app.prisma, dayPlus(120))).toBe(3);
    const children = await app.prisma.order.findMany({ where: { parentOrderId: id }, orderBy: { installmentNo: "asc" } });
    for (const child of children) {
      // The investor's payment of each installment fails at the gateway.
      const payment = await app.prisma.$transaction(async (tx) => createPayment(tx, { order: await getOrderById(tx, child.id), mode: "UPI", details: { vpa: "as***@okhdfc" } }));
      expect(await movePayment(app.prisma, payment.id, "FAILED", "DEBIT FAILED", "insufficient_funds")).toBe(true);
    }
    const asked = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(asked.body).toMatchObject({ status: "ACCEPTED", cancellation: { status: "PENDING", remark: null, reason: "auto_cancelled_after_failed_installments" } });

    await runTask(app, cancelOrderAtExchange, { order_id: id }, { attempts: 1, maxAttempts: 5 });
    expect(registration.cancelled).toBe(true);
    const done = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(done.body).toMatchObject({ status: "CANCELLED", cancellation: { status: "CONFIRMED", remark: null, reason: "auto_cancelled_after_failed_installments" } });
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.cancelled"]);
  });
});
