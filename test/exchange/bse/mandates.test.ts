import { describe, expect, it } from "vitest";
import { BseExchange, MANDATE_CANCEL_REMARK } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import { mandateOutcomeOf } from "../../../src/integrations/exchange/bse/mandates.js";
import { ExchangeUnavailableError } from "../../../src/integrations/exchange/port.js";
import { registerInvestor } from "../../../src/domains/investors/jobs/register.js";
import { cancelMandateAtExchange, checkMandateStatus, registerMandate } from "../../../src/domains/mandates/jobs/register.js";
import { todayInIndia } from "../../../src/platform/lib/india-date.js";
import { useTestApp } from "../../helpers/app.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { hurried } from "../../helpers/bse-double/hurried.js";
import { WEB_SERVICE } from "../../helpers/bse-double/registrations.js";
import { mandateBody, pendingInvestor } from "../../helpers/investors.js";
import { queuedJobs, runTask } from "../../helpers/jobs.js";
import { capturingLogger } from "../../helpers/logs.js";

const env: Record<string, string> = {};
// The app keeps the double's 2-second call budget; only the calls scripted to hang get a short one (`hurried`).
const double = useBseDouble(env);
const app = useTestApp(env);
const bse = () => app.services.exchange as BseExchange;

/** A mandate of an investor the exchange has registered (through the real registration job), PENDING; its id. */
async function pendingMandate(overrides: Record<string, unknown> = {}) {
  const { token } = await app.newDistributor();
  const investor = await pendingInvestor(app, token);
  await runTask(app, registerInvestor, { investor_id: investor.id });
  const created = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, overrides) });
  expect(created.status).toBe(201);
  return created.body.id as string;
}
const mandateRow = (id: string) =>
  app.prisma.mandate.findUniqueOrThrow({ where: { id }, select: { status: true, exchangeMandateId: true, providerRemark: true } });
const clientCodeOf = async (id: string) => (await app.prisma.mandate.findUniqueOrThrow({ where: { id }, include: { investor: true } })).investor.uccCode;
const mandatesAtExchange = (clientCode: string) => [...double.current.registrations.mandates.values()].filter((m) => m.clientCode === clientCode);
const flag06Calls = () => double.current.calls.filter((c) => c.operation === "MFAPI" && c.params.some(([name, value]) => name === "Flag" && value === "06")).length;
const eventsOf = async (id: string) => (await app.prisma.event.findMany({ where: { resourceId: id }, orderBy: { createdAt: "asc" } })).map((e) => e.event);

