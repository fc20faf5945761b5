import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type WorkerHandle } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { pendingInvestor } from "../helpers/investors.js";
import { freePort, ROOT, runEntry, waitForOutput, type Started } from "../helpers/process.js";

// The README's receiver example, taken from the README as it is, run with tsx inside the repository (so that
// `mf-distribution-service/webhooks` resolves as the package's own export) and sent a real delivery.
const app = useTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
const file = path.join(ROOT, "test-results", `readme-receiver-${process.pid}.ts`);
let worker: WorkerHandle;
let receiver: Started | undefined;

async function readmeReceiver(): Promise<string> {
  const readme = await readFile(path.join(ROOT, "docs", "guide.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Verifying webhooks (receivers)"));
  const code = section.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (!code) throw new Error("README: no ts block under 'Verifying webhooks (receivers)'");
  return code;
}

beforeAll(async () => {
  worker = await startWorker(app.services, app.databaseUrl);
});

afterAll(async () => {
  receiver?.child.kill("SIGKILL");
  await worker?.stop();
  await rm(file, { force: true });
});

describe("the README's webhook receiver", () => {
  it("is https, verifies with the exported verifier, and receives a real delivery", async () => {
    const code = await readmeReceiver();
    expect(code).toContain('from "node:https"');
    expect(code).toContain('from "mf-distribution-service/webhooks"');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, code);

    const { token } = await app.newDistributor();
    const port = await freePort();
    const subscribed = await app.http("POST", "/api/webhooks/v1/subscriptions", { token, json: { url: `https://localhost:${port}/hooks`, events: ["investor.*"] } });
    expect(subscribed.status).toBe(201);
    receiver = runEntry(file, [], {
      PORT: String(port),
      MF_WEBHOOK_SECRET: subscribed.body.data.secret,
      TLS_KEY_FILE: path.join(ROOT, "test/fixtures/tls/localhost-key.pem"),
      TLS_CERT_FILE: path.join(ROOT, "test/fixtures/tls/localhost.pem"),
    });
    // Up when it answers (an unsigned request: 400 missing, from the example's own check).
    await expect
      .poll(async () => {
        const res = await fetch(`https://localhost:${port}/`, { method: "POST", body: "{}" }).catch(() => null);
        return res ? `${res.status} ${await res.text()}` : "down";
      }, { timeout: 30_000, interval: 250 })
      .toBe("400 missing");

    const investor = await pendingInvestor(app, token);
    expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/register`, { token })).status).toBe(200);
    const [line] = await waitForOutput(receiver, /investor\.registered whd_\w+ .*\n/, 20_000);
    expect(JSON.parse(line!.slice(line!.indexOf("{")))).toMatchObject({ investor_id: investor.id, status: "REGISTERED" });
    const deliveryId = line!.split(" ")[1]!;
    // The service records the outcome once the receiver has answered.
    await expect
      .poll(async () => (await app.http("GET", `/api/webhooks/v1/deliveries/${deliveryId}`, { token })).body.data, { timeout: 10_000 })
      .toMatchObject({ status: "DELIVERED", attempts: 1 });
  }, 60_000);
});
