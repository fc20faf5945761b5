import type { DbOrTx } from "../db/client.js";
import type { AmfiSchemeRecord } from "./amfi/navall.js";

export interface ImportStats {
  received: number;
  inserted: number;
  updated: number;
  /** Rows older than what the master already holds, left alone. */
  unchanged: number;
}

const CHUNK = 2_000;

/**
 * Upserts AMFI records into the scheme master in multi-row statements. A record only replaces a
 * scheme's data when its NAV date is not older than the stored one, so importing an old file after a
 * new one never moves the latest NAV backwards. Trading rules are never touched by an update: they
 * come from the exchange, not from AMFI. New schemes start with the rules their scheme type implies
 * and unknown (null) minimums.
 */
export async function upsertAmfiRecords(db: DbOrTx, records: AmfiSchemeRecord[]): Promise<ImportStats> {
  const unique = [...new Map(records.map((r) => [r.scheme_code, r])).values()];
  const stats: ImportStats = { received: records.length, inserted: 0, updated: 0, unchanged: 0 };
  for (let i = 0; i < unique.length; i += CHUNK) {
    const chunk = unique.slice(i, i + CHUNK);
    const rows = await upsertChunk(db, chunk);
    const inserted = rows.filter((r) => r.inserted).length;
    stats.inserted += inserted;
    stats.updated += rows.length - inserted;
    stats.unchanged += chunk.length - rows.length;
  }
  return stats;
}

async function upsertChunk(db: DbOrTx, chunk: AmfiSchemeRecord[]): Promise<Array<{ inserted: boolean }>> {
  const column = <K extends keyof AmfiSchemeRecord>(key: K) => chunk.map((r) => r[key]);
  const openEnded = chunk.map((r) => /^open ended/i.test(r.scheme_type));
  const redeemable = chunk.map((r) => /^(open ended|interval)/i.test(r.scheme_type));
  return db.$queryRawUnsafe<Array<{ inserted: boolean }>>(
    `INSERT INTO schemes (scheme_code, isin_growth, isin_reinvestment, name, amc_code, amc_name, category,
                          scheme_type, plan, option, nav, nav_date, purchase_allowed, sip_allowed,
                          redemption_allowed, updated_at)
     SELECT r.*, now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::text[], $10::text[], $11::numeric[], $12::date[], $13::boolean[],
                   $13::boolean[], $14::boolean[])
         AS r(scheme_code, isin_growth, isin_reinvestment, name, amc_code, amc_name, category, scheme_type,
              plan, option, nav, nav_date, purchase_allowed, sip_allowed, redemption_allowed)
     ON CONFLICT (scheme_code) DO UPDATE SET
       isin_growth = excluded.isin_growth, isin_reinvestment = excluded.isin_reinvestment,
       name = excluded.name, amc_code = excluded.amc_code, amc_name = excluded.amc_name,
       category = excluded.category, scheme_type = excluded.scheme_type, plan = excluded.plan,
       option = excluded.option, nav = excluded.nav, nav_date = excluded.nav_date, updated_at = now()
     WHERE schemes.nav_date IS NULL OR excluded.nav_date >= schemes.nav_date
     RETURNING (xmax = 0) AS inserted`,
    column("scheme_code"), column("isin_growth"), column("isin_reinvestment"), column("scheme_name"),
    column("amc_code"), column("amc_name"), column("category"), column("scheme_type"), column("plan"),
    column("option"), column("nav"), column("nav_date"), openEnded, redeemable,
  );
}
