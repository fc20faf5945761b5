import { mkdtempSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueue } from "../../src/domains/shared/jobs/enqueue.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { seedSandbox } from "../../src/seed/sandbox.js";
import { startWorker } from "../../src/worker.js";
import { useTestApp } from "../helpers/app.js";
import { runTask } from "../helpers/jobs.js";
import { registeredInvestor } from "../helpers/investors.js";
import { createScheme } from "../helpers/orders.js";

const feedDir = mkdtempSync(path.join(os.tmpdir(), "holdings-sandbox-"));
const app = useTestApp({ HOLDINGS_FEED_DIR: feedDir });
let token = "";
let account = "";
let pan = "";

beforeAll(async () => {
  await createScheme(app, "930001", { isinGrowth: "INF930T01AA1", name: "Sandbox Loop Fund", amcCode: "LOOPAMC", amcName: "Loop Mutual Fund", category: "Equity", nav: "12.3456" });
  token = (await app.newDistributor()).token;
  ({ pan, account } = await registeredInvestor(app, token));
});

afterAll(async () => {
  await rm(feedDir, { recursive: true, force: true });
});

const lookup = async (t = token, p = pan) => (await app.http("POST", "/api/holdings/v1/lookup", { token: t, json: { pan: p } })).body;
const refresh = (t = token) => app.http("GET", "/api/simulation/holdings/v1/refresh", { token: t });
const allotted = async (order: Record<string, unknown>, allot: string) => {
  const placed = await app.http("POST", "/api/orders/v1/", { token, json: { investment_account_id: account, scheme_code: "930001", ...order } });
  expect(placed.status).toBe(201);
  await runTask(app, dispatchOrder, { order_id: placed.body.id });
  const res = await app.http("GET", `/api/simulation/orders/v1/${placed.body.id}/allot?${allot}`, { token });
  expect(res.status).toBe(200);
  return placed.body.id as string;
};

describe("the sandbox registrar loop", () => {
  it("place -> accept -> allot -> refresh -> lookup shows the units; a redemption removes them", async () => {
    expect((await lookup()).holdings).toEqual([]);
    await allotted({ order_type: "LUMPSUM_PURCHASE", amount: 5000, purchase_type: "FRESH" }, "nav=12.3456&folio_no=LOOP%2F1");
    const res = await refresh();
    expect(res.status).toBe(200);
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    expect(res.body).toEqual({ success: true, message: expect.stringMatching(/^Holdings refreshed: 2 feed\(s\) imported \(1 positions, 1 transactions\)/), data: today });
    // The sandbox registrar wrote a real CAMS batch that the importer read, then deleted it (it holds PANs).
    const imported = await app.prisma.holdingFeedFile.findMany({ select: { fileName: true } });
    expect(imported.map((f) => f.fileName).sort()).toEqual([
      expect.stringMatching(/^SANDBOX_\d{8}_\d+_ARN\d+_R2\.csv$/),
      expect.stringMatching(/^SANDBOX_\d{8}_\d+_ARN\d+_WBR22\.csv$/),
    ]);
    expect(await readdir(path.join(feedDir, "cams"))).toEqual([]);

    const body = await lookup();
    expect(body.holdings).toEqual([
      {
        registrar: "CAMS", amc_code: "LOOPAMC", amc_name: "Loop Mutual Fund", folio_no: "LOOP/1", scheme_code: "930001", isin: "INF930T01AA1",
        scheme_name: "Sandbox Loop Fund", units: 405.002, nav: 12.3456, nav_date: today, market_value: 4999.99, balance_date: today,
        // The sandbox's transaction feed line explains every unit: one lot at the allotment's cost (XIRR needs 7 days).
        cost_value: 5000, average_nav: 12.3456, unrealised_gain: -0.01, xirr: null, locked_units: 0, free_units: 405.002, undetermined_units: 0, next_unlock_date: null, lots_complete: true, lots_note: null,
      },
    ]);

    // Nothing changed: the same feed is not written or imported again.
    const again = await refresh();
    expect(again.body.message).toMatch(/: 0 feed\(s\) imported/);

    await allotted({ order_type: "REDEMPTION", folio_no: "LOOP/1", units: 100.5 }, "nav=12.3456");
    await refresh();
    expect((await lookup()).holdings.map((h: { units: number }) => h.units)).toEqual([304.502]);
    // Each refresh: the holdings batch and the transaction feed (WBR2).
    expect(await app.prisma.holdingFeedFile.count({ where: { outcome: "IMPORTED" } })).toBe(4);
  });

  it("the daily job refreshes through the worker, as the simulation does", async () => {
    await allotted({ order_type: "LUMPSUM_PURCHASE", amount: 1234.56, purchase_type: "ADDITIONAL", folio_no: "LOOP/1" }, "nav=12.3456");
    await enqueue(app.prisma, "holdings__refresh", {});
    const worker = await startWorker(app.services, app.databaseUrl);
    try {
      await expect.poll(async () => (await lookup()).holdings[0]?.units, { timeout: 15_000 }).toBe(404.502);
    } finally {
      await worker.stop();
    }
  });

  it("seeds folios for the sandbox distributor's demo investors; the joint one is not served", async () => {
    const credentials = await seedSandbox(app.services);
    // Start-up queues the refresh that brings the seeded folios in (the worker runs it at once).
    const queued = await app.prisma.$queryRawUnsafe<Array<{ task_identifier: string }>>(
      `SELECT task_identifier FROM graphile_worker.jobs WHERE key = 'holdings__refresh:seed'`,
    );
    expect(queued).toEqual([{ task_identifier: "holdings__refresh" }]);
    const tokenRes = await app.http("POST", "/api/auth/v1/token", { json: { grant_type: "client_credentials", ...credentials, source: undefined } });
    const sandboxToken = tokenRes.body.access_token as string;
    expect((await refresh(sandboxToken)).status).toBe(200);
    const meera = await lookup(sandboxToken, "AAAPZ1111A");
    expect(meera.holdings.map((h: { folio_no: string; scheme_code: string; registrar: string }) => [h.registrar, h.folio_no, h.scheme_code])).toEqual([
      ["CAMS", "PP1234567", "122639"],
      ["CAMS", "10293847/12", "102942"],
      ["KFINTECH", "91029384756", "112278"],
    ]);
    expect(meera.summary.positions).toBe(3);
    // The feed files carried the PAN as the registrars' do, and are gone once imported; responses never carry it.
    expect(await readdir(path.join(feedDir, "kfintech"))).toEqual([]);
    expect(JSON.stringify(meera)).not.toContain("AAAPZ1111A");
    // Another distributor does not see the sandbox distributor's folios.
    expect((await lookup(token, "AAAPZ1111A")).holdings).toEqual([]);
  });

  it("is a sandbox-only route that needs a token", async () => {
    expect((await app.http("GET", "/api/simulation/holdings/v1/refresh")).status).toBe(401);
  });
});
