import { describe, expect, it } from "vitest";
import { dispatchOrder } from "../../../src/domains/orders/jobs/dispatch.js";
import { pauseOrderAtExchange } from "../../../src/domains/orders/jobs/pause-at-exchange.js";
import { maskFreeText } from "../../../src/platform/lib/mask.js";
import { useTestApp } from "../../helpers/app.js";
import { createBseScheme } from "../../helpers/bse-double/schemes.js";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { investorKnownToExchange } from "../../helpers/investors.js";
import { runTask } from "../../helpers/jobs.js";
import { eventNames, placedOrder, today } from "../../helpers/orders.js";

/** POST /api/orders/v1/{id}/pause and /resume with MF_EXCHANGE=bse, against the double's PauseSIP (issue 26). */

const env: Record<string, string> = {};
const double = useBseDouble(env);
const app = useTestApp(env);

type Ctx = Awaited<ReturnType<typeof investorKnownToExchange>>;
const pause = (ctx: Ctx, id: string, installments: number) =>
  app.http("POST", `/api/orders/v1/${id}/pause`, { token: ctx.token, json: { installments }, headers: { "Idempotency-Key": `pause-${id}-${installments}` } });
const resume = (ctx: Ctx, id: string) => app.http("POST", `/api/orders/v1/${id}/resume`, { token: ctx.token });
const get = async (ctx: Ctx, id: string) => (await app.http("GET", `/api/orders/v1/${id}`, { token: ctx.token })).body;
const pauseJob = (pauseId: string) => runTask(app, pauseOrderAtExchange, { pause_id: pauseId });
const statuses = async (id: string) =>
  (await app.prisma.orderInstallment.findMany({ where: { orderId: id }, orderBy: { installmentNo: "asc" } })).map((r) => r.status);
const sip = (scheme: string) => ({ order_type: "SIP", scheme_code: scheme, amount: 1000, sip: { frequency: "MONTHLY", start_date: today(), installments: 6, installment_day: 28 } });

/** An ACCEPTED SIP registered at the double, on a code whose SIP master allows pausing. */
async function registeredSip(ctx: Ctx, scheme: string) {
  const code = await createBseScheme(app, double.current, scheme);
  await app.prisma.exchangeSipRule.updateMany({ where: { code }, data: { pauseAllowed: true } });
  const id = await placedOrder(app, ctx, sip(scheme));
  await runTask(app, dispatchOrder, { order_id: id });
  const registration = double.current.plans.registrations.find((r) => r.clientCode === ctx.uccCode && r.schemeCode === code)!;
  expect(registration).toBeDefined();
  return { id, registration };
}

describe("pausing a SIP with MF_EXCHANGE=bse", () => {
  it("PauseSIP carries the API key and the document's fields; DATA SAVED SUCCESSFULLY -> CONFIRMED, order.paused; resume is 409", async () => {
    const ctx = await investorKnownToExchange(app);
    const { id, registration } = await registeredSip(ctx, "PSE01");
    expect((await get(ctx, id)).pause).toBeNull();
    const res = await pause(ctx, id, 2);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "PENDING", installments: 2 });
    expect(await statuses(id)).toEqual(["PAUSED", "PAUSED", "SCHEDULED", "SCHEDULED", "SCHEDULED", "SCHEDULED", "SCHEDULED", "SCHEDULED"]);

    const received = double.current.pauses.received.length;
    await pauseJob(res.body.id);
    expect(double.current.pauses.received.length).toBe(received + 1);
    expect(Object.entries(double.current.pauses.received.at(-1)!)).toEqual([
      ["LoginId", "1023401"], ["MemberCode", "10234"], ["Password", "Uat@pass1"], ["ClientCode", ctx.uccCode], ["RegistrationType", "SIP"],
      ["RegistrationNumber", Number(registration.regNo)], ["ModificationType", "PAUSE"], ["NoOfInstalments", 2],
      ["filler1", ""], ["filler2", ""], ["filler3", ""], ["filler4", ""], ["filler5", ""],
    ]);
    expect(double.current.pauses.pauses.at(-1)).toEqual({ kind: "SIP", regNo: registration.regNo, clientCode: ctx.uccCode, installments: 2 });
    expect(await app.prisma.orderPause.findUniqueOrThrow({ where: { id: res.body.id }, select: { status: true, remark: true } })).toEqual({ status: "CONFIRMED", remark: null });
    expect(await eventNames(app, id)).toEqual(["order.accepted", "order.paused"]);
    // The order view shows its latest pause.
    expect((await get(ctx, id)).pause).toEqual({ ...res.body, status: "CONFIRMED" });

    // BSE has no resume: 409 saying so, nothing sent, the pause stays.
    const sent = double.current.pauses.received.length;
    const early = await resume(ctx, id);
    expect([early.status, early.body.error.code]).toEqual([409, "INVALID_STATE"]);
    expect(early.body.error.message).toContain("The exchange does not allow ending a SIP pause early");
    expect(double.current.pauses.received.length).toBe(sent);
    expect((await app.prisma.orderPause.findUniqueOrThrow({ where: { id: res.body.id } })).status).toBe("CONFIRMED");
  });

  it("a registration number the exchange does not know: REFUSED with its remark, the installments restored; a refusal naming a PAN is masked", async () => {
    const ctx = await investorKnownToExchange(app);
    const { id, registration } = await registeredSip(ctx, "PSE02");
    const before = await statuses(id);
    // The exchange has lost the registration (its number is unknown there).
    const plans = double.current.plans.registrations;
    plans.splice(plans.indexOf(registration), 1);
    const first = await pause(ctx, id, 3);
    expect(first.status, first.text).toBe(200);
    await pauseJob(first.body.id);
    expect(await app.prisma.orderPause.findUniqueOrThrow({ where: { id: first.body.id }, select: { status: true, remark: true } })).toEqual({
      status: "REFUSED", remark: "FAILED: INVALID SIP REGISTRATION NUMBER",
    });
    expect(double.current.pauses.received.at(-1)).toMatchObject({ RegistrationNumber: Number(registration.regNo), RegistrationType: "SIP" });
    expect(await statuses(id)).toEqual(before);
    expect(await eventNames(app, id)).toEqual(["order.accepted"]);

    // Known again, but refused with a remark naming the investor's PAN: masked, the schedule put back again.
    plans.push(registration);
    const remark = "FAILED: PAUSE NOT ALLOWED FOR ABCDE1234F, INSTALLMENT UNDER PROCESSING";
    double.current.pauses.rejectNext(remark);
    const second = await pause(ctx, id, 1);
    expect(second.status, second.text).toBe(200);
    await pauseJob(second.body.id);
    const refused = await app.prisma.orderPause.findUniqueOrThrow({ where: { id: second.body.id } });
    expect([refused.status, refused.remark]).toEqual(["REFUSED", maskFreeText(remark)]);
    expect(refused.remark).not.toContain("ABCDE1234F");
    expect((await get(ctx, id)).pause).toMatchObject({ id: second.body.id, status: "REFUSED", remark: maskFreeText(remark) });
    expect(await statuses(id)).toEqual(before);
  });
});

