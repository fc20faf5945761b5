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

/** A node of EXPLAIN's JSON plan (the fields read here and by the plan tests, test/helpers/scale-data.ts). */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Parent Relationship"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Heap Fetches"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Join Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

/** A plan's nodes, the top one first. */
export const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

export async function explainAll(databaseUrl: string, statements: Captured[]): Promise<Explained[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Each statement explained in a transaction rolled back: twice, as text for the document and as JSON for the flags.
  const explained = async <T>(format: string, statement: Captured, read: (rows: Array<Record<string, unknown>>) => T): Promise<T> => {
    await client.query("BEGIN");
    try {
      return read((await client.query<Record<string, unknown>>(`EXPLAIN (ANALYZE, BUFFERS${format}) ${statement.text}`, statement.values)).rows);
    } finally {
      await client.query("ROLLBACK");
    }
  };
  try {
    const sizes = new Map((await client.query<{ name: string; n: number }>(`SELECT relname AS name, reltuples::float8 AS n FROM pg_class WHERE relkind IN ('r', 'p')`)).rows.map((r) => [r.name, r.n]));
    const out: Explained[] = [];
    for (const statement of statements) {
      try {
        const plan = await explained("", statement, (rows) => rows.map((r) => r["QUERY PLAN"]).join("\n"));
        const root = await explained(", FORMAT JSON", statement, (rows) => (rows[0]!["QUERY PLAN"] as Array<{ Plan: PlanNode }>)[0]!.Plan);
        out.push({ statement: statement.text, plan, flags: flagsOf(root, sizes) });
      } catch (error) {
        out.push({ statement: statement.text, plan: `EXPLAIN failed: ${(error as Error).message}`, flags: [] });
      }
    }
    return out;
  } finally {
    await client.end();
  }
}

const buffersOf = (node: PlanNode) => (node["Shared Hit Blocks"] ?? 0) + (node["Shared Read Blocks"] ?? 0);

export function flagsOf(root: PlanNode, sizes: Map<string, number>): string[] {
  const flags: string[] = [];
  const nodes = nodesOf(root);
  for (const node of nodes.filter((n) => n["Node Type"] === "Seq Scan")) {
    const rows = sizes.get(node["Relation Name"]!) ?? 0;
    if (rows >= BIG_TABLE_ROWS) flags.push(`Seq Scan on ${node["Relation Name"]} (${Math.round(rows).toLocaleString("en")} rows)`);
  }
  // A write (UPDATE, INSERT, DELETE) without RETURNING answers no rows: its work is the rows it changed, which its scan fed it.
  const writes = root["Node Type"] === "ModifyTable";
  const returned = writes && root["Actual Rows"] === 0 ? (root.Plans?.find((p) => p["Parent Relationship"] === "Outer")?.["Actual Rows"] ?? 0) : root["Actual Rows"];
  // What the statement read is what its scans of tables read (a node's counts include its children's, and a
  // write's own also hold its rows' new versions and their index entries); rows thrown away likewise, by the
  // scans and joins (a materialised CTE's rows filtered again per loop are not read again).
  const scans = nodes.filter((n) => n["Relation Name"] !== undefined && /Scan$/.test(n["Node Type"]));
  const removed = [...scans, ...nodes.filter((n) => /Join|Nested Loop/.test(n["Node Type"]))]
    .reduce((sum, n) => sum + ((n["Rows Removed by Filter"] ?? 0) + (n["Rows Removed by Join Filter"] ?? 0) + (n["Rows Removed by Index Recheck"] ?? 0)) * n["Actual Loops"], 0);
  if (removed > 1000 && removed > 10 * (returned + 1)) flags.push(`reads ${removed.toLocaleString("en")} rows it throws away for ${returned} returned`);
  // A scan node that produced far more rows than the statement answers (a whole distributor's rows sorted for a page).
  const scanned = Math.max(0, ...scans.map((n) => n["Actual Rows"] * n["Actual Loops"]));
  if (scanned > 100 && scanned > 10 * (returned + 1)) flags.push(`scans ${Math.round(scanned).toLocaleString("en")} rows for ${returned} returned`);
  const pages = scans.reduce((sum, n) => sum + buffersOf(n), 0);
  if (pages > 2000) flags.push(`reads ${pages.toLocaleString("en")} buffers`);
  return [...new Set(flags)];
}
