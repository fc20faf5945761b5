import { beforeAll, describe, expect, it } from "vitest";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { pendingInvestor } from "../helpers/investors.js";
import { dayPlus, today } from "../helpers/orders.js";
import { acceptedLink, createLink, linkingDistributor, lumpsumProposal, publicPath } from "../helpers/order-links.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof linkingDistributor>>;

beforeAll(async () => {
  ctx = await linkingDistributor(app, { mandate: true });
});

const linkOf = (id: string) => app.prisma.orderLink.findUniqueOrThrow({ where: { id } });
const confirm = (id: string) => app.http("POST", publicPath(id, "confirm"));
const pay = (linkId: string, json: unknown) => app.http("POST", publicPath(linkId, "pay"), { token: ctx.token, json });
const xsip = (overrides: Record<string, unknown> = {}) =>
  lumpsumProposal(ctx.investor, {
    order_type: "XSIP", purchase_type: undefined, amount: 1000, mandate_id: ctx.mandateId,
    sip: { frequency: "MONTHLY", start_date: dayPlus(1), installments: 6, installment_day: 5 }, ...overrides,
  });

describe("creation: the placement rules that do not depend on time, with placement's own details", () => {
  it.each([
    ["a per-type rule", { order_type: "REDEMPTION", amount: 100, units: 5 }],
    ["a schema rule", { amount: 10.123, sub_broker_arn: "ARN123" }],
    ["the scheme master", { scheme_code: "999999" }],
    ["the mandate's limit", { mandate_id: "__mandate__", amount: 50000.01 }],
    ["the investor's bank account", { bank_account_id: "bnk_not_the_investors" }],
  ])("refuses %s with the same 400 details as POST /api/orders/v1/, writing nothing", async (_name, overrides) => {
    const body = lumpsumProposal(ctx.investor, JSON.parse(JSON.stringify(overrides).replace("__mandate__", ctx.mandateId)));
    const placement = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: body });
    const links = await app.prisma.orderLink.count();
    const res = await createLink(app, ctx.token, { ...body, expires_in_hours: 24 });
    expect(placement.status).toBe(400);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(placement.body.error);
    expect(await app.prisma.orderLink.count()).toBe(links);
  });

  it("accepts a start date in the past (time-dependent) and refuses it at confirmation, the link staying ACTIVE", async () => {
    const past = xsip({ sip: { frequency: "MONTHLY", start_date: "2026-01-05", installments: 6, installment_day: 5 } });
    expect((await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: past })).body.error.details)
      .toEqual([{ path: "sip.start_date", reason: "date_in_past", message: "must be today or later" }]);
    const link = await createLink(app, ctx.token, { ...past, mandate_id: undefined, order_type: "SIP" });
    expect(link.status).toBe(201);
    const orders = await app.prisma.order.count();
    const res = await confirm(link.body.id);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "VALIDATION_ERROR", message: "The order breaks the rules for its type, scheme or account",
      details: [{ path: "sip.start_date", reason: "date_in_past", message: "must be today or later" }],
    });
    expect(await linkOf(link.body.id)).toMatchObject({ status: "ACTIVE", orderId: null, consentAt: null, confirmation: null });
    expect(await app.prisma.order.count()).toBe(orders);
  });

  it("refuses a proposal for an investor not yet REGISTERED (a state, not time) and an account of another distributor (404)", async () => {
    const pending = await pendingInvestor(app, ctx.token);
    const res = await createLink(app, ctx.token, lumpsumProposal(pending));
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: "investment_account_id", reason: "investor_not_registered" })]);
    expect((await createLink(app, ctx.otherToken, lumpsumProposal(ctx.investor))).status).toBe(404);
  });

  it("takes expires_in_hours 1-168, whole hours, default 72", async () => {
    for (const [hours, path] of [[0, "too_small"], [169, "too_big"], [1.5, "invalid_type"], ["24", "invalid_type"]] as const) {
      const res = await createLink(app, ctx.token, { ...lumpsumProposal(ctx.investor), expires_in_hours: hours });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ path: "expires_in_hours", reason: path })]);
    }
    const hour = await createLink(app, ctx.token, { ...lumpsumProposal(ctx.investor), expires_in_hours: 1 });
    expect(Date.parse(hour.body.expires_at) - Date.parse(hour.body.created_at)).toBe(3600_000);
    const week = await createLink(app, ctx.token, { ...lumpsumProposal(ctx.investor), expires_in_hours: 168 });
    expect(Date.parse(week.body.expires_at) - Date.parse(week.body.created_at)).toBe(168 * 3600_000);
    expect((await createLink(app, ctx.token, { ...lumpsumProposal(ctx.investor), surprise: 1 })).body.error.details)
      .toEqual([{ path: "surprise", reason: "unknown_field", message: "Unknown field: remove it, or check its spelling" }]);
  });

  it("answers a repeated client_ref with the same body with the same link, another body 409; an order's client_ref is taken", async () => {
    const body = lumpsumProposal(ctx.investor, { client_ref: "link-ref-1" });
    const first = await createLink(app, ctx.token, body);
    const second = await createLink(app, ctx.token, body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    const other = await createLink(app, ctx.token, { ...body, amount: 3000 });
    expect(other.status).toBe(409);
    expect(other.body.error).toEqual({ code: "CONFLICT", message: "client_ref link-ref-1 is already used by another order link with a different body" });
    expect(other.text).not.toContain(first.body.id);

    const order = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: lumpsumProposal(ctx.investor, { client_ref: "order-ref-1" }) });
    const taken = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { client_ref: "order-ref-1" }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(`client_ref order-ref-1 is already used by order ${order.body.id}`);
  });

  it("honours Idempotency-Key: the same key and body answer the first link, another body 409", async () => {
    const headers = { "idempotency-key": "link-key-1" };
    const first = await createLink(app, ctx.token, lumpsumProposal(ctx.investor), headers);
    const repeat = await createLink(app, ctx.token, lumpsumProposal(ctx.investor), headers);
    expect(repeat.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    expect(await app.prisma.orderLink.count({ where: { id: first.body.id } })).toBe(1);
    expect((await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { amount: 99 }), headers)).status).toBe(409);
  });
});

