import { beforeAll, describe, expect, it } from "vitest";
import { listInvestors } from "../../src/domains/investors/investors.repo.js";
import { useTestApp } from "../helpers/app.js";
import { fillAtScale, planOfStatementOn, rowsRemoved, scansOf } from "../helpers/scale-data.js";

// The investor list's page on the generator's shapes (10,000 investors over eight distributors of very different
// sizes): the distributor's own range of (distributor_id, id) read backwards from the cursor, never all its
// investors read and sorted, nor the primary key walked past the others'.

const app = useTestApp();
let distributors: string[];

beforeAll(async () => {
  ({ distributors } = await fillAtScale(app.databaseUrl, app.services, { investors: 10_000, orders: 200 }));
}, 120_000);

describe("the investor list's statement", () => {
  it("for the smallest distributor: a backward range of investors_distributor_id_id_idx, no sort", async () => {
    const plan = await planOfStatementOn(app.prisma, "investors", () => listInvestors(app.prisma, { distributorId: distributors[distributors.length - 1]!, limit: 20 }));
    expect(scansOf(plan, "investors").map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Scan", "investors_distributor_id_id_idx"]]);
    expect(JSON.stringify(plan)).not.toContain('"Node Type":"Sort"');
    expect(rowsRemoved(plan)).toBe(0);
  });

  it("for the biggest, first page and from a cursor half-way down: a backward range of investors_distributor_id_id_idx, nothing thrown away", async () => {
    const [middle] = await app.prisma.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id FROM investors WHERE distributor_id = $1 ORDER BY id OFFSET 3000 LIMIT 1`, distributors[0]);
    for (const afterId of [undefined, middle!.id]) {
      const plan = await planOfStatementOn(app.prisma, "investors", () => listInvestors(app.prisma, { distributorId: distributors[0]!, afterId, limit: 20 }));
      expect(scansOf(plan, "investors").map((n) => [n["Node Type"], n["Index Name"]])).toEqual([["Index Scan", "investors_distributor_id_id_idx"]]);
      expect(rowsRemoved(plan)).toBe(0);
    }
  });

  it("with status: a range of investors_distributor_id_status_id_idx", async () => {
    const plan = await planOfStatementOn(app.prisma, "investors", () => listInvestors(app.prisma, { distributorId: distributors[distributors.length - 1]!, status: "REGISTERED", limit: 20 }));
    expect(scansOf(plan, "investors").map((n) => n["Index Name"])).toEqual(["investors_distributor_id_status_id_idx"]);
    expect(rowsRemoved(plan)).toBe(0);
  });

  // Last: it gives the newest investors to another distributor.
  it("for the biggest when another distributor's investors are the newest: its own range, none of theirs read", async () => {
    await app.prisma.$executeRawUnsafe(`UPDATE investors SET distributor_id = $1 WHERE id IN (SELECT id FROM investors ORDER BY id DESC LIMIT 1500)`, distributors[1]);
    await app.prisma.$executeRawUnsafe("ANALYZE investors");
    const listed = await listInvestors(app.prisma, { distributorId: distributors[0]!, limit: 20 });
    const [newest] = await app.prisma.$queryRawUnsafe<Array<{ id: string }>>(`SELECT id FROM investors WHERE distributor_id = $1 ORDER BY id DESC LIMIT 1`, distributors[0]);
    expect(listed[0]!.id).toBe(newest!.id);
    const plan = await planOfStatementOn(app.prisma, "investors", () => listInvestors(app.prisma, { distributorId: distributors[0]!, limit: 20 }));
    const scans = scansOf(plan, "investors");
    expect(scans.map((n) => [n["Node Type"], n["Index Name"], n["Actual Rows"]])).toEqual([["Index Scan", "investors_distributor_id_id_idx", 21]]);
    expect(rowsRemoved(plan)).toBe(0);
  });
});
