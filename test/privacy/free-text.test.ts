import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerInvestor } from "../../src/domains/investors/jobs/register.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { pendingInvestor } from "../helpers/investors.js";
import { runTask } from "../helpers/jobs.js";
import { createOpenScheme, orderingInvestor, today } from "../helpers/orders.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

/**
 * Personal data in free text: the exchange's remarks (simulated through the `remark` query parameter),
 * an order's own remarks and a webhook receiver's answer may carry a PAN, in any case, inside an id.
 * Every one is stored and shown masked; the sandbox exchange's books keep no clear contact details.
 */
const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let receiver: Receiver;

const PAN = "qcbpu7552i";
const REMARK = `PAN ${PAN} does not match the KRA record (ref inv_QCBPU7552I)`;
const MASKED = "PAN qcXXXXX52i does not match the KRA record (ref inv_QCXXXXX52I)";
const MOBILE = "9812345670";
const EMAIL = "meera.iyer@example.in";
const CKYC = "40012345678912";

beforeAll(async () => {
  receiver = await startReceiver();
  await createOpenScheme(app, "930001");
});
afterAll(() => receiver.close());

const remark = encodeURIComponent(REMARK);

/** A PENDING investor of a new distributor with a CKYC number and the contact details above. */
async function investorWithContactDetails() {
  const { token } = await app.newDistributor();
  const body = investorBody({ contact: { email: EMAIL, mobile: MOBILE, email_relation: "SELF", mobile_relation: "SELF" } });
  body.primary_holder = { ...body.primary_holder, kyc_type: "CKYC", ckyc_number: CKYC } as typeof body.primary_holder;
  return { token, id: (await pendingInvestor(app, token, body)).id };
}

describe("the exchange's remarks", () => {
  it("an investor rejected with a PAN in the remark: masked in the response, the row, the event, the webhook and the sandbox books", async () => {
    const { token, id } = await investorWithContactDetails();
    const sub = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: receiver.url(), events: ["investor.*"] } });
    expect(sub.status).toBe(201);

    const rejected = await app.http("GET", `/api/simulation/investors/v1/${id}/reject?remark=${remark}`, { token });
    expect(rejected.status).toBe(200);
    const investor = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(investor.body).toMatchObject({ status: "REJECTED", provider_remark: MASKED });
    expect(investor.text.toLowerCase()).not.toContain(PAN);

    const row = await app.prisma.investor.findUniqueOrThrow({ where: { id } });
    expect(row.providerRemark).toBe(MASKED);
    const events = await app.prisma.event.findMany({ where: { resourceId: id }, select: { event: true, data: true } });
    expect(events).toEqual([{ event: "investor.rejected", data: { investor_id: id, status: "REJECTED", provider_remark: MASKED } }]);
    const books = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC", reference: row.uccCode } } });
    expect(books.remark).toBe(MASKED);

    const [delivery] = await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.body.data.id } });
    expect(JSON.parse(delivery!.payload)).toEqual({ success: true, data: { investor_id: id, status: "REJECTED", provider_remark: MASKED } });
  });

  it("a mandate rejected with a PAN in the remark", async () => {
    const ctx = await orderingInvestor(app);
    const investor = (await app.http("GET", `/api/investors/v1/${ctx.investorId}`, { token: ctx.token })).body;
    const mandate = await app.http("POST", "/api/mandates/v1", {
      token: ctx.token,
      json: { investor_id: ctx.investorId, bank_account_id: investor.bank_accounts[0].id, mandate_type: "ENACH", amount_limit: 10000, start_date: today() },
    });
    expect((await app.http("GET", `/api/simulation/mandates/v1/${mandate.body.id}/reject?remark=${remark}`, { token: ctx.token })).status).toBe(200);
    expect((await app.http("GET", `/api/mandates/v1/${mandate.body.id}`, { token: ctx.token })).body).toMatchObject({ status: "REJECTED", provider_remark: MASKED });
    expect((await app.prisma.mandate.findUniqueOrThrow({ where: { id: mandate.body.id } })).providerRemark).toBe(MASKED);
    const books = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "MANDATE", reference: mandate.body.id } } });
    expect(books.remark).toBe(MASKED);
  });

  it("an order whose own remarks and the exchange's rejection carry a PAN", async () => {
    const ctx = await orderingInvestor(app);
    const placed = await app.http("POST", "/api/orders/v1/", {
      token: ctx.token,
      json: { investment_account_id: ctx.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "930001", amount: 1000, purchase_type: "FRESH", remarks: `SIM:HOLD for ${PAN}` },
    });
    expect(placed.status).toBe(201);
    const id = placed.body.id as string;
    await runTask(app, dispatchOrder, { order_id: id });
    const books = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "ORDER", reference: id } } });
    expect(books.payload).toMatchObject({ remarks: "SIM:HOLD for qcXXXXX52i" });

    expect((await app.http("GET", `/api/simulation/orders/v1/${id}/reject?remark=${remark}`, { token: ctx.token })).status).toBe(200);
    const order = await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token });
    expect(order.body).toMatchObject({ status: "REJECTED", remarks: "SIM:HOLD for qcXXXXX52i", provider_remark: MASKED });
    expect(await app.prisma.order.findUniqueOrThrow({ where: { id }, select: { remarks: true, providerRemark: true } })).toEqual({
      remarks: "SIM:HOLD for qcXXXXX52i",
      providerRemark: MASKED,
    });
    const events = await app.prisma.event.findMany({ where: { resourceId: id }, select: { event: true, data: true } });
    expect(events).toEqual([{ event: "order.rejected", data: { order_id: id, status: "REJECTED", provider_remark: MASKED } }]);
  });

  it("a payment that fails with a PAN in the remark", async () => {
    const ctx = await orderingInvestor(app, { mandate: true });
    const placed = await app.http("POST", "/api/orders/v1/", {
      token: ctx.token,
      json: { investment_account_id: ctx.account, order_type: "LUMPSUM_PURCHASE", scheme_code: "930001", amount: 1000, purchase_type: "FRESH", mandate_id: ctx.mandateId },
    });
    await runTask(app, dispatchOrder, { order_id: placed.body.id });
    const paymentId = (await app.http("GET", `/api/orders/v1/${placed.body.id}`, { token: ctx.token })).body.payment_id as string;
    expect((await app.http("GET", `/api/simulation/payments/v1/${paymentId}/fail?remark=${remark}`, { token: ctx.token })).status).toBe(200);
    expect((await app.http("GET", `/api/payments/v1/${paymentId}`, { token: ctx.token })).body).toMatchObject({ status: "FAILED", provider_remark: MASKED });
    expect((await app.prisma.payment.findUniqueOrThrow({ where: { id: paymentId } })).providerRemark).toBe(MASKED);
  });
});

