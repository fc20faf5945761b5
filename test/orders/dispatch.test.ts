import { beforeAll, describe, expect, it } from "vitest";
import { DISPATCH_ATTEMPTS } from "../../src/domains/orders/orders.service.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { createLogger } from "../../src/platform/lib/logger.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { createOpenScheme, lumpsumOrder, orderingInvestor } from "../helpers/orders.js";

const app = useTestApp();
let token = "";
let account = "";

beforeAll(async () => {
  await createOpenScheme(app, "900001");
  ({ token, account } = await orderingInvestor(app));
});

const place = (json: Record<string, unknown>) => app.http("POST", "/api/orders/v1/", { token, json: { investment_account_id: account, ...json } });
const lumpsum = (overrides: Record<string, unknown> = {}) => lumpsumOrder("900001", overrides);
const dispatch = (id: string, attempts = 1) => runTask(app, dispatchOrder, { order_id: id }, { attempts, maxAttempts: DISPATCH_ATTEMPTS });
const eventsOf = (id: string) => app.prisma.event.findMany({ where: { resourceId: id }, select: { event: true, data: true } });

describe("dispatch to the exchange", () => {
  it("accepts with the exchange order number and one order.accepted event, even when the job runs twice", async () => {
    const { id } = (await place(lumpsum())).body;
    await dispatch(id);
    await dispatch(id);
    const order = (await app.http("GET", `/api/orders/v1/${id}`, { token })).body;
    expect(order).toMatchObject({ status: "ACCEPTED", exchange_order_number: expect.stringMatching(/^SBX/), provider_remark: "ORDER CONFIRMED", failure_code: null });
    expect(await eventsOf(id)).toEqual([{ event: "order.accepted", data: { order_id: id, status: "ACCEPTED", provider_remark: "ORDER CONFIRMED" } }]);
  });

  it("rejects on SIM:REJECT with a failure code and the exchange's remark", async () => {
    const { id } = (await place(lumpsum({ remarks: "SIM:REJECT" }))).body;
    await dispatch(id);
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token })).body).toMatchObject({
      status: "REJECTED", failure_code: "exchange_rejected", provider_remark: "SANDBOX: ORDER REJECTED (SIM:REJECT)",
    });
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(["order.rejected"]);
  });

  it("retries transport failures and ends in FAILED on the last attempt (SIM:FAIL)", async () => {
    const { id } = (await place(lumpsum({ remarks: "SIM:FAIL" }))).body;
    // The sandbox asks for a retry in 500 ms: a dispatch job with the attempts left replaces this one.
    await dispatch(id, 1);
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token })).body.status).toBe("PENDING");
    const replacement = await queuedJobs(app, "orders__dispatch", "order_id", id);
    expect(replacement.map(({ max_attempts, key }) => ({ max_attempts, key }))).toEqual([{ max_attempts: DISPATCH_ATTEMPTS - 1, key: `orders__dispatch:${id}` }]);
    await dispatch(id, DISPATCH_ATTEMPTS);
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token })).body).toMatchObject({ status: "FAILED", failure_code: "exchange_unreachable" });
    expect((await eventsOf(id)).map((e) => e.event)).toEqual(["order.failed"]);
  });

  it("keeps a SIM:HOLD order PENDING with the exchange's number", async () => {
    const { id } = (await place(lumpsum({ remarks: "SIM:HOLD" }))).body;
    await dispatch(id);
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token })).body).toMatchObject({ status: "PENDING", exchange_order_number: expect.stringMatching(/^SBX/) });
    expect(await eventsOf(id)).toEqual([]);
  });

  it("runs in the worker: placed, then ACCEPTED", async () => {
    const { id } = (await place(lumpsum())).body;
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(async () => (await app.http("GET", `/api/orders/v1/${id}`, { token })).body.status, { timeout: 10_000 }).toBe("ACCEPTED");
    } finally {
      await worker.stop();
    }
  });
});

describe("dispatch reads the details column through its schema", () => {
  it("sends the switch target and leaves out a stored euin that does not fit, with one warning", async () => {
    await createOpenScheme(app, "900009");
    const { id } = (await place({ order_type: "SWITCH", scheme_code: "900001", folio_no: "F-DETAILS-1", units: 10, switch: { to_scheme_code: "900009" } })).body;
    // A row an older version (or a hand edit) wrote: its euin does not fit the schema.
    await app.prisma.order.update({ where: { id }, data: { details: { switch: { to_scheme_code: "900009" }, euin: { code: 12345, declaration: "yes" } } } });
    const warnings: unknown[] = [];
    const log = { ...createLogger("silent"), warn: (entry: unknown) => warnings.push(entry) } as never;
    await dispatchOrder({ order_id: id }, { services: app.services, log, job: { attempts: 1, max_attempts: DISPATCH_ATTEMPTS } as never });

    const booked = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "ORDER", reference: id } } });
    expect(booked.payload).toMatchObject({ orderType: "SWITCH", schemeCode: "BSE900001", toSchemeCode: "BSE900009", euin: null, euinDeclared: false });
    expect(warnings).toEqual([{ order_id: id, invalid_paths: ["euin.code", "euin.declaration"] }]);
    expect((await app.http("GET", `/api/orders/v1/${id}`, { token })).body.status).toBe("ACCEPTED");
  });
});
