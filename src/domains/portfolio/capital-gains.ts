import type { Decimal } from "../../platform/lib/money.js";
import type { Disposal, LotSource } from "./lots.js";
import { grandfatheredCost, holdingDays, taxClass, term, type Grandfathering, type SchemeTaxKind, type TaxClass, type Term } from "./tax.js";

/**
 * A financial year's capital gains of one position: every sale in the year (1 April to 31 March) with the lots
 * it consumed, each classified and termed for its sale date (tax.ts). Lots of unknown date and cost (OPENING,
 * UNEXPLAINED) are listed with no cost, class, term or gain, and left out of the totals. Paise exact.
 */

const FINANCIAL_YEAR = /^(\d{4})-(\d{2})$/;

/** '2025-26' -> 2025-04-01..2026-03-31; null unless the second part is the year after the first. */
export function financialYear(text: string): { from: string; to: string } | null {
  const match = FINANCIAL_YEAR.exec(text);
  if (!match) return null;
  const start = Number(match[1]);
  if (start < 2000 || (start + 1) % 100 !== Number(match[2])) return null;
  return { from: `${start}-04-01`, to: `${start + 1}-03-31` };
}

export interface GainLine {
  saleTxnNo: string;
  saleType: Disposal["type"];
  soldOn: string;
  source: LotSource;
  lotTxnNo: string | null;
  acquiredOn: string | null;
  units: Decimal;
  saleValuePaise: bigint;
  costPaise: bigint | null;
  /** The cost the gain is computed on (the grandfathered cost where that applies). */
  grandfatheredCostPaise: bigint | null;
  grandfathering: Grandfathering | null;
  holdingDays: number | null;
  taxClass: TaxClass | null;
  term: Term | null;
  gainPaise: bigint | null;
}

export interface PositionForGains {
  kind: SchemeTaxKind;
  navOn20180131: Decimal | null;
  sales: readonly Disposal[];
}

export function gainLines(position: PositionForGains, year: { from: string; to: string }): GainLine[] {
  const lines: GainLine[] = [];
  for (const sale of position.sales) {
    if (sale.soldOn < year.from || sale.soldOn > year.to) continue;
    for (const part of sale.consumed) {
      const line = { saleTxnNo: sale.txnNo, saleType: sale.type, soldOn: sale.soldOn, source: part.source, lotTxnNo: part.lotTxnNo, acquiredOn: part.acquiredOn, units: part.units, saleValuePaise: part.saleValuePaise, costPaise: part.costPaise };
      if (part.source !== "LOT") {
        lines.push({ ...line, grandfatheredCostPaise: null, grandfathering: null, holdingDays: null, taxClass: null, term: null, gainPaise: null });
        continue;
      }
      const lotClass = taxClass(position.kind, part.acquiredOn);
      const cost = grandfatheredCost({ taxClass: lotClass, acquiredOn: part.acquiredOn, units: part.units, costPaise: part.costPaise, saleValuePaise: part.saleValuePaise }, position.navOn20180131);
      lines.push({
        ...line,
        grandfatheredCostPaise: cost.costPaise,
        grandfathering: cost.grandfathering,
        holdingDays: holdingDays(part.acquiredOn, sale.soldOn),
        taxClass: lotClass,
        term: term(lotClass, part.acquiredOn, sale.soldOn),
        gainPaise: part.saleValuePaise - cost.costPaise,
      });
    }
  }
  return lines;
}

export interface GainTotal {
  taxClass: TaxClass;
  term: Term;
  saleValuePaise: bigint;
  costPaise: bigint;
  gainPaise: bigint;
}

/** Totals by class and term, in a fixed order, only for the pairs that have lines; unknown-cost lines left out. */
export function gainTotals(lines: readonly GainLine[]): GainTotal[] {
  const order: [TaxClass, Term][] = [["EQUITY_ORIENTED", "SHORT"], ["EQUITY_ORIENTED", "LONG"], ["SPECIFIED", "SHORT"], ["OTHER", "SHORT"], ["OTHER", "LONG"]];
  const totals: GainTotal[] = [];
  for (const [cls, trm] of order) {
    const mine = lines.filter((l) => l.taxClass === cls && l.term === trm);
    if (mine.length === 0) continue;
    totals.push({
      taxClass: cls,
      term: trm,
      saleValuePaise: mine.reduce((sum, l) => sum + l.saleValuePaise, 0n),
      costPaise: mine.reduce((sum, l) => sum + l.grandfatheredCostPaise!, 0n),
      gainPaise: mine.reduce((sum, l) => sum + l.gainPaise!, 0n),
    });
  }
  return totals;
}
