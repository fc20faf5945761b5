import { beforeAll, describe, expect, it } from "vitest";
import { pauseOrderAtExchange } from "../../src/domains/orders/jobs/pause-at-exchange.js";
import { useTestApp } from "../helpers/app.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { acceptedOrder, createOpenScheme, eventNames, orderingInvestor, today } from "../helpers/orders.js";

/** POST /api/orders/v1/{id}/pause and /resume in the sandbox (issue 26 point 4). */

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof orderingInvestor>>;

beforeAll(async () => {
  await createOpenScheme(app, "990101");
  ctx = await orderingInvestor(app, { mandate: true });
  // The SIP master's pause flag Y without limits: the defaults (1 to 6, once) apply.
  await app.prisma.exchangeSipRule.updateMany({ where: { code: "BSE990101" }, data: { pauseAllowed: true } });
});

const pause = (id: string, installments: unknown, opts: { token?: string; key?: string } = {}) =>
  app.http("POST", `/api/orders/v1/${id}/pause`, { token: opts.token ?? ctx.token, json: { installments }, ...(opts.key ? { headers: { "Idempotency-Key": opts.key } } : {}) });
const resume = (id: string) => app.http("POST", `/api/orders/v1/${id}/resume`, { token: ctx.token });
const schedule = async (id: string) =>
  (await app.prisma.orderInstallment.findMany({ where: { orderId: id }, orderBy: { installmentNo: "asc" } })).map((r) => [r.installmentNo, r.dueDate.toISOString().slice(0, 10), r.status]);
const sip = (remarks?: string) => ({ order_type: "SIP", scheme_code: "990101", amount: 1000, ...(remarks ? { remarks } : {}), sip: { frequency: "MONTHLY", start_date: today(), installments: 4, installment_day: 28 } });
const runPauseJob = async (pauseId: string) => runTask(app, pauseOrderAtExchange, { pause_id: pauseId });

describe("pausing a SIP", () => {
  it("pauses the next installments (PAUSED), moves the plan's end, and confirms with order.paused", async () => {
    const id = await acceptedOrder(app, ctx, sip());
    const before = await schedule(id);
    expect(before.map((r) => r[2])).toEqual(["SCHEDULED", "SCHEDULED", "SCHEDULED", "SCHEDULED"]);
    const res = await pause(id, 2);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ order_id: id, status: "PENDING", installments: 2, from_installment_no: 1, from_date: before[0]![1], until_date: before[1]![1], resumed_at: null, remark: null });
    expect(await queuedJobs(app, "orders__pause_at_exchange", "pause_id", res.body.id)).toHaveLength(1);
    const after = await schedule(id);
    expect(after.map((r) => [r[0], r[2]])).toEqual([[1, "PAUSED"], [2, "PAUSED"], [3, "SCHEDULED"], [4, "SCHEDULED"], [5, "SCHEDULED"], [6, "SCHEDULED"]]);
    // The appended installments follow the plan's monthly dates.
    expect(after[4]![1]! > after[3]![1]! && after[5]![1]! > after[4]![1]!).toBe(true);
    const list = await app.http("GET", `/api/orders/v1/${id}/installments`, { token: ctx.token });
    expect(list.body.data.map((r: { status: string }) => r.status)).toEqual(["PAUSED", "PAUSED", "SCHEDULED", "SCHEDULED", "SCHEDULED", "SCHEDULED"]);

    await runPauseJob(res.body.id);
    expect((await app.prisma.orderPause.findUniqueOrThrow({ where: { id: res.body.id } })).status).toBe("CONFIRMED");
    expect(await app.prisma.event.findMany({ where: { resourceId: id, event: "order.paused" }, select: { data: true } })).toEqual([
      { data: { order_id: id, installments: 2, from_date: before[0]![1], until_date: before[1]![1] } },
    ]);
    const again = await pause(id, 1);
    expect([again.status, again.body.error.code]).toEqual([409, "INVALID_STATE"]);
  });

  it("refusals: out of range (400 on installments), not a SIP (409), another distributor's (404)", async () => {
    const id = await acceptedOrder(app, ctx, sip());
    for (const n of [0, 7]) {
      const res = await pause(id, n);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe("installments");
    }
    const lump = await acceptedOrder(app, ctx, { order_type: "LUMPSUM_PURCHASE", scheme_code: "990101", amount: 1000, purchase_type: "FRESH" });
    const notSip = await pause(lump, 1);
    expect([notSip.status, notSip.body.error.code]).toEqual([409, "INVALID_STATE"]);
    const other = await orderingInvestor(app);
    const foreign = await pause(id, 1, { token: other.token });
    expect(foreign.status).toBe(404);
    expect((await schedule(id)).map((r) => r[2])).toEqual(["SCHEDULED", "SCHEDULED", "SCHEDULED", "SCHEDULED"]);
  });

  it("an Idempotency-Key repeated answers the same pause", async () => {
    const id = await acceptedOrder(app, ctx, sip());
    const first = await pause(id, 1, { key: `pause-${id}` });
    const second = await pause(id, 1, { key: `pause-${id}` });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await app.prisma.orderPause.count({ where: { orderId: id } })).toBe(1);
  });

  it("the exchange's refusal puts the schedule back", async () => {
    const id = await acceptedOrder(app, ctx, sip("SIM:REFUSE_PAUSE"));
    const res = await pause(id, 3);
    await runPauseJob(res.body.id);
    expect(await app.prisma.orderPause.findUniqueOrThrow({ where: { id: res.body.id }, select: { status: true, remark: true } })).toEqual({ status: "REFUSED", remark: "SANDBOX: PAUSE REFUSED (SIM:REFUSE_PAUSE)" });
    expect((await schedule(id)).map((r) => r[2])).toEqual(["SCHEDULED", "SCHEDULED", "SCHEDULED", "SCHEDULED"]);
    expect(await eventNames(app, id)).not.toContain("order.paused");
  });

  it("resume ends the pause early: installments scheduled again, the plan's end moved back, order.resumed", async () => {
    const id = await acceptedOrder(app, ctx, sip());
    const before = await schedule(id);
    const res = await pause(id, 2);
    const early = await resume(id);
    expect([early.status, early.body.error.code]).toEqual([409, "INVALID_STATE"]);
    await runPauseJob(res.body.id);
    const done = await resume(id);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ id: res.body.id, status: "RESUMED" });
    expect(await schedule(id)).toEqual(before);
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.paused", "order.resumed"]);
    const twice = await resume(id);
    expect([twice.status, twice.body.error.code]).toEqual([409, "INVALID_STATE"]);
  });
});
