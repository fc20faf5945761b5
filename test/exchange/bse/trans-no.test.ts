import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrisma, type Db } from "../../../src/platform/db/client.js";
import { memberIdProblem } from "../../../src/integrations/exchange/bse/trans-no-layout.js";
import { allocateTransNo } from "../../../src/integrations/exchange/bse/trans-no.js";
import { createTestDatabase } from "../../helpers/db.js";

let db: { url: string; drop: () => Promise<void> };
let prisma: Db;

beforeAll(async () => {
  db = await createTestDatabase();
  prisma = createPrisma(db.url, 5);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

/** 2026-03-14 in India at 23:59 (18:29 UTC) and a minute later, the next day in India. */
const LATE = new Date("2026-03-14T18:29:00Z");
const NEXT_DAY = new Date("2026-03-14T18:31:00Z");

describe("TransNo", () => {
  it("is YYYYMMDD (the day in India) + member id + a 6-digit running number, 19 characters", async () => {
    expect(await allocateTransNo(prisma, "10234", LATE)).toBe("2026031410234000001");
    expect(await allocateTransNo(prisma, "10234", LATE)).toBe("2026031410234000002");
    expect(await allocateTransNo(prisma, "10234", NEXT_DAY)).toBe("2026031510234000001");
    expect(await allocateTransNo(prisma, "10234", LATE)).toBe("2026031410234000003");
    expect(await prisma.bseTransNoCounter.findMany({ orderBy: { day: "asc" } })).toEqual([
      { day: "20260314", n: 3 },
      { day: "20260315", n: 1 },
    ]);
  });

  it("1,000 concurrent allocations are all different and consecutive (one atomic statement each, no memory)", async () => {
    const day = new Date("2026-04-01T06:00:00Z");
    const all = await Promise.all(Array.from({ length: 1000 }, () => allocateTransNo(prisma, "10234", day)));
    expect(new Set(all).size).toBe(1000);
    expect(all.every((t) => /^2026040110234\d{6}$/.test(t) && t.length === 19)).toBe(true);
    expect(all.map((t) => Number(t.slice(-6))).sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it("refuses a member id that leaves no room for the running number (open point 7)", async () => {
    expect(memberIdProblem("12345")).toBeNull();
    expect(memberIdProblem("1234567")).toBe(
      "BSE_MEMBER_ID is 7 characters, but the exchange's unique reference (TransNo, 19 characters: YYYYMMDD + member id + a 6-digit running number) leaves room for at most 5; confirm the layout with the exchange",
    );
    await expect(allocateTransNo(prisma, "1234567", LATE)).rejects.toThrow(/BSE_MEMBER_ID is 7 characters/);
  });
});
