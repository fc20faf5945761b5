import type { DbOrTx } from "../../platform/db/client.js";

export interface ExchangeHolidayRow {
  /** YYYY-MM-DD */
  date: string;
  description: string;
}

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
const yearRange = (year: number) => ({ gte: asDate(`${year}-01-01`), lt: asDate(`${year + 1}-01-01`) });

/** Every holiday of the calendar, by date (a few dozen rows a year). */
export async function listExchangeHolidays(db: DbOrTx): Promise<ExchangeHolidayRow[]> {
  const rows = await db.exchangeHoliday.findMany({ orderBy: { date: "asc" } });
  return rows.map((r) => ({ date: r.date.toISOString().slice(0, 10), description: r.description }));
}

/** Replaces the holidays of each year with the given ones (in the caller's transaction); answers the rows removed. */
export async function replaceExchangeHolidayYears(tx: DbOrTx, years: readonly number[], holidays: readonly ExchangeHolidayRow[]): Promise<number> {
  let removed = 0;
  for (const year of years) removed += (await tx.exchangeHoliday.deleteMany({ where: { date: yearRange(year) } })).count;
  await tx.exchangeHoliday.createMany({ data: holidays.map((h) => ({ date: asDate(h.date), description: h.description })) });
  return removed;
}