describe("the double's PauseSIP checks (bse-starmf-services.md §10.1)", () => {
  const post = (body: unknown, key = "double-api-key") =>
    fetch(`${double.current.baseUrl}/StarMFAPI/api/Pause/PauseSIP`, { method: "POST", headers: { "content-type": "application/json", APIKey: key }, body: JSON.stringify(body) });
  const valid = () => ({
    LoginId: "1023401", MemberCode: "10234", Password: "Uat@pass1", ClientCode: "NOSUCH1", RegistrationType: "SIP", RegistrationNumber: 999,
    ModificationType: "PAUSE", NoOfInstalments: 3, filler1: "NULL", filler2: "NULL", filler3: "NULL", filler4: "NULL", filler5: "NULL",
  });
  const remarkOf = async (body: unknown) => {
    const res = await post(body);
    const answer = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual(["RegistrationNumber", "BseRemarks", "StatusFlag", "filler"]);
    return [answer.StatusFlag, answer.BseRemarks];
  };

  it("refuses a wrong API key (401), wrong credentials and each broken field", async () => {
    expect((await post(valid(), "wrong")).status).toBe(401);
    expect(await remarkOf({ ...valid(), Password: "Wrong@1" })).toEqual(["1", "FAILED:INVALID ACCOUNT INFORMATION"]);
    expect(await remarkOf({ ...valid(), ClientCode: "" })).toEqual(["1", "FAILED: CLIENT CODE IS MANDATORY"]);
    expect(await remarkOf({ ...valid(), ClientCode: "C".repeat(11) })).toEqual(["1", "FAILED: CLIENT CODE EXCEEDS 10 CHARACTERS"]);
    expect(await remarkOf({ ...valid(), RegistrationType: "ISIP" })).toEqual(["1", "FAILED: INVALID REGISTRATION TYPE"]);
    expect(await remarkOf({ ...valid(), RegistrationNumber: "12A" })).toEqual(["1", "FAILED: INVALID REGISTRATION NUMBER"]);
    expect(await remarkOf({ ...valid(), ModificationType: "RESUME" })).toEqual(["1", "FAILED: INVALID MODIFICATION TYPE"]);
    expect(await remarkOf({ ...valid(), NoOfInstalments: 0 })).toEqual(["1", "FAILED: INVALID NO OF INSTALMENTS"]);
    expect(await remarkOf({ ...valid(), NoOfInstalments: undefined })).toEqual(["1", "FAILED: NO OF INSTALMENTS IS MANDATORY"]);
    expect(await remarkOf({ ...valid(), filler1: "F".repeat(51) })).toEqual(["1", "FAILED: FILLER1 EXCEEDS 50 CHARACTERS"]);
    expect(await remarkOf({ ...valid(), Extra: "x" })).toEqual(["1", "FAILED: UNKNOWN FIELD EXTRA"]);
    expect(await remarkOf(valid())).toEqual(["1", "FAILED: INVALID SIP REGISTRATION NUMBER"]);
  });
});
