import { Decimal } from "../../platform/lib/money.js";
import { decryptDetails } from "../investors/investors.service.js";
import { distributorArns, findDistributorByArn } from "../auth/distributors.service.js";
import { SANDBOX_DISTRIBUTOR } from "../auth/sandbox-distributor.js";
import { investorDetails } from "../investors/investors.service.js";
import { schemeSummaries } from "../masters/schemes.service.js";
import { orderDetails, targetSchemeCode } from "../orders/order-details.js";
import { orderType } from "../orders/order-types.js";
import { allottedOrdersWithFolio } from "../orders/orders.service.js";
import type { Services } from "../shared/services.js";
import { SEEDED_FOLIOS } from "../../integrations/registrars/sandbox/sandbox-folios.js";
import { sandboxRegistrarFor, type SandboxHolding, type SandboxLedger } from "../../integrations/registrars/sandbox/sandbox-registrar.js";
import { todayInIndia } from "../../platform/lib/india-date.js";
import { sandboxTxnNo, type SandboxTransaction, type SandboxTransactionType } from "../../integrations/registrars/sandbox/sandbox-transactions.js";

/**
 * The sandbox registrar's books: the balances it reports, from the seeded folios of the sandbox distributor plus
 * every ALLOTTED order of every distributor. Each order moves units as its type's `units` says (order-types.ts):
 * purchases (lump sum, SIP, XSIP, SIP top-up) add the allotted units; redemptions and SWPs remove them; switches and
 * STPs remove them from the source scheme and add the allotted amount at the target scheme's NAV to the target. A
 * folio redeemed to zero is reported with zero units. NAVs come from the scheme master (else the latest allotment
 * NAV, else 10). The registrar's files are written by integrations/registrars/sandbox/sandbox-registrar.ts.
 *
 * Each allotted order is also booked as transactions, dated its allotment date: a purchase (PURCHASE; an
 * installment of a SIP, XSIP or top-up: SIP), a redemption (REDEMPTION; an SWP installment: SWP), a switch or STP
 * as two legs (SWITCH_OUT/STP_OUT of the source units, SWITCH_IN/STP_IN of the target units booked above). The
 * seeded folios' units have no transactions: they stand for balances from before the sandbox's history.
 */

/** The transaction type of each leg an order type books: [source leg, target leg]. */
const LEGS: Record<string, [SandboxTransactionType, SandboxTransactionType?]> = {
  LUMPSUM_PURCHASE: ["PURCHASE"], SIP: ["SIP"], XSIP: ["SIP"], SIP_TOPUP: ["SIP"], REDEMPTION: ["REDEMPTION"], SWP: ["SWP"],
  SWITCH: ["SWITCH_OUT", "SWITCH_IN"], STP: ["STP_OUT", "STP_IN"],
};

interface SchemeInfo {
  amcCode: string;
  amcName: string;
  name: string;
  isin: string | null;
  nav: Decimal | null;
}

type Holding = SandboxHolding;

