import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbOrTx } from "../../src/platform/db/client.js";
import { positionsByPanHash, sumFolioUnits } from "../../src/domains/holdings/holdings.repo.js";
import { useTestApp } from "../helpers/app.js";

// holding_positions' key is (distributor_id, registrar, folio_no, amc_code, registrar_scheme_code), in the order the
// feeds list their rows. These checks show PostgreSQL enforces it and that the lookups and the refresh's DELETE
// still find their rows through an index, on a table of realistic shape (20 distributors, 40,000 positions).

const app = useTestApp();
const DISTRIBUTORS = 20;

beforeAll(async () => {
  await app.prisma.$executeRawUnsafe(
    `INSERT INTO holding_positions (distributor_id, registrar, amc_code, folio_no, registrar_scheme_code, scheme_name, units,
       balance_date, holding_nature, pan_hash, feed_file_id)
     SELECT 'dst_key_' || (n % ${DISTRIBUTORS}), CASE WHEN n % 2 = 0 THEN 'CAMS' ELSE 'KFINTECH' END, 'AMC' || (n % 40),
            (1000000 + n / 2)::text, 'S' || (n % 7), 'Scheme', 1.5, DATE '2026-11-16', 'SINGLE', md5((n / 5)::text), 'hff_key'
       FROM generate_series(1, 40000) AS n`,
  );
  await app.prisma.$executeRawUnsafe("ANALYZE holding_positions");
});

afterAll(async () => {
  await app.prisma.$executeRawUnsafe("DELETE FROM holding_positions WHERE feed_file_id = 'hff_key'");
});

/** The plan of a statement, as the node types and index names it uses. */
async function planOf(sql: string, ...params: unknown[]): Promise<string> {
  const [row] = await app.prisma.$queryRawUnsafe<Array<{ "QUERY PLAN": unknown }>>(`EXPLAIN (FORMAT JSON) ${sql}`, ...params);
  return JSON.stringify(row!["QUERY PLAN"]);
}

/** The plan of a repository function's own statement: it runs on a stand-in that explains instead of executing. */
async function planOfRepo(call: (db: DbOrTx) => Promise<unknown>): Promise<string> {
  let plan = "";
  const explaining = {
    $queryRawUnsafe: async (sql: string, ...params: unknown[]) => {
      plan = await planOf(sql, ...params);
      return [];
    },
  } as unknown as DbOrTx;
  await call(explaining);
  return plan;
}

describe("holding_positions key", () => {
  it("is enforced by PostgreSQL", async () => {
    const insert = app.prisma.$executeRawUnsafe(
      `INSERT INTO holding_positions (distributor_id, registrar, amc_code, folio_no, registrar_scheme_code, scheme_name, units,
         balance_date, holding_nature, feed_file_id)
       VALUES ('dst_key_2', 'CAMS', 'AMC2', '1000001', 'S2', 'Again', 1, DATE '2026-11-16', 'SINGLE', 'hff_key')`,
    );
    await expect(insert).rejects.toThrow(/holding_positions_pkey|Unique constraint/);
    const [constraint] = await app.prisma.$queryRawUnsafe<Array<{ key: string }>>(
      "SELECT pg_get_constraintdef(oid) AS key FROM pg_constraint WHERE conname = 'holding_positions_pkey'",
    );
    expect(constraint?.key).toBe("PRIMARY KEY (distributor_id, registrar, folio_no, amc_code, registrar_scheme_code) DEFERRABLE");
  });

  it("leaves the PAN lookup on the pan_hash index", async () => {
    const plan = await planOfRepo((db) => positionsByPanHash(db, "dst_key_5", "0".repeat(64)));
    expect(plan).toContain('"Index Name":"holding_positions_pan_hash_idx"');
    expect(plan).not.toContain("Seq Scan");
  });

  it("leaves a folio's units on the key's index", async () => {
    const plan = await planOfRepo((db) => sumFolioUnits(db, "dst_key_5", "1000005", "S3"));
    expect(plan).toContain('"Index Name":"holding_positions_pkey"');
    // The folio bounds the scan (PostgreSQL skips over the registrar), rather than filtering the distributor's rows.
    expect(plan).toContain(`"Index Cond":"((distributor_id = 'dst_key_5'::text) AND (folio_no = '1000005'::text))"`);
    expect(plan).not.toContain("Seq Scan");
  });

  it("leaves the refresh's DELETE of a distributor's positions on the key's index", async () => {
    // The statements src/domains/holdings/import.ts sends (replacePositions).
    for (const sql of [
      "DELETE FROM holding_positions WHERE registrar = $1 AND distributor_id = ANY($2::text[]) AND feed_file_id <> $3",
      "DELETE FROM holding_positions WHERE registrar = $1 AND distributor_id = ANY($2::text[])",
    ]) {
      const params = sql.includes("$3") ? ["CAMS", ["dst_key_5"], "hff_new"] : ["CAMS", ["dst_key_5"]];
      const plan = await planOf(sql, ...params);
      expect(plan).toContain('"Index Name":"holding_positions_pkey"');
      expect(plan).not.toContain("Seq Scan");
    }
  });
});
