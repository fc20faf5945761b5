import { beforeAll, describe, expect, it } from "vitest";
import { importNavAllFile } from "../../src/domains/masters/schemes.service.js";
import { AMFI_NEW, AMFI_OLD, amfiFile } from "../helpers/amfi.js";
import { useTestApp } from "../helpers/app.js";

/** AMFI's real files, gzipped under test/fixtures/amfi. */
let NEW_FILE: string;
let OLD_FILE: string;
beforeAll(async () => {
  [NEW_FILE, OLD_FILE] = await Promise.all([amfiFile(AMFI_NEW), amfiFile(AMFI_OLD)]);
});

const app = useTestApp();

describe("AMFI NAVAll importer into the scheme master", () => {
  it("imports the old format, then the new one, never moving a NAV backwards", async () => {
    const old = await importNavAllFile(app.prisma, OLD_FILE);
    expect(old).toMatchObject({ format: "OLD", received: 14280, inserted: 14280, updated: 0, unchanged: 0, skipped: [] });
    expect(await app.prisma.scheme.count()).toBe(14280);

    const latest = await importNavAllFile(app.prisma, NEW_FILE);
    expect(latest.format).toBe("NEW");
    expect(latest.received).toBe(14282);
    expect(latest.inserted).toBe(30);
    expect(latest.inserted + latest.updated + latest.unchanged).toBe(14282);
    expect(await app.prisma.scheme.count()).toBe(14310);

    // Importing the older file again moves no NAV backwards.
    const latestDated = () => app.prisma.scheme.count({ where: { navDate: new Date("2026-08-21") } });
    const before = await latestDated();
    expect(before).toBe(8123);
    const again = await importNavAllFile(app.prisma, OLD_FILE);
    expect(again.inserted).toBe(0);
    expect(again.unchanged).toBeGreaterThan(8000);
    expect(await latestDated()).toBe(before);
  });

  it("keeps exact decimals, AMC and category from the section lines", async () => {
    const [row] = await app.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
      "SELECT scheme_code, amc_code, amc_name, category, scheme_type, plan, option, nav::text, nav_date::text FROM schemes WHERE scheme_code = '103166'",
    );
    expect(row).toEqual({
      scheme_code: "103166",
      amc_code: "ADITYA_BIRLA_SUN_LIFE",
      amc_name: "Aditya Birla Sun Life Mutual Fund",
      category: "Equity Scheme - Flexi Cap Fund",
      scheme_type: "Open Ended Schemes",
      plan: "REGULAR",
      option: "GROWTH",
      nav: "1982.0900",
      nav_date: "2026-08-21",
    });
  });
});
