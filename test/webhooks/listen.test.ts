import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type WorkerHandle } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { pendingInvestor } from "../helpers/investors.js";
import { runEntry, waitForOutput } from "../helpers/process.js";

// The service's deliveries trust a listener through MF_DATA_DIR, which the listener shares with it.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "webhooks-listen-"));
const app = useTestApp({ MF_DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
let worker: WorkerHandle;
let token = "";

beforeAll(async () => {
  token = (await app.newDistributor()).token;
  worker = await startWorker(app.services, app.databaseUrl);
});

afterAll(async () => {
  await worker?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const subscriptions = async () => (await app.http("GET", "/api/webhooks/v1/subscriptions", { token })).body.data as Array<{ id: string; url: string; events: string[] }>;

describe("npm run mf -- webhooks:listen", () => {
  it("subscribes a local https receiver, prints each delivery verified, and unsubscribes on SIGINT", async () => {
    const listener = runEntry("src/cli.ts", ["webhooks:listen", "--events", "investor.*", "--base", app.baseUrl, "--token", token], { MF_DATA_DIR: dataDir });
    try {
      const [, url, subscriptionId] = await waitForOutput(listener, /Listening on (https:\/\/127\.0\.0\.1:\d+\/) for investor\.\* \(subscription (\S+)\)/, 60_000);
      expect(await subscriptions()).toEqual([expect.objectContaining({ id: subscriptionId, url, events: ["investor.*"] })]);
      // Its throw-away certificate, not its key, is where the sandbox's deliveries look.
      const certFile = path.join(dataDir, "webhook-listeners", `${listener.child.pid}.pem`);
      expect(readFileSync(certFile, "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
      expect(readFileSync(certFile, "utf8")).not.toMatch(/PRIVATE KEY/);

      const investor = await pendingInvestor(app, token);
      expect((await app.http("GET", `/api/simulation/investors/v1/${investor.id}/register`, { token })).status).toBe(200);

      const [, deliveryId] = await waitForOutput(listener, /Z investor\.registered (whd_\S+|\S+) signature verified\n/, 20_000);
      const printed = listener.output().slice(listener.output().indexOf(`investor.registered ${deliveryId} signature verified`));
      const payload = JSON.parse(printed.slice(printed.indexOf("\n") + 1, printed.indexOf("\n}\n") + 2));
      expect(payload).toEqual({ success: true, data: { investor_id: investor.id, status: "REGISTERED", provider_remark: expect.any(String) } });
      // The service records the outcome once the listener has answered.
      await expect
        .poll(async () => (await app.http("GET", `/api/webhooks/v1/deliveries/${deliveryId}`, { token })).body.data, { timeout: 10_000 })
        .toMatchObject({ status: "DELIVERED", event: "investor.registered", attempts: 1 });

      listener.child.kill("SIGINT");
      expect(await listener.exited).toBe(0);
      expect(listener.output()).toContain(`Unsubscribed ${subscriptionId}.`);
      expect(await subscriptions()).toEqual([]);
      expect(existsSync(certFile)).toBe(false);
    } finally {
      listener.child.kill("SIGKILL");
    }
  }, 90_000);

  it("without a reachable service it says so and exits 1", async () => {
    const listener = runEntry("src/cli.ts", ["webhooks:listen", "--base", "http://127.0.0.1:9", "--token", "mfat_x"], { MF_DATA_DIR: dataDir });
    expect(await listener.exited).toBe(1);
    expect(listener.output()).toMatch(/Cannot reach the service at http:\/\/127\.0\.0\.1:9 .*is `npm start` running\?/);
    expect(existsSync(path.join(dataDir, "webhook-listeners", `${listener.child.pid}.pem`))).toBe(false);
  }, 60_000);
});
