import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanChildEnv, freePort, ROOT, runEntry, waitForOutput, type Started } from "../helpers/process.js";
import { brokenPromises, contains, journeysOf, journeyScript, PRELUDE, promisesOf, recordedCalls } from "./journeys.js";

// The journeys of docs/guide.md, run as a user would: bash, curl and jq against a freshly started service (its own
// data directory and ports), in a directory that looks like the repository (the commands use .data and
// `npm run mf`). Every `# <status> {fields}` comment under a request is checked against that request's answer.
const JOURNEYS = ["setup", "onboarding", "orders", "exchange-rules", "installments", "servicing", "mandate-payments", "holdings", "history", "webhooks", "order-links", "broker-changes"];

let work = "";
let service: Started | undefined;
let base = "";
let port = 0;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "readme-journeys-"));
  await chmod(work, 0o755);
  for (const entry of ["package.json", "node_modules", "src", "tsconfig.json"]) await symlink(path.join(ROOT, entry), path.join(work, entry));
  port = await freePort();
  base = `http://localhost:${port}`;
  service = runEntry("src/main.ts", [], {
    MF_DATA_DIR: path.join(work, ".data"),
    PORT: String(port),
    MF_EMBEDDED_PG_PORT: String(await freePort()),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
  });
  await waitForOutput(service, /Demo PANs .*\n/, 120_000);
}, 150_000);

afterAll(async () => {
  if (service && service.child.exitCode === null) {
    service.child.kill("SIGTERM");
    await service.exited;
  }
  if (work) await rm(work, { recursive: true, force: true });
}, 30_000);

function runBash(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn("bash", [script], {
      cwd: work,
      env: cleanChildEnv({ LOG_LEVEL: "warn", ...env }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk) => (output += String(chunk)));
    child.stderr.on("data", (chunk) => (output += String(chunk)));
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("README journeys", () => {
  it("npm start prints the demo PANs the holdings journey uses", async () => {
    expect(service!.output()).toMatch(/Demo PANs +AAAPZ1111A \(Meera Iyer, REGISTERED, with a mandate\), AAAPZ2222B \(Kabir Shah, PENDING\)\n/);
    expect(service!.output()).toContain(`curl -s ${base}/api/holdings/v1/lookup`);
  });

  it("every journey block runs in order on a fresh start and answers what its comments promise", async () => {
    const readme = await readFile(path.join(ROOT, "docs", "guide.md"), "utf8");
    const journeys = journeysOf(readme);
    expect(journeys.map((j) => j.name)).toEqual(JOURNEYS);
    const promises = promisesOf(readme, journeys);
    expect(promises.length).toBeGreaterThan(40);
    // Dates in the journeys are computed, never written out.
    for (const journey of journeys) {
      const text = readme.split("\n").slice(journey.firstLine - 1, journey.lastLine).join("\n");
      expect(text, `journey ${journey.name}`).not.toMatch(/"20\d\d-\d\d-\d\d"/);
    }

    const log = path.join(work, "calls");
    await mkdir(log);
    await writeFile(path.join(work, "prelude.sh"), PRELUDE);
    await writeFile(path.join(work, "journeys.sh"), journeyScript(readme, journeys, base));
    const run = await runBash(path.join(work, "journeys.sh"), { JOURNEY_LOG: log, JOURNEY_PRELUDE: path.join(work, "prelude.sh"), PORT: String(port) });
    expect(run.code, run.output.slice(-6000)).toBe(0);

    expect(brokenPromises(promises, await recordedCalls(log))).toEqual([]);
    // The webhooks journey's listener printed the delivery it verified, and unsubscribed on SIGTERM.
    expect(run.output).toMatch(/Listening on https:\/\/127\.0\.0\.1:\d+\/ for order\.\* \(subscription whs_\w+\)/);
    expect(run.output).toMatch(/Z order\.accepted whd_\w+ signature verified\n\{\n {2}"success": true,/);
    expect(run.output).toMatch(/Unsubscribed whs_\w+\./);
    expect(run.output).toContain("same bytes");
  }, 300_000);
});

describe("the promise checker", () => {
  it("matches listed keys, patterns with ..., array elements, and objects nested anywhere", () => {
    expect(contains({ id: "ord_...", status: "PENDING" }, { id: "ord_1", status: "PENDING", other: 1 })).toBe(true);
    expect(contains({ id: "ord_..." }, { id: "inv_1" })).toBe(false);
    expect(contains({ units: 10.902 }, { units: 10.9 })).toBe(false);
    expect(contains({ a: { b: 1 } }, { a: { b: 1, c: 2 } })).toBe(true);
    expect(contains({ a: [{ b: 1 }] }, { a: [{ b: 2 }, { b: 1 }] })).toBe(true);
    expect(brokenPromises([{ journey: "j", line: 10, after: 1, status: 200, fields: { installment_no: 1 }, text: "# 200" }], [{ line: 5, status: 200, body: '{"data":[{"installment_no":1}]}' }])).toEqual([]);
    expect(brokenPromises([{ journey: "j", line: 10, after: 1, status: 201, fields: undefined, text: "# 201" }], [{ line: 5, status: 200, body: "{}" }])).toHaveLength(1);
    expect(brokenPromises([{ journey: "j", line: 10, after: 6, status: 200, fields: undefined, text: "# 200" }], [{ line: 5, status: 200, body: "{}" }])).toEqual([
      'README line 10 (journey j) "# 200": no request was made above it',
    ]);
  });
});
