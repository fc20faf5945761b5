import type { DbOrTx } from "../../platform/db/client.js";
import type { NavHistoryRow } from "../../integrations/amfi/nav-history-file.js";

/** AMFI's historical NAVs, one per scheme and date (a file read again rewrites the same rows). */
export async function saveNavHistory(db: DbOrTx, rows: readonly NavHistoryRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  return db.$executeRawUnsafe(
    `INSERT INTO nav_history (scheme_code, nav_date, nav)
     SELECT * FROM unnest($1::text[], $2::date[], $3::numeric[])
     ON CONFLICT (scheme_code, nav_date) DO UPDATE SET nav = EXCLUDED.nav`,
    rows.map((r) => r.schemeCode),
    rows.map((r) => r.navDate),
    rows.map((r) => r.nav),
  );
}
