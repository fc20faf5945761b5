import type { DbOrTx } from "../../platform/db/client.js";
import type { FeedPosition } from "../../integrations/registrars/feeds/feed.js";

/** A stored position as the lookups read it: the feed's own fields, without the holder and the ARN. */
export type PositionRow = Pick<
  FeedPosition,
  "registrar" | "amc_code" | "amc_name" | "folio_no" | "scheme_code" | "isin" | "scheme_name" | "units" | "nav" | "nav_date" | "market_value" | "balance_date"
>;

/** The servable positions of one PAN (by its keyed hash) under one distributor: single-holder folios only. */
export async function positionsByPanHash(db: DbOrTx, distributorId: string, panHash: string): Promise<PositionRow[]> {
  return db.$queryRawUnsafe<PositionRow[]>(
    `SELECT registrar, amc_code, amc_name, folio_no, coalesce(scheme_code, registrar_scheme_code) AS scheme_code, isin,
            scheme_name, units::text AS units, nav::text AS nav, nav_date::text AS nav_date,
            market_value::text AS market_value, balance_date::text AS balance_date
       FROM holding_positions
      WHERE pan_hash = $1 AND distributor_id = $2 AND holding_nature = 'SINGLE'
      ORDER BY registrar, amc_code, folio_no, registrar_scheme_code`,
    panHash,
    distributorId,
  );
}

/** Units of a folio in a scheme across registrars, or null when no position of it is known. */
export async function sumFolioUnits(db: DbOrTx, distributorId: string, folioNo: string, schemeCode: string): Promise<string | null> {
  const rows = await db.$queryRawUnsafe<Array<{ units: string | null }>>(
    `SELECT sum(units)::text AS units FROM holding_positions
      WHERE distributor_id = $1 AND folio_no = $2 AND coalesce(scheme_code, registrar_scheme_code) = $3`,
    distributorId,
    folioNo,
    schemeCode,
  );
  return rows[0]?.units ?? null;
}

/** The keyed hash of an investor's primary PAN, or null when the investor is not the distributor's. */
export async function investorPanHash(db: DbOrTx, distributorId: string, investorId: string): Promise<string | null> {
  const investor = await db.investor.findFirst({ where: { id: investorId, distributorId }, select: { panHash: true } });
  return investor?.panHash ?? null;
}

/** Whether a registrar's feed file with these contents was imported already. */
export async function feedFileImported(db: DbOrTx, registrar: string, contentSha256: string): Promise<boolean> {
  return (await db.holdingFeedFile.count({ where: { registrar, contentSha256 } })) > 0;
}

/** The ARN of a distributor (the sandbox refresh writes that ARN's feed). */
export async function distributorArn(db: DbOrTx, distributorId: string): Promise<string> {
  const row = await db.distributor.findUniqueOrThrow({ where: { id: distributorId }, select: { arn: true } });
  return row.arn;
}
