import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitToRegistrarJob } from "../../src/domains/broker-changes/jobs/submit-to-registrar.js";
import { ManualRegistrar } from "../../src/integrations/registrars/registrar.js";
import { deliverWebhooks } from "../../src/domains/webhooks/jobs/deliver.js";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, SAMPLE_PDF, signedForm, submittedWetSignature, twoFaBody, wetSignatureBody } from "../helpers/broker-changes.js";
import { runTask } from "../helpers/jobs.js";
import { capturingLogger } from "../helpers/logs.js";
import { eventNames } from "../helpers/orders.js";
import { startReceiver, type Receiver } from "../helpers/receiver.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;
let receiver: Receiver;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const masked = (pan: string) => `${pan.slice(0, 2)}XXXXX${pan.slice(7)}`;
const rowOf = (id: string) => app.prisma.brokerChange.findUniqueOrThrow({ where: { id } });
const bookOf = (id: string) => app.prisma.sandboxExchangeRecord.findUnique({ where: { kind_reference: { kind: "BROKER_CHANGE", reference: id } } });
const submit = (id: string, services = app.services) => runTask(app, submitToRegistrarJob, { broker_change_id: id }, { services });
const reject = (id: string, remark?: string, token = ctx.token) =>
  app.http("GET", `/api/simulation/broker-changes/v1/${id}/reject${remark === undefined ? "" : `?remark=${encodeURIComponent(remark)}`}`, { token });

describe("the submit job and the registrar port", () => {
  it("hands a TWO_FA request to the sandbox registrar once: booked with the PAN masked, reference and time kept", async () => {
    const id = (await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor, { euin: "E123456" }))).body.id;
    await submit(id);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: "SUBMITTED", registrarReference: `SBX-${id}`, handedOverAt: expect.any(Date) });
    const book = await bookOf(id);
    expect(book).toMatchObject({ status: "PENDING", remark: "SANDBOX: RECEIVED BY THE REGISTRAR" });
    expect(book!.payload).toEqual({
      broker_change_id: id, amc_code: row.amcCode, folio_no: row.folioNo, pan: masked(ctx.investor.pan), auth_mode: "TWO_FA",
      two_fa_channel: "EMAIL", broker_code: ctx.arn, euin: "E123456", sub_broker_code: null, ria_code: null, document: null,
    });
    await submit(id);
    expect((await rowOf(id)).handedOverAt).toEqual(row.handedOverAt);
  });

  it("hands a WET_SIGNATURE request over with its form's metadata (never the bytes in the books), and leaves a PENDING_DOCUMENT one alone", async () => {
    const id = await submittedWetSignature(app, ctx);
    await submit(id);
    expect((await bookOf(id))!.payload).toMatchObject({
      auth_mode: "WET_SIGNATURE", document: { content_type: "application/pdf", size: SAMPLE_PDF.length, sha256: signedForm().sha256 },
    });
    const waiting = (await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor))).body.id;
    await submit(waiting);
    expect(await rowOf(waiting)).toMatchObject({ status: "PENDING_DOCUMENT", handedOverAt: null });
    expect(await bookOf(waiting)).toBeNull();
  });

  it("in production logs the hand-over for manual filing (PAN masked), with no reference and nothing booked", async () => {
    const id = (await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor))).body.id;
    const { lines, parsed, logger } = capturingLogger();
    await submit(id, { ...app.services, registrar: new ManualRegistrar(logger) });
    expect(await rowOf(id)).toMatchObject({ registrarReference: null, handedOverAt: expect.any(Date) });
    expect(await bookOf(id)).toBeNull();
    expect(parsed()).toEqual([
      expect.objectContaining({ msg: "broker change awaits manual filing with the registrar", broker_change: expect.objectContaining({ broker_change_id: id, folio_no: "1234567/89", auth_mode: "TWO_FA" }) }),
    ]);
    expect(lines.join("\n")).not.toContain(ctx.investor.pan);
  });
});

