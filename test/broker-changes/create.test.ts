import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, BC_AMC, createBrokerChange, twoFaBody, wetSignatureBody } from "../helpers/broker-changes.js";
import { pendingInvestor } from "../helpers/investors.js";
import { queuedJobs } from "../helpers/jobs.js";
import { eventNames } from "../helpers/orders.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

const masked = (pan: string) => `${pan.slice(0, 2)}XXXXX${pan.slice(7)}`;
const ids = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((r) => r.id);

describe("POST /api/broker-changes/v1", () => {
  it("creates a WET_SIGNATURE request: 201 PENDING_DOCUMENT, the caller's ARN, the PAN masked, no event or job yet", async () => {
    const res = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor, {
      folio_no: "1234567/89", client_ref: "bc-wet-1", euin: "E123456", sub_broker_code: "ARN-99887", ria_code: "INA000012345",
    }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^bcr_[0-9a-z]{26}$/),
      investor_id: ctx.investor.id,
      pan: masked(ctx.investor.pan),
      amc_code: BC_AMC,
      folio_no: "1234567/89",
      auth_mode: "WET_SIGNATURE",
      status: "PENDING_DOCUMENT",
      broker_code: ctx.arn,
      client_ref: "bc-wet-1",
      euin: "E123456",
      sub_broker_code: "ARN-99887",
      ria_code: "INA000012345",
      two_fa_channel: null,
      provider_remark: null,
      document: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.body.created_at).toBe(res.body.updated_at);
    expect(res.text).not.toContain(ctx.investor.pan);
    expect(await eventNames(app, res.body.id)).toEqual([]);
    expect(await queuedJobs(app, "broker_changes__submit", "broker_change_id", res.body.id)).toEqual([]);
    const row = await app.prisma.brokerChange.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row).toMatchObject({ distributorId: ctx.caller.distributorId, status: "PENDING_DOCUMENT", brokerCode: ctx.arn, handedOverAt: null });
  });

  it("creates a TWO_FA request SUBMITTED at once, with broker_change.submitted and the registrar job in the same transaction", async () => {
    const res = await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor, { two_fa_channel: "SMS" }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ auth_mode: "TWO_FA", two_fa_channel: "SMS", status: "SUBMITTED", document: null, client_ref: null, euin: null });
    expect(await eventNames(app, res.body.id)).toEqual(["broker_change.submitted"]);
    const event = await app.prisma.event.findFirstOrThrow({ where: { resourceId: res.body.id } });
    expect(event).toMatchObject({ resourceType: "broker_change", distributorId: ctx.caller.distributorId });
    expect(event.data).toEqual({ broker_change_id: res.body.id, status: "SUBMITTED", provider_remark: null });
    expect(await queuedJobs(app, "broker_changes__submit", "broker_change_id", res.body.id)).toEqual([
      { key: `broker_changes__submit:${res.body.id}`, payload: { broker_change_id: res.body.id }, max_attempts: 25 },
    ]);
  });

  it("normalises codes to upper case (folio, AMC, EUIN, sub-broker ARN, RIA code)", async () => {
    const res = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor, {
      amc_code: ` ${BC_AMC.toLowerCase()} `, folio_no: "ab-12", euin: "e654321", sub_broker_code: "arn-1", ria_code: "ina123456789",
    }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amc_code: BC_AMC, folio_no: "AB-12", euin: "E654321", sub_broker_code: "ARN-1", ria_code: "INA123456789" });
  });

  it("answers a repeated Idempotency-Key with the same request, once (one row, one event); another body with it is 409", async () => {
    const body = twoFaBody(ctx.investor, { client_ref: "bc-idem" });
    const first = await createBrokerChange(app, ctx.token, body, { "idempotency-key": "bc-idem-1" });
    const second = await createBrokerChange(app, ctx.token, body, { "idempotency-key": "bc-idem-1" });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body).toEqual(first.body);
    expect(await app.prisma.brokerChange.count({ where: { clientRef: "bc-idem" } })).toBe(1);
    expect(await eventNames(app, first.body.id)).toEqual(["broker_change.submitted"]);
    const other = await createBrokerChange(app, ctx.token, { ...body, folio_no: "999" }, { "idempotency-key": "bc-idem-1" });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("CONFLICT");
    expect(await app.prisma.brokerChange.count({ where: { clientRef: "bc-idem" } })).toBe(1);
  });
});

describe("GET /api/broker-changes/v1/{id} and the list", () => {
  it("reads a request back as created", async () => {
    const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor, { client_ref: "bc-read" }));
    const read = await app.http("GET", `/api/broker-changes/v1/${created.body.id}`, { token: ctx.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it("lists the caller's requests newest first, filtered by status and investor, page by page", async () => {
    const { token } = await app.newDistributor();
    const asha = await pendingInvestor(app, token);
    const ravi = await pendingInvestor(app, token);
    const created: string[] = [];
    for (const body of [wetSignatureBody(asha), twoFaBody(asha), wetSignatureBody(ravi), twoFaBody(ravi), wetSignatureBody(asha)]) {
      created.push((await createBrokerChange(app, token, body)).body.id);
    }
    const list = (query: string) => app.http("GET", `/api/broker-changes/v1${query}`, { token });
    const all = await list("");
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual([...created].reverse());
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.data[0]).toEqual((await app.http("GET", `/api/broker-changes/v1/${created[4]}`, { token })).body);

    expect(ids(await list("?status=SUBMITTED"))).toEqual([created[3], created[1]]);
    const ashas = await list(`?investor_id=${asha.id}`);
    expect(ids(ashas)).toEqual([created[4], created[1], created[0]]);
    expect(ashas.body.data.map((r: { pan: string }) => r.pan)).toEqual(Array(3).fill(masked(asha.pan)));
    expect(ids(await list(`?status=PENDING_DOCUMENT&investor_id=${ravi.id}`))).toEqual([created[2]]);

    const page1 = await list("?limit=2");
    expect(ids(page1)).toEqual([created[4], created[3]]);
    const page2 = await list(`?limit=2&cursor=${page1.body.next_cursor}`);
    expect(ids(page2)).toEqual([created[2], created[1]]);
    const page3 = await list(`?limit=2&cursor=${page2.body.next_cursor}`);
    expect(page3.body).toEqual({ data: [expect.objectContaining({ id: created[0] })], next_cursor: null });
  });

  it("refuses a bad status, limit or cursor, and an unknown query parameter, with 400 on its path", async () => {
    for (const [query, path, reason] of [
      ["?status=APPROVED", "status", "invalid_value"],
      ["?limit=0", "limit", "too_small"],
      ["?limit=101", "limit", "too_big"],
      ["?cursor=not-a-cursor", "cursor", "invalid_cursor"],
      ["?folio_no=1", "folio_no", "unknown_field"],
    ] as const) {
      const res = await app.http("GET", `/api/broker-changes/v1${query}`, { token: ctx.token });
      expect([query, res.status, res.body.error.code]).toEqual([query, 400, "VALIDATION_ERROR"]);
      expect(res.body.error.details).toEqual([{ path, reason, message: expect.any(String) }]);
    }
  });
});
