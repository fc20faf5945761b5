import type { CapitalGainsView, GainLineView } from "./capital-gains.schemas.js";

/**
 * The capital gains statement as CSV (RFC 4180, CRLF): a header row, then one row per consumed lot, rupees with
 * 2 decimals and units with 3. A text cell that a spreadsheet would run as a formula (=, +, -, @) is prefixed
 * with an apostrophe; a cell with a comma, quote or line break is quoted.
 */

const COLUMNS: Array<[string, (l: GainLineView) => string]> = [
  ["registrar", (l) => text(l.registrar)],
  ["folio_no", (l) => text(l.folio_no)],
  ["scheme_code", (l) => text(l.scheme_code)],
  ["scheme_name", (l) => text(l.scheme_name)],
  ["sale_txn_no", (l) => text(l.sale_txn_no)],
  ["sale_type", (l) => l.sale_type],
  ["sale_date", (l) => l.sale_date],
  ["lot_source", (l) => l.lot_source],
  ["lot_txn_no", (l) => text(l.lot_txn_no)],
  ["purchase_date", (l) => l.purchase_date ?? ""],
  ["units", (l) => l.units.toFixed(3)],
  ["sale_value", (l) => rupees(l.sale_value)],
  ["cost", (l) => rupees(l.cost)],
  ["grandfathered_cost", (l) => rupees(l.grandfathered_cost)],
  ["grandfathering", (l) => l.grandfathering ?? ""],
  ["holding_days", (l) => (l.holding_days === null ? "" : String(l.holding_days))],
  ["tax_class", (l) => l.tax_class ?? ""],
  ["term", (l) => l.term ?? ""],
  ["gain", (l) => rupees(l.gain)],
  ["note", (l) => text(l.note)],
];

/** Rupees from the view's 2-decimal numbers (exact: each came from whole paise). */
export const rupees = (value: number | null) => (value === null ? "" : value.toFixed(2));

function text(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function capitalGainsCsv(statement: CapitalGainsView): string {
  const rows = [COLUMNS.map(([name]) => name).join(","), ...statement.lines.map((line) => COLUMNS.map(([, cell]) => cell(line)).join(","))];
  return `${rows.join("\r\n")}\r\n`;
}
