import { rm } from "node:fs/promises";
import path from "node:path";
import { Decimal } from "../../../platform/lib/money.js";
import { todayInIndia } from "../../../platform/lib/india-date.js";
import { REGISTRAR_FOLDERS } from "../feed-dir.js";
import type { Registrar } from "../feeds/feed.js";
import { camsDate, csv, kfinDate, sha256, writeAtomically } from "./sandbox-files.js";
import { camsWbr2, kfintechMfsd201, type SandboxTransaction } from "./sandbox-transactions.js";

/**
 * The sandbox registrar: writes CAMS (WBR22 + WBR9) and KFintech (MFSD203) feed files into the feed directory from
 * the balances the sandbox's books hold (src/domains/simulation/sandbox-books.ts: the seeded folios and every ALLOTTED
 * order), so that the real importer reads them at the next refresh.
 *
 * Deterministic: the registrar of a scheme is fixed by its AMC, the balance date is today in Asia/Kolkata, rows come
 * sorted. When the content equals an already imported batch, nothing is written.
 *
 * One batch per ARN, as a registrar mails each distributor its own: the CAMS investor file (WBR9) is keyed by folio
 * and AMC only, so two distributors using the same (made-up) folio number in one WBR9 would get one investor's PAN
 * for both (security review, issue 25).
 *
 * Beside the balances, the transactions the sandbox booked (every allotted order's legs) go into a CAMS WBR2 and a
 * KFintech MFSD201 file of the same batch (integrations/registrars/sandbox/sandbox-transactions.ts); the importer keeps each transaction number once.
 */

const KFINTECH_AMCS = new Set(["AXIS", "NIPPON_INDIA", "MIRAE_ASSET", "UTI"]);

export function sandboxRegistrarFor(amcCode: string): Registrar {
  return KFINTECH_AMCS.has(amcCode) ? "KFINTECH" : "CAMS";
}

