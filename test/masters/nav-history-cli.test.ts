import path from "node:path";
import { describe, expect, it } from "vitest";
import { useCliDatabase } from "../helpers/cli-database.js";
import { runEntry } from "../helpers/process.js";

// AMFI's NAV history report for 31 January 2018, in its layout (made-up schemes and NAVs).
const FIXTURE = path.resolve(import.meta.dirname, "..", "fixtures", "amfi", "nav-history-20180131.txt");

const data = useCliDatabase("nav-history-cli-");

const navs = async () =>
  (await data.prisma.navHistory.findMany({ orderBy: { schemeCode: "asc" } })).map((n) => [n.schemeCode, n.navDate.toISOString().slice(0, 10), n.nav.toFixed(4)]);

describe("npm run mf -- nav:import-history", () => {
  it("saves each scheme's NAV for its date, reports malformed lines without failing, and adds nothing when run again", async () => {
    for (let run = 0; run < 2; run++) {
      const cli = runEntry("src/cli.ts", ["nav:import-history", FIXTURE], data.env);
      expect(await cli.exited).toBe(0);
      expect(cli.output()).toContain("4 lines read, 2 NAVs saved, 2 malformed lines skipped");
      expect(cli.output()).toContain('line 9: net asset value is not a NAV: "N.A."');
      expect(cli.output()).toContain('line 10: date is not DD-Mon-YYYY: "31-Feb-2018"');
      expect(await navs()).toEqual([["972002", "2018-01-31", "45.0000"], ["972003", "2018-01-31", "123.4567"]]);
    }
  });

  it("answers --json with the counts and the skipped lines", async () => {
    const cli = runEntry("src/cli.ts", ["nav:import-history", FIXTURE, "--json"], data.env);
    expect(await cli.exited).toBe(0);
    expect(JSON.parse(cli.output().trim())).toEqual({
      read: 4, saved: 2,
      skipped: [{ line: 9, reason: 'net asset value is not a NAV: "N.A."' }, { line: 10, reason: 'date is not DD-Mon-YYYY: "31-Feb-2018"' }],
    });
  });
});
