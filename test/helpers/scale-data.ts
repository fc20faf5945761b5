import pg from "pg";
import { expect } from "vitest";
import { capture, nodesOf, type PlanNode } from "../../bench/scale/explain.js";
import type { Db } from "../../src/platform/db/client.js";
import { planOrders } from "../../bench/scale/order-shapes.js";
import { copyInstallments, copyOrders } from "../../bench/scale/orders.js";
import { copyInvestors, createDistributors } from "../../bench/scale/people.js";
import type { Scale } from "../../bench/scale/shapes.js";
import type { Services } from "../../src/domains/shared/services.js";

/**
 * The scale generator's investors, orders and installments (bench/scale/*, the shapes bench:seed-scale writes:
 * eight distributors of very different sizes, most orders ALLOTTED, live registrations ACCEPTED) in a test's
 * database, analysed, for the tests that pin a statement's plan.
 */
export async function fillAtScale(databaseUrl: string, services: Services, scale: Pick<Scale, "investors" | "orders">): Promise<{ distributors: string[] }> {
  const full: Scale = { ...scale, events: 0, deliveries: 0, positions: 0 };
  const now = Date.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const distributors = await createDistributors(services);
    const plan = planOrders(full, now);
    const quiet = () => {};
    await copyInvestors(client, services, distributors, full, now, quiet);
    await copyOrders(client, distributors, plan, full, now, quiet);
    await copyInstallments(client, plan, full, now, quiet);
    await client.query("ANALYZE investors");
    await client.query("ANALYZE orders");
    await client.query("ANALYZE order_installments");
    return { distributors };
  } finally {
    await client.end();
  }
}

export { nodesOf, type PlanNode };

const ROLLED_BACK = new Error("rolled back");

/** EXPLAIN (ANALYZE, FORMAT JSON) of a statement, in a transaction rolled back (a write leaves nothing): its top node. */
export async function planOf(db: Db, sql: string, values: unknown[]): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  try {
    await db.$transaction(async (tx) => {
      const [row] = await tx.$queryRawUnsafe<Array<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, ...values);
      plan = row!["QUERY PLAN"][0]!.Plan;
      throw ROLLED_BACK;
    });
  } catch (error) {
    if (error !== ROLLED_BACK) throw error;
  }
  return plan!;
}

export const scansOf = (node: PlanNode, table: string) => nodesOf(node).filter((n) => n["Relation Name"] === table);
export const rowsRemoved = (node: PlanNode) => nodesOf(node).reduce((sum, n) => sum + (n["Rows Removed by Filter"] ?? 0), 0);

/** The plan of the one statement reading `table` first (FROM, Prisma's quoted or a raw one's plain name) that `run` sends (captured at pg's client, as bench:scale does). */
export async function planOfStatementOn(db: Db, table: string, run: () => Promise<unknown>): Promise<PlanNode> {
  const statements = (await capture(async () => void (await run()))).filter((s) => new RegExp(`FROM (?:"public"\\.)?"?${table}\\b`).test(s.text));
  expect(statements).toHaveLength(1);
  return planOf(db, statements[0]!.text, statements[0]!.values);
}
