import { describe, expect, it } from "vitest";
import { readRows } from "../../src/platform/db/client.js";
import { useTestApp } from "../helpers/app.js";

// readRows sends a hot read straight to the pg pool under Prisma (src/platform/db/client.ts): the rows must be
// what $queryRawUnsafe gives for the same statement, type by type, and in a transaction it goes through Prisma.
const app = useTestApp();

const TYPES = `SELECT 1234.50::numeric(18,2) AS amount, 0.125::numeric AS units, NULL::numeric AS nothing, DATE '2026-03-31' AS day,
  TIMESTAMPTZ '2026-03-31 23:45:01.123+05:30' AS at, '{"a": "1.10", "b": [1, null]}'::jsonb AS doc, '[{"x": "2"}]'::json AS list,
  42::int AS n, true AS flag, 'text' AS word, $1::text AS param`;

describe("readRows", () => {
  it("gives the values $queryRawUnsafe gives: Decimal, a date at UTC midnight, timestamps, JSON, int, boolean, null", async () => {
    const direct = await readRows<Record<string, unknown>>(app.prisma, TYPES, "p1");
    const viaPrisma = await app.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(TYPES, "p1");
    expect(direct).toHaveLength(1);
    const [row] = direct;
    expect(String(row!.amount)).toBe("1234.5");
    expect(row!.amount?.constructor).toBe(viaPrisma[0]!.amount?.constructor);
    expect((row!.day as Date).toISOString()).toBe("2026-03-31T00:00:00.000Z");
    expect((row!.at as Date).toISOString()).toBe("2026-03-31T18:15:01.123Z");
    expect(JSON.stringify(direct)).toBe(JSON.stringify(viaPrisma));
  });

  it("inside a transaction, reads through the transaction (sees its uncommitted write)", async () => {
    const seen = await app.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("CREATE TEMP TABLE read_rows_probe (v int) ON COMMIT DROP");
      await tx.$executeRawUnsafe("INSERT INTO read_rows_probe VALUES (7)");
      return readRows<{ v: number }>(tx, "SELECT v FROM read_rows_probe");
    });
    expect(seen).toEqual([{ v: 7 }]);
  });
});
