import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/env.js";
import { holdingsRefreshCronItem } from "../../src/domains/holdings/cron.js";
import { refreshHoldings } from "../../src/domains/holdings/refresh.js";
import { useTestApp } from "../helpers/app.js";
import { investorBody, randomPan } from "../helpers/factories.js";
import { pendingInvestor } from "../helpers/investors.js";

// Every PAN, name and ARN below is made up.

let feedDir: string;
const app = useTestApp();
let d1: Awaited<ReturnType<typeof app.newDistributor>>;
let d2: Awaited<ReturnType<typeof app.newDistributor>>;
const pan = randomPan();
const MFSD203 = "PRCODE,FUND,ACNO,FUNDDESC,SCHEMEISIN,BALUNITS,PLDG,LNAV,VALINV,MOH,BROKCODE,PAN,INV_NAME,CRDATE";
const ZERO_SUMMARY = {
  total_market_value: 0, positions: 0, folios: 0, schemes: 0, as_of: null,
  by_registrar: { CAMS: { positions: 0, market_value: 0, as_of: null }, KFINTECH: { positions: 0, market_value: 0, as_of: null } },
  cost_value: 0, current_value: 0, unrealised_gain: 0, xirr: null, lots_complete: true,
};

beforeAll(async () => {
  feedDir = await mkdtemp(path.join(os.tmpdir(), "holdings-lookup-"));
  d1 = await app.newDistributor({ arn: `ARN-8${process.pid}1` });
  d2 = await app.newDistributor({ arn: `ARN-8${process.pid}2` });
  await mkdir(path.join(feedDir, "kfintech"), { recursive: true });
  await writeFile(
    path.join(feedDir, "kfintech", "MFSD203.csv"),
    [
      MFSD203,
      // Exact decimals: 0.1 + 0.2 style sums must not drift.
      `S1,AMC1,F1,Scheme One,,1.1,0,1,0.10,SINGLE,${d1.arn},${pan},Investor,2026-11-20`,
      `S2,AMC1,F1,Scheme Two,,2.2,0,1,0.20,SINGLE,${d1.arn},${pan},Investor,2026-11-19`,
      `S2,AMC2,F1,Scheme Two,,3,0,1,1000000.07,SINGLE,${d1.arn},${pan},Investor,2026-11-20`,
      `S9,AMC9,F9,Other Distributor Scheme,,4,0,1,4,SINGLE,${d2.arn},${pan},Investor,2026-11-20`,
    ].join("\n"),
  );
  await refreshHoldings(app.services, { feedDir, sandboxFeed: false });
});

afterAll(async () => {
  await rm(feedDir, { recursive: true, force: true });
});

const lookup = (token: string | undefined, json: unknown) => app.http("POST", "/api/holdings/v1/lookup", { token, json });

describe("POST /api/holdings/v1/lookup", () => {
  it("summarises in exact decimals; folios are per AMC, schemes distinct", async () => {
    const res = await lookup(d1.token, { pan });
    expect(res.status).toBe(200);
    expect(res.body.holdings.map((h: { amc_code: string; scheme_code: string; balance_date: string }) => [h.amc_code, h.scheme_code, h.balance_date])).toEqual([
      ["AMC1", "S1", "2026-11-20"], ["AMC1", "S2", "2026-11-19"], ["AMC2", "S2", "2026-11-20"],
    ]);
    expect(res.body.summary).toEqual({
      total_market_value: 1000000.37, positions: 3, folios: 2, schemes: 2, as_of: "2026-11-20",
      by_registrar: { CAMS: { positions: 0, market_value: 0, as_of: null }, KFINTECH: { positions: 3, market_value: 1000000.37, as_of: "2026-11-20" } },
      // No transactions: cost and return are over no units.
      cost_value: 0, current_value: 0, unrealised_gain: 0, xirr: null, lots_complete: false,
    });
  });

  it("shows a distributor only the positions reported under its own ARN", async () => {
    const res = await lookup(d2.token, { pan });
    expect(res.body.holdings.map((h: { folio_no: string }) => h.folio_no)).toEqual(["F9"]);
    const stranger = await app.newDistributor();
    expect((await lookup(stranger.token, { pan })).body).toEqual({ pan: `${pan.slice(0, 2)}XXXXX${pan.slice(7)}`, holdings: [], summary: ZERO_SUMMARY });
  });

  it("answers an unknown PAN with 200, empty holdings and a zero summary", async () => {
    const other = randomPan();
    const res = await lookup(d1.token, { pan: ` ${other} ` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ pan: `${other.slice(0, 2)}XXXXX${other.slice(7)}`, holdings: [], summary: ZERO_SUMMARY });
  });

  it("refuses a malformed or missing PAN and extra fields with 400 and the field path, and needs a token", async () => {
    for (const body of [{ pan: "ABCDE1234" }, { pan: "ABCDE0000F" }, { pan: "12345ABCDE" }, { pan: 1234567890 }, {}]) {
      const res = await lookup(d1.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: { code: "VALIDATION_ERROR", details: [expect.objectContaining({ path: "pan" })] } });
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
    const extra = await lookup(d1.token, { pan, investor: "x" });
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe("VALIDATION_ERROR");
    expect(extra.text).not.toContain(pan);
    expect((await lookup(undefined, { pan })).status).toBe(401);
    expect((await app.http("POST", "/api/holdings/v1/lookup", { token: d1.token, body: "not json", headers: { "content-type": "application/json" } })).status).toBe(400);
  });
});

