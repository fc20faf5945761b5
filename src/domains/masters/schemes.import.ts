import type { DbOrTx } from "../../platform/db/client.js";
import type { AmfiSchemeRecord } from "../../integrations/amfi/navall.js";
import { upsertAmfiChunk } from "./schemes.repo.js";

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
 * new one never moves the latest NAV backwards. Trading rules come from the exchange, not from AMFI:
 * a scheme new to the master is not tradable (the flags false) until the caller derives them from the exchange's
 * codes (exchange-schemes.repo.ts deriveSchemeRules), which it does after every import.
 */
export async function upsertAmfiRecords(db: DbOrTx, records: AmfiSchemeRecord[]): Promise<ImportStats> {
  const unique = [...new Map(records.map((r) => [r.scheme_code, r])).values()];
  const stats: ImportStats = { received: records.length, inserted: 0, updated: 0, unchanged: 0 };
  for (let i = 0; i < unique.length; i += CHUNK) {
    const chunk = unique.slice(i, i + CHUNK);
    const rows = await upsertAmfiChunk(db, chunk);
    const inserted = rows.filter((r) => r.inserted).length;
    stats.inserted += inserted;
    stats.updated += rows.length - inserted;
    stats.unchanged += chunk.length - rows.length;
  }
  return stats;
}
