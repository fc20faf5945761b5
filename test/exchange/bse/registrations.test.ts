import { describe, expect, it } from "vitest";
import type { BseExchange } from "../../../src/integrations/exchange/bse/bse-exchange.js";
import { ExchangeUnavailableError } from "../../../src/integrations/exchange/port.js";
import { registerInvestor } from "../../../src/domains/investors/jobs/register.js";
import { useTestApp } from "../../helpers/app.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { hurried } from "../../helpers/bse-double/hurried.js";
import { UCC_PATH } from "../../helpers/bse-double/registrations.js";
import { investorBody } from "../../helpers/factories.js";
import { pendingInvestor } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { individualUcc } from "./ucc-fixtures.js";

const env: Record<string, string> = {};
// The app keeps the double's 2-second call budget; only the calls scripted to hang get a short one (`hurried`).
const double = useBseDouble(env);
const app = useTestApp(env);
const bse = () => app.services.exchange as BseExchange;

async function newInvestor(body = investorBody()) {
  const { token } = await app.newDistributor();
  const investor = await pendingInvestor(app, token, body);
  const row = await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id } });
  return { ...investor, uccCode: row.uccCode };
}
const investorRow = (id: string) => app.prisma.investor.findUniqueOrThrow({ where: { id }, select: { status: true, providerRemark: true } });
const eventsOf = async (id: string) => (await app.prisma.event.findMany({ where: { resourceId: id }, orderBy: { createdAt: "asc" } })).map((e) => e.event);
const uccRequestsOf = (clientCode: string) => double.current.registrations.uccRequests.filter((r) => r.clientCode === clientCode).map((r) => r.regnType);
let codes = 0;
const ucc = (overrides: Record<string, unknown> = {}) => ({ ...individualUcc(), clientCode: `RG${String((codes += 1)).padStart(8, "0")}`, ...overrides });

