import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DETAIL_REASONS, ERROR_STATUS } from "../src/platform/lib/errors.js";
import { ORDER_FAILURE_CODES } from "../src/integrations/exchange/outcomes.js";
import { PAYMENT_FAILURE_CODES } from "../src/integrations/exchange/outcomes.js";

/** The guide's "Errors" section (docs/guide.md): its tables, each as rows of cells (header and separator dropped). */
function errorTables(): Array<{ header: string[]; rows: string[][] }> {
  const readme = readFileSync(path.resolve(import.meta.dirname, "..", "docs", "guide.md"), "utf8");
  const start = readme.indexOf("\n## Errors\n");
  expect(start, 'docs/guide.md has a "## Errors" section').toBeGreaterThan(0);
  const end = readme.indexOf("\n## ", start + 1);
  const lines = readme.slice(start, end).split("\n");
  const tables: Array<{ header: string[]; rows: string[][] }> = [];
  const cells = (line: string) => line.slice(1, -1).split(" | ").map((cell) => cell.trim());
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith("| ") || lines[i - 1]?.startsWith("|")) continue;
    const rows: string[][] = [];
    for (let j = i + 2; lines[j]?.startsWith("| "); j++) rows.push(cells(lines[j]!));
    tables.push({ header: cells(lines[i]!), rows });
  }
  return tables;
}

const unquote = (cell: string) => cell.replace(/^`|`$/g, "");

describe("README's error tables match the closed lists they document", () => {
  const tables = errorTables();

  it("has the four tables: error codes, detail reasons, order failure codes, payment failure codes", () => {
    expect(tables.map((table) => table.header)).toEqual([
      ["code", "status", "means", "what to do"],
      ["reason", "means", "what to do"],
      ["failure_code", "means", "what to do"],
      ["failure_code", "means", "what to do"],
    ]);
  });

  it("lists every error code once, in ERROR_STATUS's order, with its status", () => {
    const [codes] = tables;
    expect(codes!.rows.map((row) => [unquote(row[0]!), Number(row[1])])).toEqual(Object.entries(ERROR_STATUS));
  });

  it.each([
    ["detail reasons", 1, DETAIL_REASONS],
    ["order failure codes", 2, ORDER_FAILURE_CODES],
    ["payment failure codes", 3, PAYMENT_FAILURE_CODES],
  ] as const)("lists every one of the %s once, in the tuple's order", (_, index, tuple) => {
    expect(tables[index]!.rows.map((row) => unquote(row[0]!))).toEqual([...tuple]);
  });

  it("says for every value what it means and what to do", () => {
    for (const table of tables) {
      for (const row of table.rows) {
        expect(row, row[0]).toHaveLength(table.header.length);
        for (const cell of row.slice(-2)) expect(cell.length, `${row[0]}: ${cell}`).toBeGreaterThan(0);
      }
    }
  });
});
