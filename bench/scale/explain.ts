/**
 * The statements a path sends, captured at pg's Client.query (Prisma's adapter sends every statement through
 * it; bench/harness/capture-sql.ts prints them with record), with their parameters, then run again under
 * EXPLAIN (ANALYZE, BUFFERS) inside a transaction that is rolled back (the claim's UPDATE changes nothing).
 * A plan is flagged when it scans a big table sequentially or reads far more rows than it answers.
 */
import pg from "pg";

export interface Captured {
  text: string;
  values: unknown[];
}

const SKIPPED = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET |SHOW |SELECT pg_advisory|DEALLOCATE)/i;

/**
 * Runs `run` once recording every statement it sends, transaction control included. pg's Client.query is
 * wrapped only while `run` runs (nothing added to the statements of the rest of the process).
 */
export async function record(run: () => Promise<void>): Promise<Captured[]> {
  const recorded: Captured[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; values?: unknown[] };
    const text = typeof config === "string" ? config : config?.text;
    const values = (typeof config === "object" && config?.values) || (Array.isArray(args[1]) ? (args[1] as unknown[]) : []);
    if (text) recorded.push({ text: text.replace(/\s+/g, " ").trim(), values });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return recorded;
}

/** Runs `run` once recording its statements (transaction control and locks left out). */
export async function capture(run: () => Promise<void>): Promise<Captured[]> {
  return (await record(run)).filter((c) => !SKIPPED.test(c.text));
}

export interface Explained {
  statement: string;
  plan: string;
  flags: string[];
}

/** Tables with at least this many rows count as big (a sequential scan of them is flagged). */
const BIG_TABLE_ROWS = 10_000;

export async function explainAll(databaseUrl: string, statements: Captured[]): Promise<Explained[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const sizes = new Map((await client.query<{ name: string; n: number }>(`SELECT relname AS name, reltuples::float8 AS n FROM pg_class WHERE relkind IN ('r', 'p')`)).rows.map((r) => [r.name, r.n]));
    const out: Explained[] = [];
    for (const statement of statements) {
      await client.query("BEGIN");
      try {
        const { rows } = await client.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
        const plan = rows.map((r) => r["QUERY PLAN"]).join("\n");
        out.push({ statement: statement.text, plan, flags: flagsOf(plan, sizes) });
      } catch (error) {
        out.push({ statement: statement.text, plan: `EXPLAIN failed: ${(error as Error).message}`, flags: [] });
      } finally {
        await client.query("ROLLBACK");
      }
    }
    return out;
  } finally {
    await client.end();
  }
}

export function flagsOf(plan: string, sizes: Map<string, number>): string[] {
  const flags: string[] = [];
  for (const m of plan.matchAll(/Seq Scan on (\w+)/g)) {
    const rows = sizes.get(m[1]!) ?? 0;
    if (rows >= BIG_TABLE_ROWS) flags.push(`Seq Scan on ${m[1]} (${Math.round(rows).toLocaleString("en")} rows)`);
  }
  let removed = 0;
  for (const m of plan.matchAll(/Rows Removed by (?:Filter|Join Filter|Index Recheck): (\d+)/g)) removed += Number(m[1]);
  const top = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(plan);
  const returned = top ? Number(top[1]) : 0;
  if (removed > 1000 && removed > 10 * (returned + 1)) flags.push(`reads ${removed.toLocaleString("en")} rows it throws away for ${returned} returned`);
  // A scan node that produced far more rows than the statement answers (a whole distributor's rows sorted for a page).
  let scanned = 0;
  for (const m of plan.matchAll(/(?:Seq Scan|Index Scan|Index Only Scan|Bitmap Heap Scan)[^\n]*actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+) loops=(\d+)/g)) scanned = Math.max(scanned, Number(m[1]) * Number(m[2]));
  if (scanned > 100 && scanned > 10 * (returned + 1)) flags.push(`scans ${Math.round(scanned).toLocaleString("en")} rows for ${returned} returned`);
  const buffers = /Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(plan);
  const pages = buffers ? Number(buffers[1] ?? 0) + Number(buffers[2] ?? 0) : 0;
  if (pages > 2000) flags.push(`touches ${pages.toLocaleString("en")} buffers`);
  return [...new Set(flags)];
}
