import { beforeAll, describe, expect, it } from "vitest";
import { registerInvestor } from "../../src/domains/investors/jobs/register.js";
import { sendInvestorChange } from "../../src/domains/investors/jobs/send-change.js";
import { DECLARATION_VERSION } from "../../src/domains/investors/nomination-declaration.js";
import { maskName } from "../../src/platform/lib/mask.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody, nomineeBody } from "../helpers/factories.js";
import { pendingInvestor, registeredInvestor, twoDistributors } from "../helpers/investors.js";
import { queuedJobs, runTask } from "../helpers/jobs.js";
import { expectPageHeaders, formOf, sameOrigin, sendPage } from "../helpers/pages.js";

const app = useTestApp();
let token = "";
let otherToken = "";

beforeAll(async () => {
  ({ token, otherToken } = await twoDistributors(app));
});

const UA = "Mozilla/5.0 (Linux; Android 14) ConsentPhone";
const withoutNominees = () => investorBody({ nominees: [] });

const optOut = (id: string, options: { token?: string; key?: string } = {}) =>
  app.http("POST", `/api/investors/v1/${id}/nomination-opt-out`, { token: options.token ?? token, headers: options.key ? { "idempotency-key": options.key } : {} });

const eventsOf = (investorId: string) =>
  app.prisma.event.findMany({ where: { resourceId: investorId }, orderBy: { createdAt: "asc" }, select: { event: true, data: true } });

/** The investor opens the consent page and confirms it without JavaScript (a plain form post). */
async function confirmOnPage(consentId: string) {
  const page = await sendPage(app, "GET", `/consents/${consentId}`, { headers: { "user-agent": UA } });
  expect(page.status).toBe(200);
  const { cookie, token: formToken } = formOf(page.headers, page.text);
  return sendPage(app, "POST", `/consents/${consentId}/confirm`, { form: { form_token: formToken }, headers: { ...sameOrigin(cookie), "user-agent": UA } });
}