describe("GET /api/simulation/broker-changes/v1/{id}/reject", () => {
  it("moves a SUBMITTED request to REJECTED with the remark (PANs masked) and one broker_change.rejected", async () => {
    const id = (await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor))).body.id;
    await submit(id);
    const res = await reject(id, `Folio not held by PAN ${ctx.investor.pan}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Broker change request rejected", data: id });
    const remark = `Folio not held by PAN ${masked(ctx.investor.pan)}`;
    const read = await app.http("GET", `/api/broker-changes/v1/${id}`, { token: ctx.token });
    expect(read.body).toMatchObject({ status: "REJECTED", provider_remark: remark });
    expect(await rowOf(id)).toMatchObject({ status: "REJECTED", providerRemark: remark });
    expect(await bookOf(id)).toMatchObject({ status: "REJECTED", remark });
    expect(await eventNames(app, id)).toEqual(["broker_change.submitted", "broker_change.rejected"]);
    const rejected = await app.prisma.event.findFirstOrThrow({ where: { resourceId: id, event: "broker_change.rejected" } });
    expect(rejected.data).toEqual({ broker_change_id: id, status: "REJECTED", provider_remark: remark });

    const again = await reject(id);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      success: false,
      error: { code: "INVALID_STATE", message: `Broker change request ${id} is REJECTED; only a SUBMITTED broker change request can be rejected` },
      request_id: expect.any(String),
    });
    expect(await eventNames(app, id)).toEqual(["broker_change.submitted", "broker_change.rejected"]);
    const logs = app.logs.join("\n");
    expect(logs).not.toContain(ctx.investor.pan);
  });

  it("uses the sandbox remark by default, and refuses a request still PENDING_DOCUMENT (409, nothing changes)", async () => {
    const submitted = await submittedWetSignature(app, ctx);
    expect((await reject(submitted)).status).toBe(200);
    expect(await rowOf(submitted)).toMatchObject({ providerRemark: "SANDBOX: BROKER CHANGE REJECTED BY SIMULATION" });

    const waiting = (await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor))).body.id;
    const res = await reject(waiting);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: "INVALID_STATE", message: `Broker change request ${waiting} is PENDING_DOCUMENT; only a SUBMITTED broker change request can be rejected` });
    expect(await rowOf(waiting)).toMatchObject({ status: "PENDING_DOCUMENT", providerRemark: null });
    expect(await eventNames(app, waiting)).toEqual([]);
  });
});

describe("webhooks", () => {
  it("delivers broker_change.submitted and broker_change.rejected to a broker_change.* subscription, once each, and to no other", async () => {
    const { token, distributor_id: distributorId, client_id: clientId } = await app.newDistributor();
    const subscribe = async (events: string[]) => {
      const res = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: receiver.url(), events } });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    const wildcard = await subscribe(["broker_change.*"]);
    const rejectedOnly = await subscribe(["broker_change.rejected"]);
    const orders = await subscribe(["order.*"]);
    const { pendingInvestor } = await import("../helpers/investors.js");
    const investor = await pendingInvestor(app, token);
    const id = await submittedWetSignature(app, { token, caller: { distributorId, clientId }, investor });
    expect((await reject(id, undefined, token)).status).toBe(200);
    const deliveries = (subscriptionId: string) =>
      app.prisma.webhookDelivery.findMany({ where: { subscriptionId }, orderBy: { id: "asc" }, select: { event: true } });
    expect(await deliveries(wildcard)).toEqual([{ event: "broker_change.submitted" }, { event: "broker_change.rejected" }]);
    expect(await deliveries(rejectedOnly)).toEqual([{ event: "broker_change.rejected" }]);
    expect(await deliveries(orders)).toEqual([]);

    receiver.answer({ status: 204 });
    const before = receiver.received.length;
    await runTask(app, deliverWebhooks, {});
    const bodies = (await receiver.waitFor(before + 3)).slice(before).map((r) => JSON.parse(r.body.toString("utf8")));
    expect(bodies).toContainEqual({ success: true, data: { broker_change_id: id, status: "SUBMITTED", provider_remark: null } });
    expect(bodies).toContainEqual({ success: true, data: { broker_change_id: id, status: "REJECTED", provider_remark: "SANDBOX: BROKER CHANGE REJECTED BY SIMULATION" } });
    expect(JSON.stringify(bodies)).not.toContain(investor.pan);
  });
});