describe("investors through the BSE adapter (enhanced UCC + FATCA) against the double", () => {
  it("the registration job sends the UCC as NEW, then the FATCA record: REGISTERED with the exchange's remark", async () => {
    const investor = await newInvestor();
    await runTask(app, registerInvestor, { investor_id: investor.id });

    expect(await investorRow(investor.id)).toEqual({ status: "REGISTERED", providerRemark: "CLIENT REGISTERED SUCCESSFULLY" });
    expect(await eventsOf(investor.id)).toEqual(["investor.registered"]);
    const client = double.current.registrations.clients.get(investor.uccCode)!;
    expect([client.regnType, client.fields[25], client.accounts]).toEqual(["NEW", investor.pan, ["001234567890"]]);
    const fatca = double.current.registrations.fatca.get(investor.pan)!;
    expect(fatca[71]).toBe("N");
    // LOG_NAME: the unspecified address (the service never sees the investor's) and the investor's creation time in India.
    expect(fatca[72]).toMatch(/^0\.0\.0\.0#\d{2}-[A-Z][a-z]{2}-\d{2};\d{2}:\d{2}$/);
  });

  it("a client code the exchange already has goes again as MOD, and its FATCA record as a change (C)", async () => {
    const registration = ucc();
    expect(await bse().registerInvestor(registration)).toEqual({ status: "REGISTERED", remark: "CLIENT REGISTERED SUCCESSFULLY" });
    expect(await bse().registerInvestor(registration)).toEqual({ status: "REGISTERED", remark: "CLIENT UPDATED SUCCESSFULLY" });
    expect(double.current.registrations.clients.get(registration.clientCode)!.regnType).toBe("MOD");
    expect(double.current.registrations.fatca.get(registration.primaryHolder.pan)![71]).toBe("C");
  });

  it("the exchange's refusal is REJECTED with its remark, PANs masked; a validator refusal too", async () => {
    double.current.registrations.rejectNext("UCC", "FAILED: PAN ABCDE1234F ALREADY REGISTERED WITH ANOTHER MEMBER");
    const investor = await newInvestor();
    await runTask(app, registerInvestor, { investor_id: investor.id });
    expect(await investorRow(investor.id)).toEqual({ status: "REJECTED", providerRemark: "FAILED: PAN ABXXXXX34F ALREADY REGISTERED WITH ANOTHER MEMBER" });
    expect(await eventsOf(investor.id)).toEqual(["investor.rejected"]);

    const bad = ucc({ address: { ...individualUcc().address, pincode: "011045" } });
    expect(await bse().registerInvestor(bad)).toEqual({ status: "REJECTED", remark: "FAILED: INVALID PINCODE" });
    expect(double.current.registrations.clients.has(bad.clientCode)).toBe(false);
  });

  it("a value with no exchange code is REJECTED naming the field (never its value), and nothing is sent", async () => {
    const calls = double.current.calls.length;
    const registration = ucc({ taxStatus: "99" });
    expect(await bse().registerInvestor(registration)).toEqual({ status: "REJECTED", remark: 'NOT SENT TO THE EXCHANGE: taxStatus has no code in the exchange\'s table' });
    const tooLong = ucc({ bankAccounts: [{ accountType: "SB", accountNumber: "9".repeat(41), ifsc: "HDFC0001234", isDefault: true }] });
    const outcome = await bse().registerInvestor(tooLong);
    expect(outcome).toEqual({ status: "REJECTED", remark: "NOT SENT TO THE EXCHANGE: bankAccounts[0].accountNumber is longer than the exchange's 40 characters" });
    expect(double.current.calls.length).toBe(calls);
    expect(double.current.registrations.clients.has(registration.clientCode)).toBe(false);
  });

  it("a refused FATCA upload is REJECTED with the exchange's reason", async () => {
    double.current.registrations.rejectNext("01", "FAILED: INVALID PLACE OF BIRTH");
    expect(await bse().registerInvestor(ucc())).toEqual({ status: "REJECTED", remark: "FATCA UPLOAD FAILED: FAILED: INVALID PLACE OF BIRTH" });
    // Our user refused: for a registration that is unavailable (the job retries), named as every such refusal of the adapter.
    double.current.registrations.rejectNext("01", "INVALID USER ID");
    const refused = await bse().registerInvestor(ucc()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ExchangeUnavailableError);
    expect((refused as Error).message).toBe("BSE FATCA upload refused: INVALID USER ID");
  });

  it("a UCC refused for our member is unavailable, logged at error with the remark: the job retries and registers once the member is fixed", async () => {
    const investor = await newInvestor();
    double.current.registrations.rejectNext("UCC", "FAILED: THE MEMBER IS SUSPENDED. CONTACT ADMIN");
    const logged = app.logs.length;
    const error = await runTask(app, registerInvestor, { investor_id: investor.id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as Error).message).toBe("BSE UCC registration refused: FAILED: THE MEMBER IS SUSPENDED. CONTACT ADMIN");
    expect(await investorRow(investor.id)).toEqual({ status: "PENDING", providerRemark: null });
    expect(await eventsOf(investor.id)).toEqual([]);
    const errors = app.logs.slice(logged).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === "error" || l.level === 50);
    expect(errors.map((l) => [l.operation, l.refusal, l.exchange_message])).toEqual([["UCC registration", "member", "FAILED: THE MEMBER IS SUSPENDED. CONTACT ADMIN"]]);

    await runTask(app, registerInvestor, { investor_id: investor.id }, { attempts: 2 });
    expect(await investorRow(investor.id)).toEqual({ status: "REGISTERED", providerRemark: "CLIENT REGISTERED SUCCESSFULLY" });
    expect(uccRequestsOf(investor.uccCode)).toEqual(["NEW", "NEW"]);
    expect(await eventsOf(investor.id)).toEqual(["investor.registered"]);
  });

  it("the upload session expiring mid-call is renewed once and the FATCA record sent again", async () => {
    await bse().registerInvestor(ucc());
    const logins = double.current.sessions.logins.upload;
    const registration = ucc();
    double.current.failNext("MFAPI", "expire-session");
    expect((await bse().registerInvestor(registration)).status).toBe("REGISTERED");
    expect(double.current.sessions.logins.upload).toBe(logins + 1);
    expect(double.current.registrations.fatca.has(registration.primaryHolder.pan)).toBe(true);
  });

  it("no answer within the timeout is ExchangeUnavailableError: the job throws, the investor stays PENDING", async () => {
    const investor = await newInvestor();
    double.current.failNext(UCC_PATH, "timeout-before");
    await expect(runTask(app, registerInvestor, { investor_id: investor.id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect((await investorRow(investor.id)).status).toBe("PENDING");
    await runTask(app, registerInvestor, { investor_id: investor.id }, { attempts: 2 });
    expect((await investorRow(investor.id)).status).toBe("REGISTERED");
  });

  it("the UCC answer lost after the exchange registered the client: the retry's NEW is told it exists and goes as MOD, FATCA as a change; REGISTERED once", async () => {
    const investor = await newInvestor();
    double.current.failNext(UCC_PATH, "timeout");
    await expect(runTask(app, registerInvestor, { investor_id: investor.id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(double.current.registrations.clients.get(investor.uccCode)!.regnType).toBe("NEW");
    expect(await investorRow(investor.id)).toEqual({ status: "PENDING", providerRemark: null });

    await runTask(app, registerInvestor, { investor_id: investor.id }, { attempts: 2 });
    expect(await investorRow(investor.id)).toEqual({ status: "REGISTERED", providerRemark: "CLIENT UPDATED SUCCESSFULLY" });
    expect(uccRequestsOf(investor.uccCode)).toEqual(["NEW", "NEW", "MOD"]);
    expect(double.current.registrations.fatca.get(investor.pan)![71]).toBe("C");
    expect(await eventsOf(investor.id)).toEqual(["investor.registered"]);
  });

  it("the FATCA answer lost: the retry registers the client again as MOD and sends FATCA as a change; REGISTERED once", async () => {
    const investor = await newInvestor();
    double.current.failNext("MFAPI", "timeout");
    await expect(runTask(app, registerInvestor, { investor_id: investor.id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(double.current.registrations.fatca.get(investor.pan)![71]).toBe("N");
    await runTask(app, registerInvestor, { investor_id: investor.id }, { attempts: 2 });
    expect(await investorRow(investor.id)).toEqual({ status: "REGISTERED", providerRemark: "CLIENT UPDATED SUCCESSFULLY" });
    expect(uccRequestsOf(investor.uccCode)).toEqual(["NEW", "NEW", "MOD"]);
    expect(double.current.registrations.fatca.get(investor.pan)![71]).toBe("C");
  });

  it("the UCC answer lost before the exchange had it: the retry sends NEW once more", async () => {
    const investor = await newInvestor();
    double.current.failNext(UCC_PATH, "timeout-before");
    await expect(runTask(app, registerInvestor, { investor_id: investor.id }, { services: hurried(app) })).rejects.toBeInstanceOf(ExchangeUnavailableError);
    expect(double.current.registrations.clients.has(investor.uccCode)).toBe(false);
    await runTask(app, registerInvestor, { investor_id: investor.id }, { attempts: 2 });
    expect(await investorRow(investor.id)).toEqual({ status: "REGISTERED", providerRemark: "CLIENT REGISTERED SUCCESSFULLY" });
    expect(uccRequestsOf(investor.uccCode)).toEqual(["NEW"]);
  });

  it("investorStatus: the exchange has no UCC status call, so a PENDING investor stays PENDING", async () => {
    expect(await bse().investorStatus("RG00000001")).toEqual({ status: "PENDING", remark: null });
  });

  it("order entry can refuse a client the exchange does not have, and accepts a registered one", async () => {
    double.current.registrations.refuseUnknownClients();
    try {
      const { newId } = await import("../../../src/platform/lib/ids.js");
      const order = (clientCode: string) => ({
        orderId: newId("ord"), clientCode, orderType: "LUMPSUM_PURCHASE" as const, schemeCode: "02-DP", toSchemeCode: null, purchaseType: "FRESH" as const,
        amount: "5000.00", units: null, allUnits: false, folioNo: null, mandateId: null, euin: null, euinDeclared: true, remarks: null,
        holdingMode: "PHYSICAL" as const, subBrokerArn: null, payoutAccountNumber: null,
      });
      expect(await bse().placeOrder(order("NOSUCH0001"))).toMatchObject({ status: "REJECTED", remark: "FAILED: INVALID CLIENT CODE", failureCode: "client_not_registered" });
      const registration = ucc();
      await bse().registerInvestor(registration);
      expect((await bse().placeOrder(order(registration.clientCode))).status).toBe("ACCEPTED");
    } finally {
      double.current.orderEntry.knownClient = null;
    }
  });

  it("logs carry neither PANs nor the member's password nor any session", () => {
    const logs = app.logs.join("\n");
    expect(logs).toContain("BSE UCC registration answered");
    expect(logs).not.toMatch(/[A-Z]{5}\d{4}[A-Z]/);
    expect(logs).not.toContain(double.current.credentials.password);
    for (const secret of double.current.sessions.issued) expect(logs).not.toContain(secret);
  });
});
