import { createHash } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { Decimal } from "../lib/money.js";
import { decryptDetails } from "../investors/investors.service.js";
import { distributorArns, findDistributorByArn } from "../auth/auth.repo.js";
import { SANDBOX_DISTRIBUTOR } from "../auth/sandbox-distributor.js";
import { investorDetails } from "../investors/investors.repo.js";
import { schemeSummaries } from "../masters/schemes.repo.js";
import { orderDetails, targetSchemeCode } from "../orders/order-details.js";
import { orderType } from "../orders/order-types.js";
import { allottedOrdersWithFolio } from "../orders/orders.repo.js";
import { todayInIndia } from "../lib/india-date.js";
import type { Services } from "../core/services.js";
import { REGISTRAR_FOLDERS } from "./feed-dir.js";
import { feedFileImported } from "./holdings.repo.js";
import { SEEDED_FOLIOS } from "./sandbox-folios.js";
import type { Registrar } from "./registrars/feed.js";

/**
 * The sandbox registrar: writes CAMS (WBR22 + WBR9) and KFintech (MFSD203) feed files into the feed directory from
 * the seeded folios of the sandbox distributor plus every ALLOTTED order of every distributor, so that the real
 * importer reads them at the next refresh. Each order moves units as its type's `units` says (orders/order-types.ts):
 * purchases (lump sum, SIP, XSIP, SIP top-up) add the allotted units; redemptions and SWPs remove them; switches and
 * STPs remove them from the source scheme and add the allotted amount at the target scheme's NAV to the target. A folio redeemed to zero is reported with zero units.
 *
 * Deterministic: the registrar of a scheme is fixed by its AMC, NAVs come from the scheme master (else the latest
 * allotment NAV, else 10), the balance date is today in Asia/Kolkata, rows are sorted. When the content equals an
 * already imported batch, nothing is written.
 */

const KFINTECH_AMCS = new Set(["AXIS", "NIPPON_INDIA", "MIRAE_ASSET", "UTI"]);

export function sandboxRegistrarFor(amcCode: string): Registrar {
  return KFINTECH_AMCS.has(amcCode) ? "KFINTECH" : "CAMS";
}

interface SchemeInfo {
  amcCode: string;
  amcName: string;
  name: string;
  isin: string | null;
  nav: Decimal | null;
}

interface Holding {
  arn: string;
  registrar: Registrar;
  amcCode: string;
  amcName: string;
  folio: string;
  schemeCode: string;
  schemeName: string;
  isin: string | null;
  pan: string;
  name: string;
  nature: "SINGLE" | "JOINT" | "ANYONE_OR_SURVIVOR";
  units: Decimal;
  nav: Decimal;
}

/** Writes the sandbox feed files; answers the names written (none when nothing is reported or nothing changed). */
export async function writeSandboxFeeds(services: Services, feedDir: string, now = new Date()): Promise<string[]> {
  const holdings = await collectHoldings(services);
  const balanceDate = todayInIndia(now);
  const stamp = `${balanceDate.replaceAll("-", "")}_${now.getTime()}`;
  const written: string[] = [];

  const cams = holdings.filter((h) => h.registrar === "CAMS");
  if (cams.length > 0) {
    const wbr22 = camsWbr22(cams, balanceDate);
    const wbr9 = camsWbr9(cams, balanceDate);
    const sha = sha256(`${sha256(wbr22)}:${sha256(wbr9)}`);
    if (!(await alreadyImported(services, "CAMS", sha))) {
      const dir = path.join(feedDir, REGISTRAR_FOLDERS.CAMS);
      // The WBR9 first, so a WBR22 is never seen without it.
      written.push(await writeAtomically(dir, `SANDBOX_${stamp}_WBR9.csv`, wbr9));
      written.push(await writeAtomically(dir, `SANDBOX_${stamp}_WBR22.csv`, wbr22));
    }
  }
  const kfin = holdings.filter((h) => h.registrar === "KFINTECH");
  if (kfin.length > 0) {
    const mfsd203 = kfintechMfsd203(kfin, balanceDate);
    if (!(await alreadyImported(services, "KFINTECH", sha256(mfsd203)))) {
      written.push(await writeAtomically(path.join(feedDir, REGISTRAR_FOLDERS.KFINTECH), `SANDBOX_${stamp}_MFSD203.csv`, mfsd203));
    }
  }
  return written;
}

