import type { DbOrTx } from "../../platform/db/client.js";
import { parseNavHistory } from "../../integrations/amfi/nav-history-file.js";
import { saveNavHistory } from "./nav-history.repo.js";

export interface NavHistoryImport {
  read: number;
  saved: number;
  skipped: Array<{ line: number; reason: string }>;
}

/** `npm run mf -- nav:import-history F`: AMFI's historical NAVs (the 31 January 2018 ones for grandfathering). */
export async function importNavHistory(db: DbOrTx, text: string): Promise<NavHistoryImport> {
  const file = parseNavHistory(text);
  // Several lines of one scheme and date (a span's file repeats none, but a joined one might): the last wins.
  const unique = [...new Map(file.rows.map((r) => [`${r.schemeCode} ${r.navDate}`, r])).values()];
  for (let i = 0; i < unique.length; i += 5000) await saveNavHistory(db, unique.slice(i, i + 5000));
  return { read: file.rows.length + file.skipped.length, saved: unique.length, skipped: file.skipped };
}
