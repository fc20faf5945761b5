import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openApiText } from "../../src/openapi.js";
import { createTestDatabase } from "../helpers/db.js";
import { freePort, runEntry, waitForOutput } from "../helpers/process.js";

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function token(base: string, clientId: string, clientSecret: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/v1/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function catalogStatus(base: string, accessToken: string): Promise<number> {
  return (await fetch(`${base}/api/masters/v1/investor-options`, { headers: { authorization: `Bearer ${accessToken}` } })).status;
}

describe("npm start", () => {
  it("with DATABASE_URL: migrates, seeds the sandbox client from the environment, serves, and stops on SIGTERM", async () => {
    const db = await createTestDatabase();
    cleanups.push(db.drop);
    const port = await freePort();
    const started = runEntry("src/main.ts", [], {
      DATABASE_URL: db.url,
      PORT: String(port),
      MF_SANDBOX_CLIENT_ID: "sandbox-client-1",
      MF_SANDBOX_CLIENT_SECRET: "sandbox-secret-0123456789",
    });
    await waitForOutput(started, /Sandbox client_secret/);
    const banner = started.output();
    expect(banner).toContain(`http://localhost:${port}/docs`);
    expect(banner).toContain("sandbox-client-1");
    const base = `http://127.0.0.1:${port}`;
    expect(await catalogStatus(base, await token(base, "sandbox-client-1", "sandbox-secret-0123456789"))).toBe(200);
    expect((await fetch(`${base}/api/masters/v1/schemes?limit=100`, { headers: { authorization: `Bearer ${await token(base, "sandbox-client-1", "sandbox-secret-0123456789")}` } })).status).toBe(200);
    started.child.kill("SIGTERM");
    expect(await started.exited).toBe(0);
  });

  it("without DATABASE_URL: runs an embedded PostgreSQL under the data dir and reuses its data on the next start", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "mf-start-"));
    await chmod(dataDir, 0o755);
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const pgPort = await freePort();
    const env = { MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: String(pgPort), PORT: String(await freePort()) };

    const first = runEntry("src/main.ts", [], env);
    const [, clientId] = await waitForOutput(first, /Sandbox client_id\s+(\S+)/, 90_000);
    const [, secret] = await waitForOutput(first, /Sandbox client_secret\s+(\S+)/);
    const base = `http://127.0.0.1:${env.PORT}`;
    const firstToken = await token(base, clientId!, secret!);
    first.child.kill("SIGINT");
    expect(await first.exited).toBe(0);
    // The embedded server stopped with the service.
    const pgPassword = (await readFile(path.join(dataDir, "pg.password"), "utf8")).trim();
    const probe = new pg.Client({ connectionString: `postgres://postgres:${pgPassword}@127.0.0.1:${pgPort}/postgres`, connectionTimeoutMillis: 1000 });
    await expect(probe.connect()).rejects.toThrow();

    const second = runEntry("src/main.ts", [], env);
    const [, clientIdAgain] = await waitForOutput(second, /Sandbox client_id\s+(\S+)/, 90_000);
    expect(clientIdAgain).toBe(clientId);
    expect(await catalogStatus(base, firstToken)).toBe(200);
    expect(JSON.parse(await readFile(path.join(dataDir, "sandbox-credentials.json"), "utf8")).client_id).toBe(clientId);
    // The sandbox's personal-data key was generated once under the data dir.
    expect((await readFile(path.join(dataDir, "data-key"), "utf8")).trim()).toMatch(/^[0-9a-f]{64}$/);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }, 180_000);

  it("MF_ROLE=worker runs the worker without an HTTP server", async () => {
    const db = await createTestDatabase();
    cleanups.push(db.drop);
    const port = await freePort();
    const started = runEntry("src/main.ts", [], { DATABASE_URL: db.url, PORT: String(port), MF_ROLE: "worker" });
    await waitForOutput(started, /role worker/);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    started.child.kill("SIGTERM");
    expect(await started.exited).toBe(0);
  });

  it("refuses to start in production with development switches", async () => {
    const started = runEntry("src/main.ts", [], { MF_ENV: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/DATABASE_URL is required in production/);
    expect(started.output()).toMatch(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
  });
});

describe("npm run mf", () => {
  it("distributors:create --json prints one line with the new client's credentials", async () => {
    const db = await createTestDatabase();
    cleanups.push(db.drop);
    const run = runEntry("src/cli.ts", ["distributors:create", "--name", "Asha Advisors", "--arn", "ARN-123", "--json"], { DATABASE_URL: db.url });
    expect(await run.exited).toBe(0);
    const lines = run.output().trim().split("\n");
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(created).sort()).toEqual(["arn", "client_id", "client_secret", "distributor_id"]);
    expect(created.arn).toBe("ARN-123");
    expect(created.distributor_id).toMatch(/^dst_/);

    const duplicate = runEntry("src/cli.ts", ["distributors:create", "--name", "Other", "--arn", "ARN-123"], { DATABASE_URL: db.url });
    expect(await duplicate.exited).toBe(1);
    expect(duplicate.output()).toMatch(/CONFLICT: A distributor with ARN-123 already exists/);

    const invalid = runEntry("src/cli.ts", ["distributors:create", "--name", "X", "--arn", "123"], { DATABASE_URL: db.url });
    expect(await invalid.exited).toBe(1);
    expect(invalid.output()).toMatch(/arn: ARN must be/);
  });

  it("migrate brings a fresh database up to date, and then has nothing to do", async () => {
    const server = (await createTestDatabase());
    cleanups.push(server.drop);
    // A database created empty (not from the template): drop what the template gave it.
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public; DROP SCHEMA graphile_worker CASCADE");
    await client.end();

    const first = runEntry("src/cli.ts", ["migrate"], { DATABASE_URL: server.url });
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain("Database is up to date.");
    const check = new pg.Client({ connectionString: server.url });
    await check.connect();
    const { rows } = await check.query("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL");
    const worker = await check.query("SELECT 1 FROM pg_namespace WHERE nspname = 'graphile_worker'");
    await check.end();
    expect(rows.length).toBeGreaterThan(0);
    expect(worker.rowCount).toBe(1);

    const again = runEntry("src/cli.ts", ["migrate"], { DATABASE_URL: server.url });
    expect(await again.exited).toBe(0);
  });

  it("openapi --out writes the same document as the routers generate", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "mf-openapi-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const out = path.join(dir, "openapi.json");
    const run = runEntry("src/cli.ts", ["openapi", "--out", out], {});
    expect(await run.exited).toBe(0);
    expect(await readFile(out, "utf8")).toBe(openApiText());
  });

  it("prints its usage for an unknown command", async () => {
    const run = runEntry("src/cli.ts", ["frobnicate"], {});
    expect(await run.exited).toBe(2);
    expect(run.output()).toMatch(/Unknown command: frobnicate[\s\S]*distributors:create/);
  });
});
