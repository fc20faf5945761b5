import { notFound } from "../../platform/lib/errors.js";
import { Decimal } from "../../platform/lib/money.js";
import type { Caller } from "../shared/caller.js";
import type { Services } from "../shared/services.js";
import { financialYear, gainLines, gainTotals, type GainLine } from "../portfolio/capital-gains.js";
import { buildLots } from "../portfolio/lots.js";
import { schemeTaxKind } from "../portfolio/tax.js";
import { rupees } from "./cost-and-return.js";
import { navsOn, transactionsOfPan } from "./capital-gains.repo.js";
import type { CapitalGainsView, GainLineView } from "./capital-gains.schemas.js";
import { investorPanHash, positionsByPanHash } from "./holdings.repo.js";
import { schemeFacts } from "./position-txns.repo.js";
import { positionKeyText, toPositionTxn } from "./position-txns.js";
import { TAX_KIND_OVERRIDES } from "./tax-overrides.js";

export const GAINS_BASIS =
  "A computation from the registrars' transaction feeds (CAMS, KFintech) for the single-holder folios of this investor " +
  "reported under your ARN: sales matched to purchase lots first in, first out, classified by the scheme's AMFI category " +
  "and the rules in force on each sale date. Folios held through other distributors or directly are not included. " +
  "It is not tax advice and not a tax computation: check it against the registrars' and MF Central's statements.";

const GRANDFATHERING_NAV_DATE = "2018-01-31";

const NOTES: Record<string, string> = {
  OPENING: "units held before the transactions we have: purchase date and cost unknown, left out of the totals",
  UNEXPLAINED: "more units sold than the transactions explain: purchase date and cost unknown, left out of the totals",
  NAV_UNKNOWN: "the 31 January 2018 NAV is not known: grandfathering could not be applied",
};

/** GET /api/investors/v1/{id}/capital-gains: every sale of the financial year with the lots it consumed. */
export async function capitalGains(services: Services, caller: Caller, investorId: string, year: string): Promise<CapitalGainsView> {
  const span = financialYear(year)!;
  const db = services.prisma;
  const panHash = await investorPanHash(db, caller.distributorId, investorId);
  if (panHash === null) throw notFound("Investor");
  const [txnRows, positions] = await Promise.all([transactionsOfPan(db, caller.distributorId, panHash), positionsByPanHash(db, caller.distributorId, panHash)]);
  const schemeCodes = [...new Set(txnRows.map((t) => t.scheme_code))];
  const [facts, navs] = await Promise.all([schemeFacts(db, schemeCodes), navsOn(db, schemeCodes, GRANDFATHERING_NAV_DATE)]);
  const categoryOf = new Map(facts.map((f) => [f.scheme_code, f.category]));
  const balanceOf = new Map(positions.map((p) => [positionKeyText(p), p.units]));
  const groups = new Map<string, typeof txnRows>();
  for (const row of txnRows) {
    const key = positionKeyText(row);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(row);
  }
  const lines: Array<{ view: GainLineView; line: GainLine }> = [];
  for (const [key, rows] of groups) {
    const first = rows[0]!;
    // A position the registrars no longer report holds nothing: its transactions are all we know.
    const lots = buildLots(rows.map(toPositionTxn), balanceOf.get(key) ?? "0");
    const nav = navs.get(first.scheme_code);
    const kind = schemeTaxKind(first.scheme_code, categoryOf.get(first.scheme_code) ?? "", TAX_KIND_OVERRIDES);
    const position = { registrar: first.registrar as GainLineView["registrar"], folio_no: first.folio_no, scheme_code: first.scheme_code, scheme_name: rows.find((r) => r.scheme_name)?.scheme_name ?? null };
    for (const line of gainLines({ kind, navOn20180131: nav === undefined ? null : new Decimal(nav), sales: lots.sales }, span)) {
      lines.push({ view: toLineView(position, line), line });
    }
  }
  lines.sort((a, b) => (a.line.soldOn < b.line.soldOn ? -1 : a.line.soldOn > b.line.soldOn ? 1 : 0));
  return {
    investor_id: investorId,
    financial_year: year,
    from: span.from,
    to: span.to,
    basis: GAINS_BASIS,
    lines: lines.map((l) => l.view),
    totals: gainTotals(lines.map((l) => l.line)).map((t) => ({
      tax_class: t.taxClass, term: t.term, sale_value: rupees(t.saleValuePaise), cost: rupees(t.costPaise), gain: rupees(t.gainPaise),
    })),
  };
}

const money = (paise: bigint | null) => (paise === null ? null : rupees(paise));

function toLineView(position: Pick<GainLineView, "registrar" | "folio_no" | "scheme_code" | "scheme_name">, line: GainLine): GainLineView {
  return {
    ...position,
    sale_txn_no: line.saleTxnNo,
    sale_type: line.saleType as GainLineView["sale_type"],
    sale_date: line.soldOn,
    lot_source: line.source,
    lot_txn_no: line.lotTxnNo,
    purchase_date: line.acquiredOn,
    units: line.units.toNumber(),
    sale_value: rupees(line.saleValuePaise),
    cost: money(line.costPaise),
    grandfathered_cost: money(line.grandfatheredCostPaise),
    grandfathering: line.grandfathering,
    holding_days: line.holdingDays,
    tax_class: line.taxClass,
    term: line.term,
    gain: money(line.gainPaise),
    note: NOTES[line.source === "LOT" ? (line.grandfathering ?? "") : line.source] ?? null,
  };
}
