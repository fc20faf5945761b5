import type { DbOrTx } from "../../../platform/db/client.js";

/**
 * The day's next running number: one atomic statement, so concurrent callers (any number of processes)
 * each get their own, and the first call of a day starts at 1.
 */
export async function nextRunningNumber(db: DbOrTx, day: string): Promise<number> {
  const rows = await db.$queryRaw<Array<{ n: number }>>`
    INSERT INTO bse_trans_no_counters (day, n) VALUES (${day}, 1)
    ON CONFLICT (day) DO UPDATE SET n = bse_trans_no_counters.n + 1
    RETURNING n`;
  return rows[0]!.n;
}
