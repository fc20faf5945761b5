import { execFileSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/build.js";
import { createTestDatabase } from "../helpers/db.js";
import { freePort, problemLines, REFUSE_TYPESCRIPT, ROOT, runBuilt, runNode, waitForOutput, type Started } from "../helpers/process.js";

/**
 * The production build: `npm run build` compiles to dist/, and plain node runs it (the service and the
 * command line) with no TypeScript loader: every process here runs under test/deploy/refuse-typescript.mjs.
 */

let dist: string;
const cleanups: Array<() => Promise<unknown>> = [];
const running: Started[] = [];

beforeAll(async () => {
  dist = await ensureBuilt();
}, 300_000);

afterAll(async () => {
  for (const started of running) if (started.child.exitCode === null) started.child.kill("SIGKILL");
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function testDatabase(): Promise<string> {
  const db = await createTestDatabase();
  cleanups.push(db.drop);
  return db.url;
}

describe("the build", () => {
  it("is JavaScript only, with the generated Prisma client and the pages, and git ignores it", async () => {
    const files = (await readdir(dist, { recursive: true })).map(String);
    expect(files).toEqual(expect.arrayContaining(["main.js", "cli.js", path.join("generated", "prisma", "client.js"), path.join("pages", "link-page.js")]));
    expect(files.filter((f) => /\.(ts|tsx|mts|cts)$/.test(f))).toEqual([]);
    expect(execFileSync("git", ["check-ignore", "dist/main.js"], { cwd: ROOT, encoding: "utf8" }).trim()).toBe("dist/main.js");
  });

  it("the TypeScript guard refuses tsx, so a clean run below proves none was loaded", async () => {
    const withTsx = runNode(["--import", REFUSE_TYPESCRIPT, "--import", "tsx", "-e", "0"], {});
    expect(await withTsx.exited).toBe(1);
    expect(withTsx.output()).toContain("refused TypeScript loader: tsx");
  });
});

describe("node dist/main.js", () => {
  it("serves /readyz and /healthz from the build against PostgreSQL and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const started = runBuilt(path.join(dist, "main.js"), [], { DATABASE_URL: await testDatabase(), PORT: String(port), LOG_LEVEL: "info" });
    running.push(started);
    await waitForOutput(started, /Base URL/, 60_000);
    const base = `http://127.0.0.1:${port}`;

    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("content-type")).toBe("application/json");
    expect(await ready.text()).toBe('{"status":"ready"}');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('{"status":"ok"}');
    // Files the service reads at run time come from the package root, not from next to the compiled code.
    const css = await fetch(`${base}/pages/pages.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect((await fetch(`${base}/docs`)).status).toBe(200);

    started.child.kill("SIGTERM");
    expect(await started.exited, started.output()).toBe(0);
    const output = started.output();
    expect(output.indexOf('"msg":"stopped"')).toBeGreaterThan(output.indexOf('"msg":"stopping"'));
    expect(problemLines(output)).toEqual([]);
  }, 90_000);
});

describe("node dist/cli.js", () => {
  it("migrates a database and creates a distributor", async () => {
    const url = await testDatabase();
    const migrate = runBuilt(path.join(dist, "cli.js"), ["migrate"], { DATABASE_URL: url });
    expect(await migrate.exited, migrate.output()).toBe(0);
    expect(migrate.output()).toContain("Database is up to date.");

    const create = runBuilt(path.join(dist, "cli.js"), ["distributors:create", "--name", "Asha Advisors", "--arn", "ARN-4321", "--json"], { DATABASE_URL: url });
    expect(await create.exited, create.output()).toBe(0);
    const created = JSON.parse(create.output().trim()) as Record<string, string>;
    expect(Object.keys(created).sort()).toEqual(["arn", "client_id", "client_secret", "distributor_id"]);
    expect(created.arn).toBe("ARN-4321");
  }, 60_000);
});