describe("POST /api/investors/v1/{id}/nomination-opt-out", () => {
  it("creates a PENDING consent link (201) with its url and expiry; the same Idempotency-Key answers the same link", async () => {
    const { id } = await pendingInvestor(app, token, withoutNominees());
    const res = await optOut(id, { key: "opt-out-1" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cns_[0-9a-z]{32}$/),
      investor_id: id,
      status: "PENDING",
      url: expect.stringMatching(new RegExp(`/consents/${res.body.id}$`)),
      expires_at: expect.any(String),
      confirmed_at: null,
      declaration_version: null,
      created_at: expect.any(String),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(72 * 3_600_000);
    const again = await optOut(id, { key: "opt-out-1" });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(res.body);
    expect(await app.prisma.consentLink.count({ where: { investorId: id } })).toBe(1);
    const got = await app.http("GET", `/api/investors/v1/${id}/nomination-opt-out/${res.body.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const investor = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(investor.body.nomination).toEqual({ status: "NONE", opted_out_at: null, evidence: null });
  });

  it("another distributor's investor or link is 404", async () => {
    const { id } = await pendingInvestor(app, token, withoutNominees());
    const theirs = await optOut(id, { token: otherToken });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe("NOT_FOUND");
    const created = await optOut(id);
    const peek = await app.http("GET", `/api/investors/v1/${id}/nomination-opt-out/${created.body.id}`, { token: otherToken });
    expect(peek.status).toBe(404);
    expect(await app.prisma.consentLink.count({ where: { investorId: id } })).toBe(1);
  });

  it("an investor with nominees is refused (409 INVALID_STATE: remove them first)", async () => {
    const { id } = await pendingInvestor(app, token);
    const res = await optOut(id);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "INVALID_STATE", message: expect.stringContaining("remove them first") });
    const investor = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(investor.body.nomination).toEqual({ status: "NOMINATED", opted_out_at: null, evidence: null });
    expect(await app.prisma.consentLink.count({ where: { investorId: id } })).toBe(0);
  });
});

describe("the consent page /consents/{id}", () => {
  it("shows the declaration with the investor masked, and a form that works without JavaScript; confirming keeps the evidence (PENDING investor: OPTED_OUT at once)", async () => {
    const body = withoutNominees();
    const { id, pan } = await pendingInvestor(app, token, body);
    const consentId = (await optOut(id)).body.id;
    const page = await sendPage(app, "GET", `/consents/${consentId}`);
    expect(page.status).toBe(200);
    expectPageHeaders(page.headers);
    expect(page.text).toContain("Declaration for opting out of nomination");
    expect(page.text).toContain("legal heirs will have to establish their title");
    expect(page.text).toContain(`Declaration version ${DECLARATION_VERSION}`);
    expect(page.text).toContain(`<dd>${pan.slice(0, 2)}XXXXX${pan.slice(-3)}</dd>`);
    expect(page.text).toContain(`<dd>${maskName(body.primary_holder.name)}</dd>`);
    expect(page.text).not.toContain(pan);
    expect(page.text).not.toContain(body.primary_holder.name);
    expect(page.text).not.toContain("<script");

    const confirmed = await confirmOnPage(consentId);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe(`/consents/${consentId}`);
    const link = await app.prisma.consentLink.findUniqueOrThrow({ where: { id: consentId } });
    expect(link).toMatchObject({ status: "CONFIRMED", confirmIp: "127.0.0.1", confirmUserAgent: UA, declarationVersion: DECLARATION_VERSION });
    const investor = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(investor.body.nomination).toEqual({
      status: "OPTED_OUT",
      opted_out_at: link.confirmedAt!.toISOString(),
      evidence: { confirmed_at: link.confirmedAt!.toISOString(), ip: "127.0.0.1", user_agent: UA, declaration_version: DECLARATION_VERSION },
    });
    expect(await eventsOf(id)).toEqual([{ event: "investor.updated", data: { investor_id: id, change_id: consentId, fields: ["nomination"] } }]);
    // Its registration tells the exchange it opted out.
    await runTask(app, registerInvestor, { investor_id: id });
    const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id } });
    const ucc = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC", reference: uccCode } } });
    expect(ucc.payload).toMatchObject({ nominees: 0, nominationOptedOut: true });

    const after = await sendPage(app, "GET", `/consents/${consentId}`);
    expect(after.status).toBe(200);
    expect(after.text).toContain("You confirmed this declaration on");
    expect(after.text).not.toContain('name="form_token"');
    // A second post changes nothing.
    const { cookie, token: formToken } = formOf((await sendPage(app, "GET", `/consents/${consentId}`)).headers, page.text);
    expect((await sendPage(app, "POST", `/consents/${consentId}/confirm`, { form: { form_token: formToken }, headers: sameOrigin(cookie) })).status).toBe(403);
    expect(await eventsOf(id)).toHaveLength(1);
    // Nominees added later make it NOMINATED and end the opt-out.
    const patched = await app.http("PATCH", `/api/investors/v1/${id}`, { token, json: { nominees: [nomineeBody()] } });
    expect(patched.body.nomination).toEqual({ status: "NOMINATED", opted_out_at: null, evidence: null });
  });

  it("refuses a post without the form token, with a bad one, or from another site (403), recording nothing", async () => {
    const { id } = await pendingInvestor(app, token, withoutNominees());
    const consentId = (await optOut(id)).body.id;
    const page = await sendPage(app, "GET", `/consents/${consentId}`);
    const { cookie, token: formToken } = formOf(page.headers, page.text);
    const path = `/consents/${consentId}/confirm`;
    const missing = await sendPage(app, "POST", path, { form: {}, headers: sameOrigin(cookie) });
    const bad = await sendPage(app, "POST", path, { form: { form_token: "x".repeat(43) }, headers: sameOrigin(cookie) });
    const crossSite = await sendPage(app, "POST", path, { form: { form_token: formToken }, headers: { ...sameOrigin(cookie), "sec-fetch-site": "cross-site" } });
    for (const res of [missing, bad, crossSite]) {
      expect(res.status).toBe(403);
      expectPageHeaders(res.headers);
      expect(res.text).toContain("This form cannot be accepted");
    }
    expect(await app.prisma.consentLink.findUniqueOrThrow({ where: { id: consentId } })).toMatchObject({ status: "PENDING", confirmedAt: null });
  });

  it("an expired link shows the expired page (410) and cannot be confirmed; an unknown id is 404", async () => {
    const { id } = await pendingInvestor(app, token, withoutNominees());
    const consentId = (await optOut(id)).body.id;
    const page = await sendPage(app, "GET", `/consents/${consentId}`);
    const form = formOf(page.headers, page.text);
    await app.prisma.consentLink.update({ where: { id: consentId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const gone = await sendPage(app, "GET", `/consents/${consentId}`);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain("This link has expired");
    const late = await sendPage(app, "POST", `/consents/${consentId}/confirm`, { form: { form_token: form.token }, headers: sameOrigin(form.cookie) });
    expect(late.status).toBe(410);
    expect(await app.prisma.consentLink.findUniqueOrThrow({ where: { id: consentId } })).toMatchObject({ status: "EXPIRED", confirmedAt: null });
    expect((await app.http("GET", `/api/investors/v1/${id}/nomination-opt-out/${consentId}`, { token })).body.status).toBe("EXPIRED");
    expect((await app.http("GET", `/api/investors/v1/${id}`, { token })).body.nomination.status).toBe("NONE");
    const unknown = await sendPage(app, "GET", "/consents/cns_nosuchlink");
    expect(unknown.status).toBe(404);
    expectPageHeaders(unknown.headers);
  });

  it("a REGISTERED investor's opt-out goes to the exchange as a UCC modification; OPTED_OUT once the exchange applies it", async () => {
    const { id } = await registeredInvestor(app, token, withoutNominees());
    const consentId = (await optOut(id)).body.id;
    expect((await confirmOnPage(consentId)).status).toBe(303);
    const before = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(before.body.nomination.status).toBe("NONE");
    expect(before.body.pending_change).toMatchObject({ status: "PENDING", fields: ["nomination"] });
    const changeId: string = before.body.pending_change.id;
    expect(await queuedJobs(app, "investors__send_change", "change_id", changeId)).toHaveLength(1);
    await runTask(app, sendInvestorChange, { change_id: changeId });
    const booked = await app.prisma.sandboxExchangeRecord.findUniqueOrThrow({ where: { kind_reference: { kind: "UCC_CHANGE", reference: changeId } } });
    expect(booked).toMatchObject({ status: "PENDING", payload: { nominees: 0, nominationOptedOut: true, fatcaChanged: false } });
    expect((await app.http("GET", `/api/simulation/investors/v1/${id}/apply-change`, { token })).status).toBe(200);
    const after = await app.http("GET", `/api/investors/v1/${id}`, { token });
    expect(after.body.nomination).toMatchObject({ status: "OPTED_OUT", evidence: { ip: "127.0.0.1", user_agent: UA, declaration_version: DECLARATION_VERSION } });
    expect((await eventsOf(id)).slice(1)).toEqual([{ event: "investor.updated", data: { investor_id: id, change_id: changeId, fields: ["nomination"] } }]);
  });
});
