import { parseNavDate } from "./navall.js";

/**
 * AMFI's historical NAV report (the "NAV history" download for a date or a span), semicolon-separated:
 *
 *   Scheme Code;Scheme Name;ISIN Div Payout/ISIN Growth;ISIN Div Reinvestment;Net Asset Value;Repurchase Price;Sale Price;Date
 *   <blank, section and AMC lines without a ';'>
 *   119551;Aditya Birla Sun Life Banking & PSU Debt Fund - Direct - IDCW;INF209KA12Z1;INF209KA13Z9;107.7658;;;31-Jan-2018
 *
 * Columns are found by their header names (scheme code, net asset value, date), not by position. A line whose
 * NAV or date does not read is reported and skipped, never fatal.
 */

export interface NavHistoryRow {
  schemeCode: string;
  navDate: string;
  nav: string;
}

export interface NavHistoryFile {
  rows: NavHistoryRow[];
  skipped: Array<{ line: number; reason: string }>;
}

export function parseNavHistory(text: string): NavHistoryFile {
  const lines = text.split(/\r?\n/);
  const headerAt = lines.findIndex((l) => /scheme code/i.test(l) && l.includes(";"));
  if (headerAt < 0) return { rows: [], skipped: [{ line: 1, reason: "no header line naming Scheme Code" }] };
  const header = lines[headerAt]!.split(";").map((h) => h.trim().toLowerCase());
  const at = { code: header.indexOf("scheme code"), nav: header.indexOf("net asset value"), date: header.indexOf("date") };
  if (at.code < 0 || at.nav < 0 || at.date < 0) return { rows: [], skipped: [{ line: headerAt + 1, reason: "the header lacks Scheme Code, Net Asset Value or Date" }] };
  const rows: NavHistoryRow[] = [];
  const skipped: NavHistoryFile["skipped"] = [];
  lines.forEach((raw, i) => {
    if (i <= headerAt || !raw.includes(";")) return;
    const cells = raw.split(";").map((c) => c.trim());
    const schemeCode = cells[at.code] ?? "";
    const nav = (cells[at.nav] ?? "").replace(/\.$/, "");
    const navDate = parseNavDate(cells[at.date] ?? "") ?? null;
    if (!/^\d+$/.test(schemeCode)) skipped.push({ line: i + 1, reason: `scheme code is not a number: "${schemeCode}"` });
    else if (!/^\d+(\.\d{1,4})?$/.test(nav) || Number(nav) === 0) skipped.push({ line: i + 1, reason: `net asset value is not a NAV: "${cells[at.nav] ?? ""}"` });
    else if (navDate === null) skipped.push({ line: i + 1, reason: `date is not DD-Mon-YYYY: "${cells[at.date] ?? ""}"` });
    else rows.push({ schemeCode, navDate, nav });
  });
  return { rows, skipped };
}
