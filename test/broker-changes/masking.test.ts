import { beforeAll, describe, expect, it } from "vitest";
import { attachSignedForm } from "../../src/domains/broker-changes/broker-changes.service.js";
import { submitToRegistrarJob } from "../../src/domains/broker-changes/jobs/submit-to-registrar.js";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, signedForm, twoFaBody, wetSignatureBody } from "../helpers/broker-changes.js";
import { runTask } from "../helpers/jobs.js";

const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

describe("personal data in broker change requests", () => {
  it("no clear PAN in any response, log line, event, webhook delivery, sandbox book or stored remark of the whole flow", async () => {
    const pan = ctx.investor.pan;
    const texts: string[] = [];
    const call = async (method: string, path: string, json?: unknown) => {
      const res = await app.http(method, path, { token: ctx.token, ...(json === undefined ? {} : { json }) });
      texts.push(res.text);
      return res;
    };
    const wet = (await call("POST", "/api/broker-changes/v1", wetSignatureBody(ctx.investor))).body.id;
    texts.push(JSON.stringify(await attachSignedForm(app.services, ctx.caller, wet, signedForm())));
    const twoFa = (await call("POST", "/api/broker-changes/v1", twoFaBody(ctx.investor))).body.id;
    for (const id of [wet, twoFa]) await runTask(app, submitToRegistrarJob, { broker_change_id: id });
    // A registrar's remark naming the PAN in lower case, inside a reference too.
    const remark = encodeURIComponent(`PAN ${pan.toLowerCase()} not on folio (ref bc_${pan})`);
    expect((await call("GET", `/api/simulation/broker-changes/v1/${twoFa}/reject?remark=${remark}`)).status).toBe(200);
    await call("GET", `/api/broker-changes/v1/${wet}`);
    await call("GET", `/api/broker-changes/v1/${twoFa}`);
    await call("GET", "/api/broker-changes/v1");
    // A refused creation echoes nothing of the investor either.
    await createBrokerChange(app, ctx.otherToken, wetSignatureBody(ctx.investor)).then((res) => texts.push(res.text));

    const stored = JSON.stringify([
      await app.prisma.brokerChange.findMany({ where: { id: { in: [wet, twoFa] } } }),
      await app.prisma.event.findMany({ where: { resourceId: { in: [wet, twoFa] } } }),
      await app.prisma.webhookDelivery.findMany(),
      await app.prisma.sandboxExchangeRecord.findMany({ where: { kind: "BROKER_CHANGE" } }),
    ]);
    for (const [where, text] of [["responses", texts.join("\n")], ["logs", app.logs.join("\n")], ["database", stored]] as const) {
      expect([where, text.toUpperCase().includes(pan)]).toEqual([where, false]);
    }
    const masked = `${pan.slice(0, 2)}XXXXX${pan.slice(7)}`;
    expect((await app.prisma.brokerChange.findUniqueOrThrow({ where: { id: twoFa } })).providerRemark).toBe(
      `PAN ${pan.slice(0, 2).toLowerCase()}XXXXX${pan.slice(7).toLowerCase()} not on folio (ref bc_${masked})`,
    );
  });
});