describe("the sandbox exchange's books", () => {
  it("keep no clear mobile, email, CKYC number or PAN of a registered investor", async () => {
    const { token, id } = await investorWithContactDetails();
    const ucc = (await app.prisma.investor.findUniqueOrThrow({ where: { id } })).uccCode;
    await runTask(app, registerInvestor, { investor_id: id });
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/register`, { token })).status).toBe(200);
    const record = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC", reference: ucc } } });
    const books = JSON.stringify(record);
    for (const clear of [MOBILE, EMAIL, "meera.iyer", CKYC]) expect(books).not.toContain(clear);
    expect(books).not.toMatch(/[A-Za-z]{5}[0-9]{4}[A-Za-z]/);
    expect(record.payload).toMatchObject({
      primaryHolder: { pan: expect.stringMatching(/^[A-Z]{2}XXXXX[0-9]{2}[A-Z]$/), ckycNumber: "XXXXXXXXXX8912" },
      contact: { mobile: "XXXXXX5670", email: "m***@example.in" },
    });
    expect(record.status).toBe("REGISTERED");
  });
});

describe("a webhook receiver's answer", () => {
  it("is kept in the attempt log with PANs masked", async () => {
    const { token, id } = await investorWithContactDetails();
    const sub = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: receiver.url("/answer"), events: ["investor.registered"] } });
    receiver.answer({ status: 500, body: `no account for PAN ${PAN.toUpperCase()}` });
    await app.http("GET", `/api/simulation/investors/v1/${id}/register`, { token });
    await runTask(app, deliverWebhooks, {});
    receiver.answer({ status: 200, body: "ok" });
    const [delivery] = await app.prisma.webhookDelivery.findMany({ where: { subscriptionId: sub.body.data.id } });
    const attempts = await app.prisma.webhookAttempt.findMany({ where: { deliveryId: delivery!.id } });
    expect(attempts.map((a) => [a.statusCode, a.responseBody])).toEqual([[500, "no account for PAN QCXXXXX52I"]]);
    const shown = await app.http("GET", `/api/webhooks/v1/deliveries/${delivery!.id}`, { token });
    expect(shown.text.toLowerCase()).not.toContain(PAN);
  });
});

describe("error messages", () => {
  it("never echo an id from the path (a PAN-shaped one included)", async () => {
    const { token } = await app.newDistributor();
    const res = await app.http("GET", "/api/investors/v1/inv_QCBPU7552I", { token });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: "NOT_FOUND", message: "Investor not found" });
    expect(res.text).not.toContain("QCBPU7552I");

    const input = encodeURIComponent(JSON.stringify({ id: "inv_QCBPU7552I" }));
    const viaTrpc = await app.http("GET", `/trpc/investors.get?input=${input}`, { token });
    expect(viaTrpc.status).toBe(404);
    expect(viaTrpc.body.error.message).toBe("Investor not found");
    expect(viaTrpc.text).not.toContain("QCBPU7552I");
  });
});

describe("the whole database", () => {
  it("holds none of the clear personal data the tests above sent, in any text or JSON column", async () => {
    const columns = await app.prisma.$queryRawUnsafe<Array<{ table_schema: string; table_name: string; column_name: string }>>(
      `SELECT c.table_schema, c.table_name, c.column_name
         FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE t.table_type = 'BASE TABLE' AND c.table_schema IN ('public', 'graphile_worker')
          AND c.data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')`,
    );
    expect(columns.length).toBeGreaterThan(40);
    const needles = [PAN, MOBILE, EMAIL, CKYC].map((n) => `%${n}%`);
    const found: string[] = [];
    for (const c of columns) {
      const [{ n }] = await app.prisma.$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM "${c.table_schema}"."${c.table_name}" WHERE "${c.column_name}"::text ILIKE ANY($1::text[])`,
        needles,
      ) as [{ n: number }];
      if (n > 0) found.push(`${c.table_schema}.${c.table_name}.${c.column_name}`);
    }
    expect(found).toEqual([]);
  });
});
