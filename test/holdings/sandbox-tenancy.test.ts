import { mkdtempSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { allottedOrder, newTenant, type Tenant } from "../helpers/tenants.js";
import { createScheme } from "../helpers/orders.js";

/**
 * Security review (issue 25): the sandbox CAMS investor file (WBR9) was keyed by folio and AMC only, so two
 * distributors using the same folio number got each other's PAN hash on their holdings (a PAN-confirmation
 * oracle); the refresh reported every distributor's counts and left files with PANs in the feed directory.
 */
const feedDir = mkdtempSync(path.join(os.tmpdir(), "holdings-tenancy-"));
const app = useTestApp({ HOLDINGS_FEED_DIR: feedDir });

let a: Tenant;
let b: Tenant;

async function allotInFolio(t: Tenant, amount: number, folio: string): Promise<void> {
  const order = { scheme_code: "930101", order_type: "LUMPSUM_PURCHASE", amount, purchase_type: "FRESH" };
  await allottedOrder(app, t, order, `nav=10&folio_no=${encodeURIComponent(folio)}`);
}

beforeAll(async () => {
  await createScheme(app, "930101", { isinGrowth: "INF930T01BB1", name: "Shared Folio Fund", amcCode: "SHAREDAMC", amcName: "Shared Mutual Fund", category: "Equity", nav: "10" });
  a = await newTenant(app);
  b = await newTenant(app);
  await allotInFolio(a, 5000, "SAME/1");
  await allotInFolio(b, 7000, "SAME/1");
});

afterAll(async () => {
  await rm(feedDir, { recursive: true, force: true });
});

const refresh = (t: Tenant) => app.http("GET", "/api/simulation/holdings/v1/refresh", { token: t.token });
const lookup = async (t: Tenant, pan: string) => (await app.http("POST", "/api/holdings/v1/lookup", { token: t.token, json: { pan } })).body;
const filesLeft = async () => (await readdir(feedDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);

describe("the sandbox holdings refresh with two distributors using the same folio number", () => {
  it("reports the caller's own feed only, and leaves no feed file behind", async () => {
    const res = await refresh(a);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Holdings refreshed: 2 feed(s) imported (1 positions, 1 transactions), 0 already imported, 0 rejected, 0 waiting");
    expect(await filesLeft()).toEqual([]);
  });

  it("gives each distributor's position its own investor's PAN: neither can confirm the other's PAN", async () => {
    await refresh(b);
    expect(await filesLeft()).toEqual([]);

    const own = await lookup(a, a.pan);
    expect(own.holdings.map((h: { folio_no: string; units: number }) => [h.folio_no, h.units])).toEqual([["SAME/1", 500]]);
    const theirs = await lookup(b, b.pan);
    expect(theirs.holdings.map((h: { folio_no: string; units: number }) => [h.folio_no, h.units])).toEqual([["SAME/1", 700]]);

    // The oracle: a distributor asking with the other's investor's PAN learns nothing.
    expect((await lookup(a, b.pan)).holdings).toEqual([]);
    expect((await lookup(b, a.pan)).holdings).toEqual([]);

    for (const t of [a, b]) {
      const positions = await app.http("GET", `/api/investors/v1/${t.investorId}/holdings`, { token: t.token });
      expect(positions.status).toBe(200);
      expect(positions.body.holdings.map((h: { folio_no: string }) => h.folio_no)).toEqual(["SAME/1"]);
    }
  });
});
