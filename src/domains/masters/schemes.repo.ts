import type { DbOrTx, Prisma } from "../../platform/db/client.js";
import { narrowTo } from "../../platform/lib/closed-set.js";
import { AMFI_OPTIONS, AMFI_PLANS, type AmfiOption, type AmfiPlan, type AmfiSchemeRecord } from "../../integrations/amfi/navall.js";

export interface SchemeFilter {
  q?: string;
  amcCode?: string;
  after?: { name: string; schemeCode: string };
  limit: number;
}

type StoredScheme = Prisma.SchemeGetPayload<object>;
export type SchemeRow = Omit<StoredScheme, "plan" | "option"> & { plan: AmfiPlan | null; option: AmfiOption | null };

function toRow(row: StoredScheme): SchemeRow {
  return {
    ...row,
    plan: row.plan === null ? null : narrowTo(AMFI_PLANS, row.plan, "schemes.plan"),
    option: row.option === null ? null : narrowTo(AMFI_OPTIONS, row.option, "schemes.option"),
  };
}

/** One page in (name, scheme_code) order; fetches one extra row to know whether a next page exists. */
export async function listSchemes(db: DbOrTx, filter: SchemeFilter): Promise<SchemeRow[]> {
  const where: Prisma.SchemeWhereInput[] = [];
  if (filter.amcCode) where.push({ amcCode: filter.amcCode });
  if (filter.q) {
    where.push({
      OR: [
        { name: { contains: filter.q, mode: "insensitive" } },
        { schemeCode: filter.q },
        { isinGrowth: filter.q.toUpperCase() },
        { isinReinvestment: filter.q.toUpperCase() },
      ],
    });
  }
  if (filter.after) {
    const { name, schemeCode } = filter.after;
    where.push({ OR: [{ name: { gt: name } }, { name, schemeCode: { gt: schemeCode } }] });
  }
  const rows = await db.scheme.findMany({
    where: { AND: where },
    orderBy: [{ name: "asc" }, { schemeCode: "asc" }],
    take: filter.limit + 1,
  });
  return rows.map(toRow);
}

export async function findScheme(db: DbOrTx, schemeCode: string): Promise<SchemeRow | null> {
  const row = await db.scheme.findUnique({ where: { schemeCode } });
  return row && toRow(row);
}

/** Whether any scheme of the master belongs to the AMC (broker change requests name one). */
export async function amcExists(db: DbOrTx, amcCode: string): Promise<boolean> {
  return (await db.scheme.findFirst({ where: { amcCode }, select: { schemeCode: true } })) !== null;
}

/** Every scheme with what a holding statement names: AMC, name, growth ISIN and latest NAV. */
export async function schemeSummaries(db: DbOrTx) {
  return db.scheme.findMany({ select: { schemeCode: true, amcCode: true, amcName: true, name: true, isinGrowth: true, nav: true } });
}

/**
 * Upserts one chunk of AMFI records in one statement (see upsertAmfiRecords for the rules); answers a
 * row per inserted or updated scheme, `inserted` telling which.
 */
export async function upsertAmfiChunk(db: DbOrTx, chunk: AmfiSchemeRecord[]): Promise<Array<{ inserted: boolean }>> {
  const column = <K extends keyof AmfiSchemeRecord>(key: K) => chunk.map((r) => r[key]);
  return db.$queryRawUnsafe<Array<{ inserted: boolean }>>(
    `INSERT INTO schemes (scheme_code, isin_growth, isin_reinvestment, name, amc_code, amc_name, category,
                          scheme_type, plan, option, nav, nav_date, purchase_allowed, sip_allowed,
                          redemption_allowed, updated_at)
     SELECT r.*, false, false, false, now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                   $8::text[], $9::text[], $10::text[], $11::numeric[], $12::date[])
         AS r(scheme_code, isin_growth, isin_reinvestment, name, amc_code, amc_name, category, scheme_type,
              plan, option, nav, nav_date)
     ON CONFLICT (scheme_code) DO UPDATE SET
       isin_growth = excluded.isin_growth, isin_reinvestment = excluded.isin_reinvestment,
       name = excluded.name, amc_code = excluded.amc_code, amc_name = excluded.amc_name,
       category = excluded.category, scheme_type = excluded.scheme_type, plan = excluded.plan,
       option = excluded.option, nav = excluded.nav, nav_date = excluded.nav_date, updated_at = now()
     WHERE schemes.nav_date IS NULL OR excluded.nav_date >= schemes.nav_date
     RETURNING (xmax = 0) AS inserted`,
    column("scheme_code"), column("isin_growth"), column("isin_reinvestment"), column("scheme_name"),
    column("amc_code"), column("amc_name"), column("category"), column("scheme_type"), column("plan"),
    column("option"), column("nav"), column("nav_date"),
  );
}