describe("mandates through the BSE adapter against the double", () => {
  it("registration (flag 06) gives the exchange's mandate id and stays PENDING; APPROVED by the bank makes it REGISTERED", async () => {
    const id = await pendingMandate();
    await runTask(app, registerMandate, { mandate_id: id });
    const registered = await mandateRow(id);
    expect(registered).toEqual({ status: "PENDING", exchangeMandateId: expect.stringMatching(/^\d+$/), providerRemark: `MANDATE REGISTRATION DONE SUCCESSFULLY ${registered.exchangeMandateId}` });
    const atExchange = double.current.registrations.mandates.get(registered.exchangeMandateId!)!;
    expect([atExchange.type, atExchange.amount]).toEqual(["N", "25000.50"]);

    // A repeated job does not register a second mandate.
    await runTask(app, registerMandate, { mandate_id: id });
    expect(double.current.registrations.mandates.size).toBe(1);

    await runTask(app, checkMandateStatus, { mandate_id: id });
    expect(await mandateRow(id)).toMatchObject({ status: "PENDING", providerRemark: "REGISTERED BY MEMBER" });
    double.current.registrations.setMandateStatus(registered.exchangeMandateId!, "APPROVED");
    await runTask(app, checkMandateStatus, { mandate_id: id });
    expect(await mandateRow(id)).toEqual({ status: "REGISTERED", exchangeMandateId: registered.exchangeMandateId, providerRemark: null });
    expect(await eventsOf(id)).toEqual(["mandate.registered"]);
  });

  it("the bank's rejection is REJECTED with its words (PANs masked); the exchange's refusal of the registration too", async () => {
    const id = await pendingMandate();
    await runTask(app, registerMandate, { mandate_id: id });
    const { exchangeMandateId } = await mandateRow(id);
    double.current.registrations.setMandateStatus(exchangeMandateId!, "REJECTED BY SPONSOR BANK", "ACCOUNT CLOSED FOR PAN ABCDE1234F");
    await runTask(app, checkMandateStatus, { mandate_id: id });
    expect(await mandateRow(id)).toMatchObject({ status: "REJECTED", providerRemark: "REJECTED BY SPONSOR BANK: ACCOUNT CLOSED FOR PAN ABXXXXX34F" });
    expect(await eventsOf(id)).toEqual(["mandate.rejected"]);

    const refused = await pendingMandate();
    double.current.registrations.rejectNext("06", "FAILED: MANDATE AMOUNT EXCEEDS THE LIMIT");
    await runTask(app, registerMandate, { mandate_id: refused });
    expect(await mandateRow(refused)).toEqual({ status: "REJECTED", exchangeMandateId: null, providerRemark: "FAILED: MANDATE AMOUNT EXCEEDS THE LIMIT" });
  });

  it("a registration refused for our member is unavailable (the job retries), and once the member is fixed goes again: one mandate at the exchange", async () => {
    const id = await pendingMandate();
    const calls = flag06Calls();
    double.current.registrations.rejectNext("06", "THE MEMBER IS SUSPENDED. CONTACT ADMIN");
    const error = await runTask(app, registerMandate, { mandate_id: id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as Error).message).toBe("BSE mandate registration refused: THE MEMBER IS SUSPENDED. CONTACT ADMIN");
    expect(await mandateRow(id)).toEqual({ status: "PENDING", exchangeMandateId: null, providerRemark: null });

    await runTask(app, registerMandate, { mandate_id: id }, { attempts: 2 });
    const registered = await mandateRow(id);
    expect(registered).toMatchObject({ status: "PENDING", exchangeMandateId: expect.stringMatching(/^\d+$/) });
    expect(flag06Calls()).toBe(calls + 2);
    expect(mandatesAtExchange(await clientCodeOf(id)).map((m) => m.mandateId)).toEqual([registered.exchangeMandateId]);
  });

  it("status texts: APPROVED, the REJECT... ones and CANCELLED BY INVESTOR are final; unknown text is in progress", () => {
    expect(mandateOutcomeOf("APPROVED", "")).toEqual({ status: "REGISTERED", remark: null });
    expect(mandateOutcomeOf("INITIAL REJECTION", "")).toEqual({ status: "REJECTED", remark: "INITIAL REJECTION" });
    expect(mandateOutcomeOf("REJECTION AT NPCI PRIOR TO DESTINATION BANK", "x")).toEqual({ status: "REJECTED", remark: "REJECTION AT NPCI PRIOR TO DESTINATION BANK: x" });
    expect(mandateOutcomeOf("CANCELLED BY INVESTOR", "")).toMatchObject({ status: "REJECTED" });
    expect(mandateOutcomeOf("RECEIVED BY EXCHANGE AND ASSIGNED TO HSBC BANK", "")).toEqual({ status: "PENDING", remark: "RECEIVED BY EXCHANGE AND ASSIGNED TO HSBC BANK" });
    expect(mandateOutcomeOf("APPROVED BY SPONSOR BANK", "")).toMatchObject({ status: "PENDING" });
  });

  it("sessions: the upload session expiring mid-registration and the access token expiring mid-status are each renewed once", async () => {
    const id = await pendingMandate();
    await bse().registerMandate({ mandateId: "mdt_warmup", clientCode: (await app.prisma.mandate.findUniqueOrThrow({ where: { id }, include: { investor: true } })).investor.uccCode, mandateType: "ENACH", amountLimit: "1000.00", startDate: "2026-12-01", endDate: null, bank: { accountNumber: "001234567890", ifsc: "HDFC0001234", accountType: "SB" } });
    const logins = double.current.sessions.logins.upload;
    double.current.failNext("MFAPI", "expire-session");
    await runTask(app, registerMandate, { mandate_id: id });
    expect(double.current.sessions.logins.upload).toBe(logins + 1);
    const { exchangeMandateId } = await mandateRow(id);
    expect(exchangeMandateId).not.toBeNull();

    double.current.registrations.setMandateStatus(exchangeMandateId!, "APPROVED");
    double.current.failNext(`${WEB_SERVICE}/MandateDetails`, "expire-session");
    await runTask(app, checkMandateStatus, { mandate_id: id });
    expect((await mandateRow(id)).status).toBe("REGISTERED");
  });

  it("a timeout is ExchangeUnavailableError: the job throws and the mandate stays PENDING without an exchange id", async () => {
    const id = await pendingMandate();
    double.current.failNext("MFAPI", "timeout-before");
    await expect(runTask(app, registerMandate, { mandate_id: id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(await mandateRow(id)).toMatchObject({ status: "PENDING", exchangeMandateId: null });
    // Before the exchange has it, its status is PENDING without asking.
    expect(await bse().mandateStatus(id)).toEqual({ status: "PENDING", remark: null });
    await runTask(app, registerMandate, { mandate_id: id }, { attempts: 2 });
    double.current.failNext(`${WEB_SERVICE}/GetAccessToken`, "timeout-before");
    await expect(runTask(app, checkMandateStatus, { mandate_id: id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
  });

  it("the e-NACH authentication URL for an ENACH mandate; none for a physical one or before registration", async () => {
    const enach = await pendingMandate();
    expect(await bse().mandateAuthUrl(enach)).toBeNull();
    await runTask(app, registerMandate, { mandate_id: enach });
    const { exchangeMandateId } = await mandateRow(enach);
    expect(await bse().mandateAuthUrl(enach)).toBe(`https://bsestarmfdemo.bseindia.com/ENACH/Authenticate.aspx?mandate=${exchangeMandateId}`);

    const physical = await pendingMandate({ mandate_type: "PHYSICAL" });
    await runTask(app, registerMandate, { mandate_id: physical });
    expect(double.current.registrations.mandates.get((await mandateRow(physical)).exchangeMandateId!)!.type).toBe("X");
    expect(await bse().mandateAuthUrl(physical)).toBeNull();
  });

  it("auth_url on the mandate: the exchange's e-NACH URL once registered, while PENDING; null for PHYSICAL, before registration and once APPROVED; never logged in full", async () => {
    const { token } = await app.newDistributor();
    const investor = await pendingInvestor(app, token);
    await runTask(app, registerInvestor, { investor_id: investor.id });
    const created = await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) });
    expect(created.body.auth_url).toBeNull();
    const id = created.body.id as string;
    const log = capturingLogger();
    await registerMandate({ mandate_id: id }, { services: app.services, log: log.logger, job: { attempts: 1, max_attempts: 5 } as never });
    const { exchangeMandateId } = await mandateRow(id);
    const url = `https://bsestarmfdemo.bseindia.com/ENACH/Authenticate.aspx?mandate=${exchangeMandateId}`;
    const shown = await app.http("GET", `/api/mandates/v1/${id}`, { token });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      ...created.body,
      exchange_mandate_id: exchangeMandateId,
      provider_remark: `MANDATE REGISTRATION DONE SUCCESSFULLY ${exchangeMandateId}`,
      auth_url: url,
      updated_at: expect.any(String),
    });
    expect([...app.logs, ...log.lines].join("\n")).not.toContain(url);

    double.current.registrations.setMandateStatus(exchangeMandateId!, "APPROVED");
    await runTask(app, checkMandateStatus, { mandate_id: id });
    expect((await app.http("GET", `/api/mandates/v1/${id}`, { token })).body).toMatchObject({ status: "REGISTERED", auth_url: null });
    expect((await app.prisma.mandate.findUniqueOrThrow({ where: { id } })).authUrl).toBeNull();

    const physical = (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor, { mandate_type: "PHYSICAL" }) })).body.id as string;
    await runTask(app, registerMandate, { mandate_id: physical });
    expect((await app.http("GET", `/api/mandates/v1/${physical}`, { token })).body).toMatchObject({ status: "PENDING", auth_url: null });
  });

  it("auth_url not yet generated at registration: the status sync asks again and shows it", async () => {
    const { token } = await app.newDistributor();
    const investor = await pendingInvestor(app, token);
    await runTask(app, registerInvestor, { investor_id: investor.id });
    const id = (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) })).body.id as string;
    double.current.failNext(`${WEB_SERVICE}/EMandateAuthURL`, "http-503");
    await expect(runTask(app, registerMandate, { mandate_id: id })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    const { exchangeMandateId } = await mandateRow(id);
    expect((await app.http("GET", `/api/mandates/v1/${id}`, { token })).body).toMatchObject({ status: "PENDING", exchange_mandate_id: exchangeMandateId, auth_url: null });
    await runTask(app, checkMandateStatus, { mandate_id: id });
    expect((await app.http("GET", `/api/mandates/v1/${id}`, { token })).body).toMatchObject({
      status: "PENDING",
      auth_url: `https://bsestarmfdemo.bseindia.com/ENACH/Authenticate.aspx?mandate=${exchangeMandateId}`,
    });
  });

  it("cancelling: the exchange has no API, so its job ends at once with the operator's instruction on provider_remark and one warning; nothing is sent, nothing retried", async () => {
    const { token } = await app.newDistributor();
    const investor = await pendingInvestor(app, token);
    await runTask(app, registerInvestor, { investor_id: investor.id });
    const id = (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) })).body.id as string;
    await runTask(app, registerMandate, { mandate_id: id });
    double.current.registrations.setMandateStatus((await mandateRow(id)).exchangeMandateId!, "APPROVED");
    await runTask(app, checkMandateStatus, { mandate_id: id });
    const cancelled = await app.http("POST", `/api/mandates/v1/${id}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "CANCELLED" });
    expect(await queuedJobs(app, "mandates__cancel_at_exchange", "mandate_id", id)).toEqual([
      { key: `mandates__cancel_at_exchange:${id}`, payload: { mandate_id: id }, max_attempts: expect.any(Number) },
    ]);

    expect(await bse().cancelMandate(id)).toEqual({ cancelled: false, remark: "NO EXCHANGE API: CANCEL THE MANDATE WITH THE BANK / EXCHANGE BACK OFFICE" });
    const calls = double.current.calls.length;
    const log = capturingLogger();
    // The job resolves (graphile-worker completes it: no retries) on its first attempt.
    await expect(cancelMandateAtExchange({ mandate_id: id }, { services: app.services, log: log.logger, job: { attempts: 1, max_attempts: 5 } as never })).resolves.toBeUndefined();
    expect(double.current.calls.length).toBe(calls);
    expect(await mandateRow(id)).toMatchObject({ status: "CANCELLED", providerRemark: MANDATE_CANCEL_REMARK });
    expect((await app.http("GET", `/api/mandates/v1/${id}`, { token })).body).toMatchObject({ status: "CANCELLED", provider_remark: MANDATE_CANCEL_REMARK });
    expect(log.parsed()).toEqual([
      expect.objectContaining({ level: 40, mandate_id: id, remark: MANDATE_CANCEL_REMARK, msg: "the exchange did not cancel the mandate; not retried: an operator cancels it with the bank or the exchange's back office" }),
    ]);
    expect(log.lines.join("\n")).not.toMatch(/[A-Z]{5}\d{4}[A-Z]|001234567890/);
    expect(await eventsOf(id)).toEqual(["mandate.registered", "mandate.cancelled"]);
  });

  it("the other reading of StarMFWebService (SOAP data contracts on .svc/Secure, web-service.ts): the same status and e-NACH URL", async () => {
    const soap = new BseExchange(
      app.prisma,
      {
        baseUrl: double.current.baseUrl, userId: double.current.credentials.userId, memberId: double.current.credentials.memberId,
        password: double.current.credentials.password, passKey: undefined, apiKey: "double-api-key", euin: undefined, timeoutMs: 2000,
      },
      capturingLogger().logger,
      { webServiceStyle: { mandates: "soap", childOrders: "soap" } },
    );
    const id = await pendingMandate();
    await runTask(app, registerMandate, { mandate_id: id });
    const { exchangeMandateId } = await mandateRow(id);
    const soapCalls = () => double.current.calls.filter((c) => ["GetAccessToken", "MandateDetails", "EMandateAuthURL"].includes(c.operation)).map((c) => c.operation);
    const before = soapCalls().length;
    expect(await soap.mandateStatus(id)).toEqual({ status: "PENDING", remark: "REGISTERED BY MEMBER" });
    double.current.registrations.setMandateStatus(exchangeMandateId!, "APPROVED");
    expect(await soap.mandateStatus(id)).toEqual({ status: "REGISTERED", remark: null });
    expect(await soap.mandateAuthUrl(id)).toBe(`https://bsestarmfdemo.bseindia.com/ENACH/Authenticate.aspx?mandate=${exchangeMandateId}`);
    expect(soapCalls().slice(before)).toEqual(["GetAccessToken", "MandateDetails", "GetAccessToken", "MandateDetails", "EMandateAuthURL"]);
  });

  it("the answer lost after the exchange registered it: the retry finds it through the status API and adopts its id; one mandate at the exchange", async () => {
    const id = await pendingMandate();
    const clientCode = await clientCodeOf(id);
    double.current.failNext("MFAPI", "timeout");
    await expect(runTask(app, registerMandate, { mandate_id: id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(await mandateRow(id)).toEqual({ status: "PENDING", exchangeMandateId: null, providerRemark: null });
    expect(mandatesAtExchange(clientCode)).toHaveLength(1);

    await runTask(app, registerMandate, { mandate_id: id }, { attempts: 2 });
    const [atExchange] = mandatesAtExchange(clientCode);
    expect(mandatesAtExchange(clientCode)).toHaveLength(1);
    expect(await mandateRow(id)).toEqual({
      status: "PENDING",
      exchangeMandateId: atExchange!.mandateId,
      providerRemark: "REGISTRATION FOUND AT THE EXCHANGE AFTER ITS ANSWER WAS LOST: REGISTERED BY MEMBER",
    });
    double.current.registrations.setMandateStatus(atExchange!.mandateId, "APPROVED");
    await runTask(app, checkMandateStatus, { mandate_id: id });
    expect(await mandateRow(id)).toEqual({ status: "REGISTERED", exchangeMandateId: atExchange!.mandateId, providerRemark: null });
    expect(await eventsOf(id)).toEqual(["mandate.registered"]);
  });

  it("the answer lost before the exchange had it: the retry finds nothing at the exchange and sends it once more", async () => {
    const id = await pendingMandate();
    const clientCode = await clientCodeOf(id);
    double.current.failNext("MFAPI", "timeout-before");
    await expect(runTask(app, registerMandate, { mandate_id: id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(mandatesAtExchange(clientCode)).toHaveLength(0);
    const sent = flag06Calls();
    await runTask(app, registerMandate, { mandate_id: id }, { attempts: 2 });
    expect(flag06Calls()).toBe(sent + 1);
    const [atExchange] = mandatesAtExchange(clientCode);
    expect(mandatesAtExchange(clientCode)).toHaveLength(1);
    expect(await mandateRow(id)).toEqual({ status: "PENDING", exchangeMandateId: atExchange!.mandateId, providerRemark: `MANDATE REGISTRATION DONE SUCCESSFULLY ${atExchange!.mandateId}` });
  });

  it("answered, but the job died before recording it on the mandate: the retry takes the recorded answer; nothing is sent again", async () => {
    const id = await pendingMandate();
    const clientCode = await clientCodeOf(id);
    const answered = await bse().registerMandate({
      mandateId: id, clientCode, mandateType: "ENACH", amountLimit: "25000.50", startDate: todayInIndia(), endDate: null,
      bank: { accountNumber: "001234567890", ifsc: "HDFC0001234", accountType: "SB" },
    });
    expect(await mandateRow(id)).toMatchObject({ status: "PENDING", exchangeMandateId: null });
    const sent = flag06Calls();
    await runTask(app, registerMandate, { mandate_id: id }, { attempts: 2 });
    expect(flag06Calls()).toBe(sent);
    expect(mandatesAtExchange(clientCode)).toHaveLength(1);
    expect((await mandateRow(id)).exchangeMandateId).toBe(answered.exchangeMandateId);
  });

  it("an identical mandate of ours already at the exchange is not adopted: the lost one is matched on its own registration", async () => {
    const { token } = await app.newDistributor();
    const investor = await pendingInvestor(app, token);
    await runTask(app, registerInvestor, { investor_id: investor.id });
    const create = async () => (await app.http("POST", "/api/mandates/v1", { token, json: mandateBody(investor) })).body.id as string;
    const first = await create();
    await runTask(app, registerMandate, { mandate_id: first });
    const second = await create();
    const clientCode = await clientCodeOf(second);

    // The twin's answer is lost before the exchange had it: the first mandate (same amount, account and dates) is not taken for it.
    double.current.failNext("MFAPI", "timeout-before");
    await expect(runTask(app, registerMandate, { mandate_id: second }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    await runTask(app, registerMandate, { mandate_id: second }, { attempts: 2 });
    const ids = mandatesAtExchange(clientCode).map((m) => m.mandateId);
    expect(ids).toHaveLength(2);
    expect([(await mandateRow(first)).exchangeMandateId, (await mandateRow(second)).exchangeMandateId]).toEqual(ids);
  });

  it("logs carry neither PANs, account numbers, the password nor any session or token", () => {
    const logs = app.logs.join("\n");
    expect(logs).toContain("BSE mandate registration answered");
    expect(logs).not.toMatch(/[A-Z]{5}\d{4}[A-Z]/);
    expect(logs).not.toContain("001234567890");
    expect(logs).not.toContain(double.current.credentials.password);
    for (const secret of double.current.sessions.issued) expect(logs).not.toContain(secret);
  });
});