describe("states", () => {
  it("cancels an ACTIVE link once; a cancelled link cannot be confirmed (409) and stays cancelled", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const cancelled = await app.http("POST", `/api/order-links/v1/${link.body.id}/cancel`, { token: ctx.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ ...link.body, status: "CANCELLED" });
    const again = await app.http("POST", `/api/order-links/v1/${link.body.id}/cancel`, { token: ctx.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: "INVALID_STATE", message: "The order link is CANCELLED; only an ACTIVE link can be cancelled" });
    const res = await confirm(link.body.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: "INVALID_STATE", message: "The order link is CANCELLED; only an ACTIVE link can be confirmed" });
    expect((await app.http("GET", publicPath(link.body.id))).body.status).toBe("CANCELLED");
    expect((await pay(link.body.id, { mode: "UPI", vpa: "a@b" })).status).toBe(409);
  });

  it("cannot cancel a confirmed link", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    await confirm(link.body.id);
    expect((await app.http("POST", `/api/order-links/v1/${link.body.id}/cancel`, { token: ctx.token })).status).toBe(409);
  });

  it("treats a link past expires_at as EXPIRED before the job has run: 409 on confirm and cancel, EXPIRED in views and lists", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    await app.prisma.orderLink.update({ where: { id: link.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await confirm(link.body.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: "INVALID_STATE", message: "The order link is EXPIRED; only an ACTIVE link can be confirmed" });
    expect((await app.http("POST", `/api/order-links/v1/${link.body.id}/cancel`, { token: ctx.token })).status).toBe(409);
    expect((await app.http("GET", publicPath(link.body.id))).body.status).toBe("EXPIRED");
    expect((await app.http("GET", `/api/order-links/v1/${link.body.id}`, { token: ctx.token })).body.status).toBe("EXPIRED");
    const ids = async (status: string) =>
      (await app.http("GET", `/api/order-links/v1?status=${status}&limit=100`, { token: ctx.token })).body.data.map((l: { id: string }) => l.id);
    expect(await ids("EXPIRED")).toContain(link.body.id);
    expect(await ids("ACTIVE")).not.toContain(link.body.id);
    expect(await linkOf(link.body.id)).toMatchObject({ status: "ACTIVE", orderId: null });
  });

  it("refuses a confirmation whose proposal no longer passes (the mandate was cancelled): 400, link ACTIVE, nothing written", async () => {
    const own = await linkingDistributor(app, { mandate: true });
    const link = await createLink(app, own.token, lumpsumProposal(own.investor, { mandate_id: own.mandateId }));
    expect(link.status).toBe(201);
    expect((await app.http("POST", `/api/mandates/v1/${own.mandateId}/cancel`, { token: own.token })).status).toBe(200);
    const orders = await app.prisma.order.count();
    const res = await confirm(link.body.id);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "mandate_id", reason: "mandate_not_registered", message: "the mandate is CANCELLED: name a REGISTERED mandate of the investor" }]);
    expect(await linkOf(link.body.id)).toMatchObject({ status: "ACTIVE", orderId: null, consentAt: null });
    expect(await app.prisma.order.count()).toBe(orders);
  });

  it("refuses a confirmation when an order took the link's client_ref in the meantime (409), link ACTIVE", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { client_ref: "race-ref" }));
    const order = await app.http("POST", "/api/orders/v1/", { token: ctx.token, json: lumpsumProposal(ctx.investor, { client_ref: "race-ref" }) });
    expect(order.status).toBe(201);
    const res = await confirm(link.body.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual({ code: "CONFLICT", message: `client_ref race-ref is already used by order ${order.body.id}` });
    expect((await linkOf(link.body.id)).status).toBe("ACTIVE");
  });

  it("confirm takes no body fields", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const res = await app.http("POST", publicPath(link.body.id, "confirm"), { json: { amount: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: "amount", reason: "unknown_field", message: "Unknown field: remove it, or check its spelling" }]);
    expect((await linkOf(link.body.id)).status).toBe("ACTIVE");
  });
});

