import { parseFeedDate } from "./dates.js";
import {
  decimalField,
  holdingNature,
  normaliseArn,
  optionalIsin,
  optionalPan,
  optionalText,
  readFeedFileBatches,
  requiredDate,
  requiredText,
  RowRejected,
  type FeedFile,
  type FeedItem,
  type FeedPosition,
  type FeedRow,
  type HoldingNature,
} from "./feed.js";

/**
 * CAMS: WBR22 (positions by investor and scheme) joined with WBR9 (investor static data) for the first holder's
 * PAN, the holding nature and the AMC code.
 *
 * The join. PAN and holding nature belong to a folio, and a folio number is unique only within one AMC, so WBR9
 * is indexed by (folio, AMC code). WBR22 carries no AMC code, so a row's AMC comes from, in order: an `amc_code`
 * column if the WBR22 file has one; the AMC that WBR9 gives for the row's `product` (a CAMS product code belongs
 * to one AMC); the folio's only AMC in WBR9. The AMC is never guessed from the letters of the product code:
 * the prefix length varies between AMCs, so a guess could attach another AMC's folio (and PAN) to the position.
 *
 * A WBR22 row with no WBR9 record for its folio is reported as a problem and skipped: without WBR9 there is no
 * PAN, no holding nature and no reliable AMC code, so the row could be neither keyed nor served (the usual cause
 * is a WBR9 file missing from the day's batch, which the problem makes visible).
 *
 * Memory: WBR9 is held in memory as that index (one small entry per folio and AMC, plus one per product);
 * WBR22, the large file, is streamed.
 */

export interface CamsFeedFiles {
  /** WBR22. */
  positions: FeedFile;
  /** WBR9. */
  investors: FeedFile;
}

export const WBR22_REQUIRED = [
  "brok_dlr_code", "product", "asset_date", "folio", "inv_name", "scheme_name", "units", "nav", "closing_assets",
] as const;

export const WBR9_REQUIRED = [
  "foliochk", "pan_no", "jnt_name1", "jnt_name2", "holding_nature", "amc_code", "product",
] as const;

interface FolioStatic {
  amcCode: string;
  pan: string | null;
  nature: HoldingNature;
}

interface Wbr9Index {
  /** By folio number: its record, or its records under several AMCs (in file order). One look-up per row, no key built. */
  folios: Map<string, FolioStatic | FolioStatic[]>;
  productAmc: Map<string, string>;
}

/** Positions and problems of one CAMS batch (WBR9 problems first); throws FeedFileError when a file is unusable. */
export async function* readCamsFeed(files: CamsFeedFiles): AsyncGenerator<FeedItem> {
  for await (const items of readCamsFeedBatches(files)) yield* items;
}

/** The same items, a chunk's worth at a time (what the importer reads). */
export async function* readCamsFeedBatches(files: CamsFeedFiles): AsyncGenerator<FeedItem[]> {
  const index: Wbr9Index = { folios: new Map(), productAmc: new Map() };
  yield* readFeedFileBatches(files.investors, WBR9_REQUIRED, (row) => addWbr9Row(row, index));
  yield* readFeedFileBatches(files.positions, WBR22_REQUIRED, (row) => camsPosition(row, index));
}

/** Indexes one WBR9 record; yields nothing (undefined) unless the record is unusable or contradicts another. */
function addWbr9Row(row: FeedRow, index: Wbr9Index): undefined {
  const folio = requiredText(row, "foliochk");
  const amcCode = requiredText(row, "amc_code").toUpperCase();
  const product = optionalText(row.get("product"))?.toUpperCase();
  if (product !== undefined && !index.productAmc.has(product)) index.productAmc.set(product, amcCode);

  const entry: FolioStatic = { amcCode, pan: optionalPan(row.get("pan_no")), nature: wbr9Nature(row) };
  const known = index.folios.get(folio);
  const earlier = known === undefined ? undefined : underAmc(known, amcCode);
  if (earlier === undefined) {
    index.folios.set(folio, known === undefined ? entry : Array.isArray(known) ? [...known, entry] : [known, entry]);
    return undefined;
  }
  if (earlier.pan === entry.pan && earlier.nature === entry.nature) return undefined;
  // PAN or holding nature disagree between two records of one folio: serve neither (reported on this record).
  earlier.nature = "OTHER";
  throw new RowRejected("PAN or holding nature differs from an earlier record of this folio; the folio is not served");
}

/** A folio coded single but carrying a joint holder is treated as OTHER: serving it could expose a joint folio. */
function wbr9Nature(row: FeedRow): HoldingNature {
  const nature = holdingNature(row.get("holding_nature"));
  const joint = ["jnt_name1", "jnt_name2", "joint1_pan", "joint2_pan"].some((column) => row.get(column).trim() !== "");
  return nature === "SINGLE" && joint ? "OTHER" : nature;
}

function camsPosition(row: FeedRow, index: Wbr9Index): FeedPosition {
  const folio = requiredText(row, "folio");
  const schemeCode = requiredText(row, "product").toUpperCase();
  const folioStatic = lookupStatic(index, folio, schemeCode, optionalText(row.get("amc_code"))?.toUpperCase());
  const balanceDate = requiredDate(row, "asset_date", parseFeedDate);
  const nav = decimalField(row, "nav", 4);
  return {
    registrar: "CAMS",
    arn: normaliseArn(requiredText(row, "brok_dlr_code")),
    amc_code: folioStatic.amcCode,
    amc_name: optionalText(row.get("amc_name")),
    folio_no: folio,
    scheme_code: schemeCode,
    isin: optionalIsin(row.get("isin")),
    scheme_name: requiredText(row, "scheme_name"),
    units: decimalField(row, "units", 3, true),
    nav,
    // WBR22 values the position at the NAV of its asset date.
    nav_date: nav === null ? null : balanceDate,
    market_value: decimalField(row, "closing_assets", 2),
    balance_date: balanceDate,
    holding_nature: folioStatic.nature,
    pan: folioStatic.pan,
    investor_name: optionalText(row.get("inv_name")),
  };
}

function lookupStatic(index: Wbr9Index, folio: string, product: string, ownAmc: string | undefined): FolioStatic {
  const known = index.folios.get(folio);
  if (known === undefined) throw new RowRejected("no WBR9 investor record for the folio");
  const onlyAmc = Array.isArray(known) ? (known.length === 1 ? known[0]!.amcCode : undefined) : known.amcCode;
  const amcCode = ownAmc ?? index.productAmc.get(product) ?? onlyAmc;
  if (amcCode === undefined) throw new RowRejected("AMC of the product unknown and the folio is under several AMCs in WBR9");
  const found = underAmc(known, amcCode);
  if (found === undefined) throw new RowRejected(`no WBR9 investor record for the folio under AMC ${amcCode}`);
  return found;
}

function underAmc(known: FolioStatic | FolioStatic[], amcCode: string): FolioStatic | undefined {
  if (!Array.isArray(known)) return known.amcCode === amcCode ? known : undefined;
  return known.find((entry) => entry.amcCode === amcCode);
}
