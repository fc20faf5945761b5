/**
 * Holding positions as the registrar feeds import them (bench/holdings-lookup.ts's rows): five a PAN, the PANs
 * the generated investors hold (so a holdings lookup of an investor's PAN finds them), under its distributor.
 */
import type pg from "pg";
import type { Services } from "../../src/domains/shared/services.js";
import { copyLines, row, type Progress } from "./copy.js";
import { panOf } from "./ids.js";
import { distributorOfInvestor, type Scale } from "./shapes.js";

export const POSITIONS_PER_PAN = 5;

export async function copyPositions(client: pg.Client, services: Services, distributors: string[], scale: Scale, progress: Progress): Promise<void> {
  function* lines(): Generator<string> {
    const groups = Math.ceil(scale.positions / POSITIONS_PER_PAN);
    for (let g = 0; g < groups; g++) {
      const n = g % scale.investors;
      const distributor = distributors[distributorOfInvestor(n, scale.investors)]!;
      const hash = services.cipher.lookupHash(panOf(n));
      for (let k = 0; k < POSITIONS_PER_PAN && g * POSITIONS_PER_PAN + k < scale.positions; k++) {
        const units = `${(g % 9000) + k}.125`;
        yield row([distributor, k % 2 ? "KFINTECH" : "CAMS", `AMC${(g + k) % 40}`, `${g}/${k}`, `S${(g * 3 + k) % 500}`, String(100000 + ((g + k) % 500)), "Bench Mutual Fund",
          `INF000B${String((g + k) % 9999).padStart(4, "0")}1`, `Bench Scheme ${(g + k) % 500} Growth`, units, "21.3456", "2026-11-16", (((g % 9000) + k) * 21.3456 + 0.0021).toFixed(2), "2026-11-16",
          k === 4 && g % 3 === 0 ? "JOINT" : "SINGLE", hash, "hff_scale"]);
      }
    }
  }
  await copyLines(client, "holding_positions", ["distributor_id", "registrar", "amc_code", "folio_no", "registrar_scheme_code", "scheme_code", "amc_name", "isin", "scheme_name",
    "units", "nav", "nav_date", "market_value", "balance_date", "holding_nature", "pan_hash", "feed_file_id"], lines(), progress);
}