describe("pay refusals", () => {
  it("is 409 on an ACTIVE link and before the exchange has ACCEPTED the order", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { remarks: "SIM:HOLD" }));
    const before = await pay(link.body.id, { mode: "UPI", vpa: "asha@okhdfc" });
    expect(before.status).toBe(409);
    expect(before.body.error).toEqual({ code: "INVALID_STATE", message: "The order link is ACTIVE; it is paid once confirmed and accepted by the exchange" });
    await confirm(link.body.id);
    const pending = await pay(link.body.id, { mode: "UPI", vpa: "asha@okhdfc" });
    expect(pending.status).toBe(409);
    expect(pending.body.error.message).toBe("The order is PENDING; it can be paid once the exchange has ACCEPTED it");
    expect(await app.prisma.payment.count({ where: { investorId: ctx.investor.id, mode: "UPI" } })).toBe(0);
  });

  it.each([
    ["an unknown mode", { mode: "CASH" }, [{ path: "mode", reason: "invalid_value" }]],
    ["UPI without vpa", { mode: "UPI" }, [{ path: "vpa", reason: "required" }]],
    ["a malformed vpa", { mode: "UPI", vpa: "asha at okhdfc" }, [{ path: "vpa", reason: "invalid_format" }]],
    ["a vpa with two @", { mode: "UPI", vpa: "a@b@c" }, [{ path: "vpa", reason: "invalid_format" }]],
    ["a vpa over 60 characters", { mode: "UPI", vpa: `${"a".repeat(55)}@okhdfc` }, [{ path: "vpa", reason: "too_big" }]],
    ["NETBANKING without an account", { mode: "NETBANKING" }, [{ path: "bank_account_id", reason: "required" }]],
    ["a field of another mode", { mode: "UPI", vpa: "a@b", mandate_id: "mdt_x" }, [{ path: "mandate_id", reason: "field_not_allowed" }]],
    ["MANDATE without a mandate", { mode: "MANDATE" }, [{ path: "mandate_id", reason: "required" }]],
    ["CHEQUE without a cheque", { mode: "CHEQUE" }, [{ path: "cheque", reason: "required" }]],
    ["a cheque number of 5 digits", { mode: "CHEQUE", cheque: { number: "12345", date: today(), bank_name: "HDFC" } }, [{ path: "cheque.number", reason: "invalid_format" }]],
    ["a cheque without its bank", { mode: "CHEQUE", cheque: { number: "123456", date: "2026-02-30" } }, [{ path: "cheque.date", reason: "invalid_date" }, { path: "cheque.bank_name", reason: "required" }]],
    ["an unknown field", { mode: "UPI", vpa: "a@b", tip: 5 }, [{ path: "tip", reason: "unknown_field" }]],
  ])("refuses %s with 400 naming the field", async (_name, body, expected) => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor));
    const res = await pay(link.body.id, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual(expected.map((d) => expect.objectContaining(d)));
  });

  it("refuses another investor's bank account and mandate, a mandate not REGISTERED and an amount over the mandate's limit", async () => {
    const other = await linkingDistributor(app, { mandate: true });
    const { linkId } = await acceptedLink(app, ctx.token, lumpsumProposal(ctx.investor, { amount: 50000.5 }));
    const cases: Array<[unknown, unknown]> = [
      [{ mode: "NETBANKING", bank_account_id: other.investor.bankAccountId }, { path: "bank_account_id", reason: "bank_account_not_found", message: "is not a bank account of the investor: choose one of the investor's bank accounts" }],
      [{ mode: "MANDATE", mandate_id: other.mandateId }, { path: "mandate_id", reason: "mandate_not_registered", message: "is not a mandate of the investor: choose one of the investor's REGISTERED mandates" }],
      [{ mode: "MANDATE", mandate_id: ctx.mandateId }, { path: "mandate_id", reason: "amount_exceeds_mandate_limit", message: "the amount 50000.50 exceeds the mandate's limit of 50000.00: choose another mandate or payment mode" }],
    ];
    for (const [body, detail] of cases) {
      const res = await pay(linkId, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([detail]);
    }
    expect(await app.prisma.payment.count({ where: { investorId: ctx.investor.id, amount: "50000.50" } })).toBe(0);
  });

  it("is 409 once the order is rejected", async () => {
    const link = await createLink(app, ctx.token, lumpsumProposal(ctx.investor, { remarks: "SIM:HOLD" }));
    const confirmed = await confirm(link.body.id);
    await runTask(app, dispatchOrder, { order_id: confirmed.body.id });
    expect((await app.http("GET", `/api/simulation/orders/v1/${confirmed.body.id}/reject`, { token: ctx.token })).status).toBe(200);
    const res = await pay(link.body.id, { mode: "UPI", vpa: "asha@okhdfc" });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe("The order is REJECTED; it can be paid once the exchange has ACCEPTED it");
  });
});
