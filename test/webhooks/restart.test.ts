import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { createTestDatabase } from "../helpers/db.js";
import { investorBody } from "../helpers/factories.js";
import { freePort, ROOT, runEntry, waitForOutput } from "../helpers/process.js";
import { startReceiver } from "../helpers/receiver.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

it("delivers an event whose process was killed before delivering it, once a worker starts again", async () => {
  const db = await createTestDatabase();
  cleanups.push(db.drop);
  const receiver = await startReceiver();
  cleanups.push(receiver.close);
  const port = await freePort();
  const env = {
    DATABASE_URL: db.url,
    PORT: String(port),
    MF_DATA_KEY: randomBytes(32).toString("hex"),
    MF_SANDBOX_CLIENT_ID: "mfc_restart_test",
    MF_SANDBOX_CLIENT_SECRET: "mfcs_restart_test_secret_value",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
    NODE_EXTRA_CA_CERTS: path.join(ROOT, "test/fixtures/tls/ca.pem"),
  };

  // The API alone: the event and its delivery are committed, nobody works the queue.
  const api = runEntry("src/main.ts", [], { ...env, MF_ROLE: "api" });
  cleanups.push(async () => api.child.kill("SIGKILL"));
  await waitForOutput(api, /role api/);
  const base = `http://127.0.0.1:${port}`;
  const call = async (method: string, pathname: string, token?: string, json?: unknown) => {
    const response = await fetch(`${base}${pathname}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const { body: auth } = await call("POST", "/api/auth/v1/token", undefined, {
    grant_type: "client_credentials", client_id: env.MF_SANDBOX_CLIENT_ID, client_secret: env.MF_SANDBOX_CLIENT_SECRET,
  });
  const token = auth.access_token as string;
  expect((await call("POST", "/api/webhooks/v1/subscriptions", token, { url: receiver.url(), events: ["investor.registered"] })).status).toBe(201);
  const investor = (await call("POST", "/api/investors/v1", token, investorBody())).body;
  expect((await call("GET", `/api/simulation/investors/v1/${investor.id}/register`, token)).status).toBe(200);
  const pending = await call("GET", "/api/webhooks/v1/deliveries?status=PENDING", token);
  expect(pending.body.data).toHaveLength(1);

  api.child.kill("SIGKILL");
  await api.exited;
  expect(receiver.received).toEqual([]);

  const worker = runEntry("src/main.ts", [], { ...env, MF_ROLE: "worker" });
  cleanups.push(async () => {
    worker.child.kill("SIGTERM");
    await worker.exited;
  });
  const [request] = await receiver.waitFor(1, 30_000);
  expect(request!.headers["x-mf-delivery"]).toBe(pending.body.data[0].id);
  expect(JSON.parse(request!.body.toString())).toEqual({ success: true, data: { investor_id: investor.id, status: "REGISTERED", provider_remark: "SANDBOX: UCC REGISTERED" } });
}, 90_000);
