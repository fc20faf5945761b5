import { describe, expect, it } from "vitest";
import { flagsOf } from "../../bench/scale/explain.js";

/** bench:scale's flags on a plan (EXPLAIN's JSON): what a statement reads against what it answers or changes. */
const sizes = new Map([["orders", 10_000_000], ["webhook_subscriptions", 16]]);
const scan = (type: string, relation: string, rows: number, extra: Record<string, number> = {}) => ({ "Node Type": type, "Relation Name": relation, "Actual Rows": rows, "Actual Loops": 1, ...extra });

describe("bench:scale's plan flags", () => {
  it("a page from an index range: nothing flagged", () => {
    expect(flagsOf({ "Node Type": "Limit", "Actual Rows": 20, "Actual Loops": 1, Plans: [scan("Index Scan", "orders", 21, { "Shared Hit Blocks": 25 })] }, sizes)).toEqual([]);
  });

  it("a sequential scan of a big table, a whole range read for a page, and what it throws away", () => {
    const plan = { "Node Type": "Limit", "Actual Rows": 20, "Actual Loops": 1, Plans: [scan("Seq Scan", "orders", 5_000, { "Rows Removed by Filter": 95_000, "Shared Hit Blocks": 2_500 })] };
    expect(flagsOf(plan, sizes)).toEqual(["Seq Scan on orders (10,000,000 rows)", "reads 95,000 rows it throws away for 20 returned", "scans 5,000 rows for 20 returned", "reads 2,500 buffers"]);
    // A small table's sequential scan is not flagged.
    expect(flagsOf({ "Node Type": "Seq Scan", "Relation Name": "webhook_subscriptions", "Actual Rows": 16, "Actual Loops": 1 }, sizes)).toEqual([]);
  });

  it("a write without RETURNING is measured by the rows it changed, and its index maintenance is not a read", () => {
    const update = { "Node Type": "ModifyTable", "Actual Rows": 0, "Actual Loops": 1, "Shared Hit Blocks": 7_000, Plans: [{ ...scan("Index Scan", "orders", 200, { "Shared Hit Blocks": 210 }), "Parent Relationship": "Outer" }] };
    expect(flagsOf(update, sizes)).toEqual([]);
  });

  it("rows of a materialised CTE filtered again per loop are not rows read from a table", () => {
    const plan = {
      "Node Type": "WindowAgg", "Actual Rows": 400, "Actual Loops": 1,
      Plans: [scan("Index Scan", "orders", 400, { "Shared Hit Blocks": 900 }), { "Node Type": "CTE Scan", "Actual Rows": 0, "Actual Loops": 400, "Rows Removed by Filter": 8 }],
    };
    expect(flagsOf(plan, sizes)).toEqual([]);
  });
});
