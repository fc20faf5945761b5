import { describe, expect, it } from "vitest";
import { registerInvestor } from "../../../src/domains/investors/jobs/register.js";
import { sendInvestorChange } from "../../../src/domains/investors/jobs/send-change.js";
import { useTestApp } from "../../helpers/app.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { investorBody } from "../../helpers/factories.js";
import { pendingInvestor } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";

const env: Record<string, string> = {};
const double = useBseDouble(env);
const app = useTestApp(env);

const NEW_CONTACT = { email: "asha.new@example.in", mobile: "9123456789", email_relation: "SELF", mobile_relation: "SELF" };

/** An investor the registration job registered with the double (NEW, FATCA N), and a PATCH of it sent by its job. */
async function changedInvestor(change: Record<string, unknown>, beforeSend = () => {}) {
  const { token } = await app.newDistributor();
  const investor = await pendingInvestor(app, token);
  await runTask(app, registerInvestor, { investor_id: investor.id });
  const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id } });
  const res = await app.http("PATCH", `/api/investors/v1/${investor.id}`, { token, json: change });
  expect(res.status).toBe(200);
  beforeSend();
  await runTask(app, sendInvestorChange, { change_id: res.body.pending_change.id });
  const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
  const events = (await app.prisma.event.findMany({ where: { resourceId: investor.id }, orderBy: { createdAt: "asc" } })).map((e) => [e.event, e.data]);
  return { ...investor, uccCode, changeId: res.body.pending_change.id as string, view: view.body, events };
}

const uccRequestsOf = (clientCode: string) => double.current.registrations.uccRequests.filter((r) => r.clientCode === clientCode).map((r) => r.regnType);

describe("investor changes through the BSE adapter (enhanced UCC MOD, FATCA again) against the double", () => {
  it("a change of contact and FATCA goes as MOD with the whole record, then the FATCA record as a change (C): APPLIED", async () => {
    const fatca = { ...investorBody().fatca, income_slab: "35" };
    const investor = await changedInvestor({ contact: NEW_CONTACT, fatca });
    expect(uccRequestsOf(investor.uccCode)).toEqual(["NEW", "MOD"]);
    const client = double.current.registrations.clients.get(investor.uccCode)!;
    expect([client.regnType, client.fields[25], client.fields.includes("9123456789"), client.accounts]).toEqual(["MOD", investor.pan, true, ["001234567890"]]);
    expect(double.current.registrations.fatca.get(investor.pan)![71]).toBe("C");
    expect(investor.view).toMatchObject({
      contact: { mobile: "XXXXXX6789" },
      fatca: { income_slab: "35" },
      pending_change: { id: investor.changeId, status: "APPLIED", fields: ["contact", "fatca"], provider_remark: "CLIENT UPDATED SUCCESSFULLY" },
    });
    expect(investor.events).toEqual([
      ["investor.registered", expect.anything()],
      ["investor.updated", { investor_id: investor.id, change_id: investor.changeId, fields: ["contact", "fatca"] }],
    ]);
  });

  it("a primary bank account move goes as MOD with the Default Bank Flags moved (fields 46 and 51), no FATCA record", async () => {
    const { token } = await app.newDistributor();
    const investor = await pendingInvestor(app, token);
    const added = await app.http("POST", `/api/investors/v1/${investor.id}/bank-accounts`, {
      token,
      json: { account_type: "SB", account_number: "55001122330001", ifsc: "ICIC0000001", is_primary: false },
    });
    const secondId: string = added.body.bank_accounts[1].id;
    await runTask(app, registerInvestor, { investor_id: investor.id });
    const { uccCode } = await app.prisma.investor.findUniqueOrThrow({ where: { id: investor.id } });
    const registered = double.current.registrations.clients.get(uccCode)!;
    expect([registered.accounts, registered.fields[45], registered.fields[50]]).toEqual([["001234567890", "55001122330001"], "Y", "N"]);

    const res = await app.http("PATCH", `/api/investors/v1/${investor.id}`, { token, json: { bank_accounts: [{ id: secondId, is_primary: true }] } });
    expect(res.status).toBe(200);
    await runTask(app, sendInvestorChange, { change_id: res.body.pending_change.id });
    expect(uccRequestsOf(uccCode)).toEqual(["NEW", "MOD"]);
    const client = double.current.registrations.clients.get(uccCode)!;
    expect([client.regnType, client.accounts, client.fields[45], client.fields[50]]).toEqual(["MOD", ["55001122330001", "001234567890"], "Y", "N"]);
    expect(double.current.registrations.fatca.get(investor.pan)![71]).toBe("N");
    const view = await app.http("GET", `/api/investors/v1/${investor.id}`, { token });
    expect(view.body.bank_accounts.map((a: { id: string; is_primary: boolean }) => [a.id, a.is_primary])).toEqual([
      [investor.bankAccountId, false],
      [secondId, true],
    ]);
    expect(view.body.pending_change).toMatchObject({ status: "APPLIED", fields: ["bank_accounts"] });
  });

  it("an address change sends no FATCA record", async () => {
    const investor = await changedInvestor({ address: { line1: "4 Park Street", city: "Kolkata", state_code: "WB", pincode: "700016", country_code: "IN" } });
    expect(uccRequestsOf(investor.uccCode)).toEqual(["NEW", "MOD"]);
    expect(double.current.registrations.fatca.get(investor.pan)![71]).toBe("N");
    expect(investor.view).toMatchObject({ address: { city: "Kolkata" }, pending_change: { status: "APPLIED" } });
  });

  it("the exchange's refusal of the MOD is REJECTED with its remark (PANs masked); the details stay as registered", async () => {
    const investor = await changedInvestor({ contact: NEW_CONTACT }, () =>
      double.current.registrations.rejectNext("UCC", "FAILED: MOBILE ALREADY USED BY PAN ABCDE1234F"),
    );
    const remark = "FAILED: MOBILE ALREADY USED BY PAN ABXXXXX34F";
    expect(investor.view).toMatchObject({ contact: { mobile: "XXXXXX3210" }, pending_change: { status: "REJECTED", provider_remark: remark } });
    expect(investor.events[1]).toEqual(["investor.update_rejected", { investor_id: investor.id, change_id: investor.changeId, provider_remark: remark }]);
    expect(double.current.registrations.clients.get(investor.uccCode)!.regnType).toBe("NEW");
  });
});
