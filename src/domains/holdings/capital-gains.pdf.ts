import PDFDocument from "pdfkit";
import { rupees } from "./capital-gains.csv.js";
import type { CapitalGainsView, GainLineView } from "./capital-gains.schemas.js";

/**
 * The capital gains statement as a PDF (pdfkit, its built-in Helvetica): the heading, the basis (not tax
 * advice), one row per consumed lot and the totals by class and term. Amounts in rupees with 2 decimals.
 */

const MARGIN = 36;
const ROW = 13;
const COLUMNS: Array<{ title: string; width: number; cell: (l: GainLineView) => string; right?: true }> = [
  { title: "Sale date", width: 58, cell: (l) => l.sale_date },
  { title: "Scheme", width: 150, cell: (l) => `${l.scheme_name ?? l.scheme_code}` },
  { title: "Folio", width: 62, cell: (l) => l.folio_no },
  { title: "Sale", width: 60, cell: (l) => l.sale_type },
  { title: "Bought", width: 58, cell: (l) => l.purchase_date ?? (l.lot_source === "OPENING" ? "before history" : "unknown") },
  { title: "Units", width: 56, cell: (l) => l.units.toFixed(3), right: true },
  { title: "Sale value", width: 64, cell: (l) => rupees(l.sale_value), right: true },
  { title: "Cost", width: 64, cell: (l) => rupees(l.grandfathered_cost), right: true },
  { title: "Days", width: 36, cell: (l) => (l.holding_days === null ? "" : String(l.holding_days)), right: true },
  { title: "Class", width: 62, cell: (l) => (l.tax_class === "EQUITY_ORIENTED" ? "EQUITY" : (l.tax_class ?? "")) },
  { title: "Term", width: 36, cell: (l) => l.term ?? "" },
  { title: "Gain", width: 64, cell: (l) => rupees(l.gain), right: true },
];

export function capitalGainsPdf(statement: CapitalGainsView): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", layout: "landscape", margin: MARGIN, info: { Title: `Capital gains ${statement.financial_year}`, Author: "Mutual fund distribution service" } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(14).text(`Capital gains statement, financial year ${statement.financial_year}`);
  doc.font("Helvetica").fontSize(9).text(`Investor ${statement.investor_id}; sales from ${statement.from} to ${statement.to}. Amounts in rupees.`);
  doc.moveDown(0.5).text(statement.basis, { width: doc.page.width - 2 * MARGIN });
  doc.moveDown();
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - ROW;
  const titles = COLUMNS.map((c) => c.title);
  const row = (cells: string[], bold = false) => {
    if (doc.y > bottom()) {
      doc.addPage();
      // Each page starts with the column titles.
      row(titles, true);
    }
    const y = doc.y;
    let x = MARGIN;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(7.5);
    COLUMNS.forEach((column, i) => {
      doc.text(cells[i] ?? "", x, y, { width: column.width - 4, align: column.right ? "right" : "left", height: ROW - 4, ellipsis: true });
      x += column.width;
    });
    doc.x = MARGIN;
    doc.y = y + ROW;
  };
  row(titles, true);
  for (const line of statement.lines) row(COLUMNS.map((c) => c.cell(line)));
  if (statement.lines.length === 0) doc.font("Helvetica").fontSize(9).text("No sales in this financial year.", MARGIN, doc.y, { width });
  doc.moveDown();
  if (doc.y > bottom() - 5 * ROW) doc.addPage();
  doc.font("Helvetica-Bold").fontSize(10).text("Totals by tax class and term", MARGIN, doc.y, { width });
  doc.font("Helvetica").fontSize(9);
  for (const total of statement.totals) {
    doc.text(`${total.tax_class} ${total.term}: sale value ${rupees(total.sale_value)}, cost ${rupees(total.cost)}, gain ${rupees(total.gain)}`, MARGIN, doc.y, { width });
  }
  if (statement.totals.length === 0) doc.text("None.", MARGIN, doc.y, { width });
  const notes = [...new Set(statement.lines.map((l) => l.note).filter((n): n is string => n !== null))];
  if (notes.length > 0) {
    doc.moveDown().font("Helvetica-Bold").text("Notes", MARGIN, doc.y, { width }).font("Helvetica");
    for (const note of notes) doc.text(`- ${note}`, MARGIN, doc.y, { width });
  }
  doc.end();
  return done;
}