export async function sandboxBooks(services: Services): Promise<SandboxLedger> {
  const db = services.prisma;
  const schemes = new Map<string, SchemeInfo>(
    (await schemeSummaries(db)).map(
      (s) => [s.schemeCode, { amcCode: s.amcCode, amcName: s.amcName, name: s.name, isin: s.isinGrowth, nav: s.nav === null ? null : new Decimal(s.nav.toString()) }],
    ),
  );
  const holdings = new Map<string, Holding>();
  const lastNav = new Map<string, Decimal>();
  const navOf = (code: string) => schemes.get(code)?.nav ?? lastNav.get(code) ?? new Decimal(10);
  const holding = (arn: string, folio: string, code: string, owner: Pick<Holding, "pan" | "name" | "nature">): Holding | undefined => {
    const scheme = schemes.get(code);
    const amcCode = scheme?.amcCode ?? "SANDBOX";
    const registrar = sandboxRegistrarFor(amcCode);
    const key = [arn, registrar, amcCode, folio, code].join("\u0000");
    let found = holdings.get(key);
    if (!found) {
      found = {
        arn, registrar, amcCode, amcName: scheme?.amcName ?? "Sandbox Mutual Fund", folio, schemeCode: code,
        schemeName: scheme?.name ?? `Scheme ${code}`, isin: scheme?.isin ?? null, ...owner, units: new Decimal(0), nav: new Decimal(0),
      };
      holdings.set(key, found);
    }
    return found;
  };

  const sandbox = await findDistributorByArn(db, SANDBOX_DISTRIBUTOR.arn);
  if (sandbox) {
    for (const seeded of SEEDED_FOLIOS) {
      const h = holding(sandbox.arn, seeded.folio_no, seeded.scheme_code, { pan: seeded.pan, name: seeded.name, nature: seeded.holding });
      if (h) h.units = h.units.plus(seeded.units);
    }
  }

  const transactions: SandboxTransaction[] = [];
  const bought = new Set<string>();
  const book = (h: Holding, leg: SandboxTransactionType, order: { id: string; parentOrderId: string | null; tradeDate: string }, units: Decimal, amount: Decimal | null, nav: Decimal) => {
    const folioKey = [h.arn, h.amcCode, h.folio].join("\u0000");
    transactions.push({
      arn: h.arn, registrar: h.registrar, amcCode: h.amcCode, folio: h.folio, schemeCode: h.schemeCode, schemeName: h.schemeName, isin: h.isin,
      pan: h.pan, name: h.name, type: leg, fresh: !bought.has(folioKey), txnNo: sandboxTxnNo(order.id, leg),
      sipTxnNo: leg === "SIP" && order.parentOrderId ? sandboxTxnNo(order.parentOrderId, "registration") : null,
      tradeDate: order.tradeDate, amount, units, nav: nav.toDecimalPlaces(4),
    });
    bought.add(folioKey);
  };

  const orders = await allottedOrdersWithFolio(db);
  if (orders.length > 0) {
    const arns = await distributorArns(db);
    const investorIds = [...new Set(orders.map((o) => o.investorId))];
    const investors = new Map(
      (await investorDetails(db, investorIds)).map((i) => {
        const details = decryptDetails(services.cipher, i);
        const nature = i.holdingType === "JOINT" ? "JOINT" : i.holdingType === "ANYONE_OR_SURVIVOR" ? "ANYONE_OR_SURVIVOR" : "SINGLE";
        return [i.id, { pan: details.primary_holder.pan, name: details.primary_holder.name, nature } as const];
      }),
    );
    for (const order of orders) {
      const arn = arns.get(order.distributorId);
      const owner = investors.get(order.investorId);
      if (!arn || !owner) continue;
      const units = new Decimal(order.allottedUnits!.toString());
      if (order.nav) lastNav.set(order.schemeCode, new Decimal(order.nav.toString()));
      const source = holding(arn, order.folioNo!, order.schemeCode, owner)!;
      const { units: moves } = orderType(order.orderType);
      const amount = order.allottedAmount ? new Decimal(order.allottedAmount.toString()) : null;
      const legs = LEGS[order.orderType]!;
      const booked = { id: order.id, parentOrderId: order.parentOrderId, tradeDate: order.allotmentDate?.toISOString().slice(0, 10) ?? todayInIndia(order.createdAt) };
      book(source, legs[0], booked, units, amount, order.nav ? new Decimal(order.nav.toString()) : navOf(order.schemeCode));
      if (moves === "in") source.units = source.units.plus(units);
      else source.units = Decimal.max(source.units.minus(units), 0);
      if (moves === "move") {
        const target = targetSchemeCode(orderDetails(order, services.logger));
        if (target && amount) {
          const h = holding(arn, order.folioNo!, target, owner)!;
          const targetUnits = amount.dividedBy(navOf(target)).toDecimalPlaces(3, Decimal.ROUND_DOWN);
          h.units = h.units.plus(targetUnits);
          book(h, legs[1]!, booked, targetUnits, amount, navOf(target));
        }
      }
    }
  }
  const list = [...holdings.values()];
  for (const h of list) h.nav = navOf(h.schemeCode).toDecimalPlaces(4);
  const holdingsSorted = list.sort((a, b) => (a.arn + a.amcCode + a.folio + a.schemeCode < b.arn + b.amcCode + b.folio + b.schemeCode ? -1 : 1));
  return { holdings: holdingsSorted, transactions };
}