/** One line of a feed: a folio's balance in one scheme, as the registrar reports it. */
export interface SandboxHolding {
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

/** What the sandbox registrar reports: the balances and the transactions behind them. */
export interface SandboxLedger {
  holdings: SandboxHolding[];
  transactions: SandboxTransaction[];
}

/** Whether a batch of this content was imported before (the holdings import's record of feed files). */
export type ImportedBefore = (registrar: Registrar, sha256: string) => Promise<boolean>;

/**
 * Writes the sandbox feed files of these holdings; answers the names written (none when nothing is reported or
 * nothing changed since the last import).
 */
export async function writeSandboxFeeds(
  books: SandboxLedger, feedDir: string, importedBefore: ImportedBefore, now = new Date(),
): Promise<string[]> {
  const arns = [...new Set([...books.holdings.map((h) => h.arn), ...books.transactions.map((t) => t.arn)])].sort();
  const written: string[] = [];
  for (const arn of arns) {
    const own = { holdings: books.holdings.filter((h) => h.arn === arn), transactions: books.transactions.filter((t) => t.arn === arn) };
    written.push(...(await writeArnFeeds(arn, own, feedDir, importedBefore, now)));
  }
  return written;
}

/** Deletes feed files this registrar wrote (names as writeSandboxFeeds answered them): they hold PANs in clear. */
export async function removeSandboxFeeds(feedDir: string, written: string[]): Promise<void> {
  await Promise.all(written.map((name) => rm(path.join(feedDir, name), { force: true })));
}

async function writeArnFeeds(arn: string, books: SandboxLedger, feedDir: string, importedBefore: ImportedBefore, now: Date): Promise<string[]> {
  const { holdings, transactions } = books;
  const balanceDate = todayInIndia(now);
  // The ARN in the name keeps each distributor's batch apart; never the letters WBR, which pair the CAMS files.
  const stamp = `${balanceDate.replaceAll("-", "")}_${now.getTime()}_${arn.replace(/[^A-Za-z0-9]/g, "").replace(/wbr/gi, "")}`;
  const written: string[] = [];

  const cams = holdings.filter((h) => h.registrar === "CAMS");
  if (cams.length > 0) {
    const wbr22 = camsWbr22(cams, balanceDate);
    const wbr9 = camsWbr9(cams, balanceDate);
    const sha = sha256(`${sha256(wbr22)}:${sha256(wbr9)}`);
    if (!(await importedBefore("CAMS", sha))) {
      const dir = path.join(feedDir, REGISTRAR_FOLDERS.CAMS);
      // The WBR9 first, so a WBR22 is never seen without it.
      written.push(await writeAtomically(dir, `SANDBOX_${stamp}_WBR9.csv`, wbr9));
      written.push(await writeAtomically(dir, `SANDBOX_${stamp}_WBR22.csv`, wbr22));
    }
  }
  const kfin = holdings.filter((h) => h.registrar === "KFINTECH");
  if (kfin.length > 0) {
    const mfsd203 = kfintechMfsd203(kfin, balanceDate);
    if (!(await importedBefore("KFINTECH", sha256(mfsd203)))) {
      written.push(await writeAtomically(path.join(feedDir, REGISTRAR_FOLDERS.KFINTECH), `SANDBOX_${stamp}_MFSD203.csv`, mfsd203));
    }
  }
  written.push(...(await writeTransactionFeeds(transactions, feedDir, stamp, balanceDate, importedBefore)));
  return written;
}

/** The WBR2 and MFSD201 files of the ARN's transactions; a content imported before is not written again. */
async function writeTransactionFeeds(
  transactions: SandboxTransaction[], feedDir: string, stamp: string, repDate: string, importedBefore: ImportedBefore,
): Promise<string[]> {
  const written: string[] = [];
  const sorted = [...transactions].sort((a, b) => (a.tradeDate + a.txnNo < b.tradeDate + b.txnNo ? -1 : 1));
  const files = [
    { registrar: "CAMS" as const, name: `SANDBOX_${stamp}_R2.csv`, write: camsWbr2 },
    { registrar: "KFINTECH" as const, name: `SANDBOX_${stamp}_MFSD201.csv`, write: kfintechMfsd201 },
  ];
  for (const file of files) {
    const own = sorted.filter((t) => t.registrar === file.registrar);
    if (own.length === 0) continue;
    const content = file.write(own, repDate);
    if (await importedBefore(file.registrar, sha256(content))) continue;
    written.push(await writeAtomically(path.join(feedDir, REGISTRAR_FOLDERS[file.registrar]), file.name, content));
  }
  return written;
}

const value = (h: SandboxHolding) => h.units.times(h.nav).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
const NATURE_CODE = { SINGLE: "SI", JOINT: "JO", ANYONE_OR_SURVIVOR: "AS" } as const;

function camsWbr22(holdings: SandboxHolding[], date: string): string {
  return csv([
    ["BROK_DLR_CODE", "AMC_CODE", "AMC_NAME", "PRODUCT", "ISIN", "ASSET_DATE", "FOLIO", "INV_NAME", "SCHEME_NAME", "UNITS", "NAV", "CLOSING_ASSETS", "AE_CODE", "TAX_STATUS"],
    ...holdings.map((h) => [h.arn, h.amcCode, h.amcName, h.schemeCode, h.isin, camsDate(date), h.folio, h.name, h.schemeName, h.units.toFixed(3), h.nav.toFixed(4), value(h), "", "Individual"]),
  ]);
}

function camsWbr9(holdings: SandboxHolding[], date: string): string {
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

function kfintechMfsd203(holdings: SandboxHolding[], date: string): string {
  return csv([
    ["PRCODE", "FUND", "ACNO", "FUNDDESC", "SCHEMEISIN", "BALUNITS", "PLDG", "LNAV", "VALINV", "MOH", "BROKCODE", "PAN", "INV_NAME", "CRDATE"],
    ...holdings.map((h) => [h.schemeCode, h.amcCode, h.folio, h.schemeName, h.isin, h.units.toFixed(3), "0.000", h.nav.toFixed(4), value(h), h.nature === "SINGLE" ? "SINGLE" : h.nature === "JOINT" ? "JOINT" : "ANYONE OR SURVIVOR", h.arn, h.pan, h.name, kfinDate(date)]),
  ]);
}