describe("GET /api/investors/v1/{id}/holdings", () => {
  it("answers the investor's holdings over its primary PAN; another distributor's investor is 404", async () => {
    const body = investorBody();
    body.primary_holder.pan = pan;
    const { id } = await pendingInvestor(app, d1.token, body);
    const res = await app.http("GET", `/api/investors/v1/${id}/holdings`, { token: d1.token });
    expect(res.status).toBe(200);
    expect(res.body.investor_id).toBe(id);
    expect(res.body.holdings).toHaveLength(3);
    expect(res.body.summary.total_market_value).toBe(1000000.37);
    expect(res.body).not.toHaveProperty("pan");

    const other = await app.http("GET", `/api/investors/v1/${id}/holdings`, { token: d2.token });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe("NOT_FOUND");
    expect((await app.http("GET", "/api/investors/v1/inv_missing/holdings", { token: d1.token })).status).toBe(404);
  });

  it("answers an investor with nothing reported with empty holdings", async () => {
    const { id } = await pendingInvestor(app, d2.token);
    const res = await app.http("GET", `/api/investors/v1/${id}/holdings`, { token: d2.token });
    expect(res.body).toEqual({ investor_id: id, holdings: [], summary: ZERO_SUMMARY });
  });
});

describe("the daily refresh crontab (Asia/Kolkata)", () => {
  const at = (iso: string) => {
    const t = new Date(iso);
    return { min: t.getUTCMinutes(), hour: t.getUTCHours(), date: t.getUTCDate(), month: t.getUTCMonth() + 1, dow: t.getUTCDay() };
  };
  it("runs the default 06:00 IST at 00:30 UTC, across day boundaries for other expressions", () => {
    const year = new Date().getUTCFullYear();
    const daily = holdingsRefreshCronItem("0 6 * * *").match as (d: ReturnType<typeof at>) => boolean;
    expect(daily(at(`${year}-03-10T00:30:00Z`))).toBe(true);
    expect(daily(at(`${year}-03-10T06:00:00Z`))).toBe(false);
    // 02:00 IST on Mondays is 20:30 UTC on Sundays.
    const monday = holdingsRefreshCronItem("0 2 * * 1").match as (d: ReturnType<typeof at>) => boolean;
    const sunday = new Date(Date.UTC(year, 2, 1));
    sunday.setUTCDate(1 + ((7 - sunday.getUTCDay()) % 7));
    const iso = sunday.toISOString().slice(0, 10);
    expect(monday(at(`${iso}T20:30:00Z`))).toBe(true);
    expect(monday(at(`${iso}T02:00:00Z`))).toBe(false);
    expect(() => holdingsRefreshCronItem("61 6 * * *")).toThrow();
    expect(() => loadConfig({ HOLDINGS_REFRESH_CRON: "61 6 * * *" })).toThrow(ConfigError);
    expect(loadConfig({}).holdings.refreshCron).toBe("0 6 * * *");
  });
});