async function alreadyImported(services: Services, registrar: Registrar, sha: string): Promise<boolean> {
  return feedFileImported(services.prisma, registrar, sha);
}

async function writeAtomically(dir: string, name: string, content: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(`${file}.tmp`, content);
  await rename(`${file}.tmp`, file);
  return path.join(path.basename(dir), name);
}

async function collectHoldings(services: Services): Promise<Holding[]> {
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
      if (moves === "in") source.units = source.units.plus(units);
      else source.units = Decimal.max(source.units.minus(units), 0);
      if (moves === "move") {
        const target = targetSchemeCode(orderDetails(order, services.logger));
        const amount = order.allottedAmount ? new Decimal(order.allottedAmount.toString()) : null;
        if (target && amount) {
          const h = holding(arn, order.folioNo!, target, owner)!;
          h.units = h.units.plus(amount.dividedBy(navOf(target)).toDecimalPlaces(3, Decimal.ROUND_DOWN));
        }
      }
    }
  }
  const list = [...holdings.values()];
  for (const h of list) h.nav = navOf(h.schemeCode).toDecimalPlaces(4);
  return list.sort((a, b) => (a.arn + a.amcCode + a.folio + a.schemeCode < b.arn + b.amcCode + b.folio + b.schemeCode ? -1 : 1));
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** `16-Nov-2026`, the CAMS style. */
const camsDate = (iso: string) => `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;
/** `11/16/2026`, month first, the KFintech export style. */
const kfinDate = (iso: string) => `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/${iso.slice(0, 4)}`;

function csv(rows: Array<Array<string | null>>): string {
  return rows.map((row) => row.map((v) => (v === null ? "" : /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(",")).join("\r\n") + "\r\n";
}

const value = (h: Holding) => h.units.times(h.nav).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
const NATURE_CODE = { SINGLE: "SI", JOINT: "JO", ANYONE_OR_SURVIVOR: "AS" } as const;

function camsWbr22(holdings: Holding[], date: string): string {
  return csv([
    ["BROK_DLR_CODE", "AMC_CODE", "AMC_NAME", "PRODUCT", "ISIN", "ASSET_DATE", "FOLIO", "INV_NAME", "SCHEME_NAME", "UNITS", "NAV", "CLOSING_ASSETS", "AE_CODE", "TAX_STATUS"],
    ...holdings.map((h) => [h.arn, h.amcCode, h.amcName, h.schemeCode, h.isin, camsDate(date), h.folio, h.name, h.schemeName, h.units.toFixed(3), h.nav.toFixed(4), value(h), "", "Individual"]),
  ]);
}

function camsWbr9(holdings: Holding[], date: string): string {
  const seen = new Set<string>();
  const rows: Array<Array<string | null>> = [];
  for (const h of holdings) {
    const key = `${h.folio}\u0000${h.amcCode}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const joint = h.nature !== "SINGLE";
    rows.push([h.folio, h.amcCode, h.schemeCode, h.name, h.pan, joint ? "Sandbox Joint Holder" : "", "", "", "", NATURE_CODE[h.nature], "", camsDate(date)]);
  }
  return csv([["FOLIOCHK", "AMC_CODE", "PRODUCT", "INV_NAME", "PAN_NO", "JNT_NAME1", "JNT_NAME2", "JOINT1_PAN", "JOINT2_PAN", "HOLDING_NATURE", "CLOS_BAL", "REP_DATE"], ...rows]);
}

function kfintechMfsd203(holdings: Holding[], date: string): string {
  return csv([
    ["PRCODE", "FUND", "ACNO", "FUNDDESC", "SCHEMEISIN", "BALUNITS", "PLDG", "LNAV", "VALINV", "MOH", "BROKCODE", "PAN", "INV_NAME", "CRDATE"],
    ...holdings.map((h) => [h.schemeCode, h.amcCode, h.folio, h.schemeName, h.isin, h.units.toFixed(3), "0.000", h.nav.toFixed(4), value(h), h.nature === "SINGLE" ? "SINGLE" : h.nature === "JOINT" ? "JOINT" : "ANYONE OR SURVIVOR", h.arn, h.pan, h.name, kfinDate(date)]),
  ]);
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
