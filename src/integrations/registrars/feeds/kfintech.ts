import { parseFeedDate } from "./dates.js";
import {
  decimalField,
  holdingNature,
  normaliseArn,
  optionalIsin,
  optionalPan,
  optionalText,
  readFeedFile,
  readFeedFileBatches,
  requiredDate,
  requiredText,
  type FeedFile,
  type FeedItem,
  type FeedPosition,
  type FeedRow,
} from "./feed.js";

/**
 * KFintech MFSD203 (client-wise AUM): one self-contained file, streamed row by row.
 *
 * - `FUND` is the AMC code; `FUNDDESC` describes the scheme (`PRCODE`), so it is the scheme name and the AMC
 *   name is left to the scheme master (null here).
 * - `MOH` (mode of holding) is read with `holdingNature`: `SINGLE`/`SI`/`S` single; `JOINT`/`JO`/`J` joint;
 *   `ANYONE OR SURVIVOR`, `EITHER OR SURVIVOR`, `AS`, `ES`, `A`, `E` anyone-or-survivor; anything else, blank
 *   included, OTHER (never served).
 * - `PAN` is the first holder's; `CRDATE` (the report date) is the balance date, and the NAV date when `LNAV` is
 *   given. `PLDG` (pledged units) is not part of the position and is not required.
 */

export const MFSD203_REQUIRED = [
  "prcode", "fund", "acno", "funddesc", "schemeisin", "balunits", "lnav", "valinv", "moh", "brokcode", "pan",
  "inv_name", "crdate",
] as const;

export function readKfintechFeed(file: FeedFile): AsyncGenerator<FeedItem> {
  return readFeedFile(file, MFSD203_REQUIRED, kfintechPosition);
}

/** The same items, a chunk's worth at a time (what the importer reads). */
export function readKfintechFeedBatches(file: FeedFile): AsyncGenerator<FeedItem[]> {
  return readFeedFileBatches(file, MFSD203_REQUIRED, kfintechPosition);
}

function kfintechPosition(row: FeedRow): FeedPosition {
  const balanceDate = requiredDate(row, "crdate", parseFeedDate);
  const nav = decimalField(row, "lnav", 4);
  return {
    registrar: "KFINTECH",
    arn: normaliseArn(requiredText(row, "brokcode")),
    amc_code: requiredText(row, "fund").toUpperCase(),
    amc_name: null,
    folio_no: requiredText(row, "acno"),
    scheme_code: requiredText(row, "prcode").toUpperCase(),
    isin: optionalIsin(row.get("schemeisin")),
    scheme_name: requiredText(row, "funddesc"),
    units: decimalField(row, "balunits", 3, true),
    nav,
    nav_date: nav === null ? null : balanceDate,
    market_value: decimalField(row, "valinv", 2),
    balance_date: balanceDate,
    holding_nature: holdingNature(row.get("moh")),
    pan: optionalPan(row.get("pan")),
    investor_name: optionalText(row.get("inv_name")),
  };
}
