import { afterAll, describe, expect, it } from "vitest";
import { useBseDouble } from "../../helpers/bse-double/double.js";
import { createTestDatabase } from "../../helpers/db.js";
import { runEntry, waitForOutput } from "../../helpers/process.js";

const double = useBseDouble();
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function expectNoSecrets(output: string) {
  expect(output).not.toContain(double.current.credentials.password);
  for (const issued of double.current.sessions.issued) expect(output).not.toContain(issued);
}

describe("npm run mf -- bse:check", () => {
  it("logs in to both services and reports the sessions and the member, placing nothing", async () => {
    const before = { ...double.current.sessions.logins };
    const run = runEntry("src/cli.ts", ["bse:check"], double.current.env());
    expect(await run.exited).toBe(0);
    const lines = run.output().trim().split("\n");
    expect(lines).toEqual([
      `BSE StAR MF at ${double.current.baseUrl}: member 10234, user 1023401`,
      expect.stringMatching(/^ {2}order entry \(MFOrder\.svc\): logged in, session valid until \d{4}-\d\d-\d\dT[\d:.]+Z \(pass key: generated\)$/),
      expect.stringMatching(/^ {2}additional services \(MFUploadService\.svc\): logged in, session valid until .+Z \(pass key: generated\)$/),
      "Ready: nothing was placed.",
    ]);
    expect(double.current.sessions.logins).toEqual({ order: before.order + 1, upload: before.upload + 1 });
    expect(double.current.calls.filter((c) => c.operation !== "getPassword")).toEqual([]);
    expectNoSecrets(run.output());
  });

  it("reports the exchange's message and exits 1 when a login is refused", async () => {
    double.current.sessions.failNextLogin("USER IS DISABLED. CONTACT ADMIN");
    const run = runEntry("src/cli.ts", ["bse:check"], double.current.env({ BSE_PASSKEY: "Fixed1" }));
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("  order entry (MFOrder.svc): login FAILED: USER IS DISABLED. CONTACT ADMIN\n");
    expect(run.output()).toMatch(/additional services \(MFUploadService\.svc\): logged in, .* \(pass key: BSE_PASSKEY\)\n/);
    expect(run.output()).toContain("Not ready: fix the failed login(s) above.");
    expectNoSecrets(run.output());
  });

  it("needs MF_EXCHANGE=bse", async () => {
    const run = runEntry("src/cli.ts", ["bse:check"], {});
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/^bse:check needs MF_EXCHANGE=bse and the BSE_\* variables/);
  });
});

describe("start-up self-check with MF_EXCHANGE=bse", () => {
  it("logs in once and logs the outcome: success, or the exchange's message; never a secret", async () => {
    const db = await createTestDatabase();
    cleanups.push(db.drop);
    const ok = runEntry("src/main.ts", [], { ...double.current.env(), DATABASE_URL: db.url, MF_ROLE: "worker", LOG_LEVEL: "info" });
    await waitForOutput(ok, /"msg":"BSE StAR MF login succeeded"/);
    await waitForOutput(ok, /role worker/); // started (its stop handlers installed)
    ok.child.kill("SIGTERM");
    expect(await ok.exited).toBe(0);
    const success = JSON.parse(ok.output().split("\n").find((l) => l.includes("BSE StAR MF login succeeded"))!) as Record<string, unknown>;
    expect(success).toMatchObject({ level: 30, component: "exchange", member_id: "10234", user_id: "1023401", session_expires_at: expect.any(String) });

    double.current.sessions.failNextLogin("THE MEMBER IS SUSPENDED. CONTACT ADMIN");
    const refused = runEntry("src/main.ts", [], { ...double.current.env(), DATABASE_URL: db.url, MF_ROLE: "worker", LOG_LEVEL: "info" });
    await waitForOutput(refused, /"msg":"BSE StAR MF login failed"/);
    await waitForOutput(refused, /role worker/);
    refused.child.kill("SIGTERM");
    expect(await refused.exited).toBe(0);
    expect(refused.output()).toContain(`"exchange_message":"THE MEMBER IS SUSPENDED. CONTACT ADMIN","msg":"BSE StAR MF login failed"`);
    expectNoSecrets(ok.output() + refused.output());
  });
});
