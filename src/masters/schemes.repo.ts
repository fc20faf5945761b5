import type { DbOrTx, Prisma } from "../db/client.js";

export interface SchemeFilter {
  q?: string;
  amcCode?: string;
  after?: { name: string; schemeCode: string };
  limit: number;
}

export type SchemeRow = Prisma.SchemeGetPayload<object>;

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
  return db.scheme.findMany({
    where: { AND: where },
    orderBy: [{ name: "asc" }, { schemeCode: "asc" }],
    take: filter.limit + 1,
  });
}

export async function findScheme(db: DbOrTx, schemeCode: string): Promise<SchemeRow | null> {
  return db.scheme.findUnique({ where: { schemeCode } });
}
