import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useCliDatabase } from "../helpers/cli-database.js";
import { runEntry } from "../helpers/process.js";

const cli = useCliDatabase("calendar-cli-");

async function importFile(name: string, text: string, ...flags: string[]) {
  const file = path.join(cli.dir, name);
  await writeFile(file, text);
  const run = runEntry("src/cli.ts", ["calendar:import", file, ...flags], cli.env);
  return { code: await run.exited, output: run.output(), file };
}

const holidays = async () =>
  (await cli.prisma.exchangeHoliday.findMany({ orderBy: { date: "asc" } })).map((h) => `${h.date.toISOString().slice(0, 10)} ${h.description}`);

describe("npm run mf -- calendar:import", () => {
  it("loads a file, skipping comments and blank lines, and prints a summary", async () => {
    const first = await importFile("first.csv", "# Circular of December 2025\n\n2025-12-25,Christmas\n2026-01-26,Republic Day\n2026-03-03,Holi\n");
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain(`${first.file}: 3 holiday(s) loaded for 2025, 2026 (replacing 0 held before)`);
    expect(await holidays()).toEqual(["2025-12-25 Christmas", "2026-01-26 Republic Day", "2026-03-03 Holi"]);
  });

  it("replaces the years a file covers and leaves the others alone; --json prints the report", async () => {
    const second = await importFile("second.csv", "# 2026 revised, 2027 new\n2026-01-26,Republic Day\n2026-03-04,Holi (moved)\n2027-01-26,Republic Day\n", "--json");
    expect(second.code, second.output).toBe(0);
    expect(JSON.parse(second.output.trim().split("\n").at(-1)!)).toEqual({ imported: true, years: [2026, 2027], holidays: 3, removed: 2, problems: [] });
    expect(await holidays()).toEqual(["2025-12-25 Christmas", "2026-01-26 Republic Day", "2026-03-04 Holi (moved)", "2027-01-26 Republic Day"]);
  });

  it("refuses a file with a bad line (exit 1), naming each line, and changes nothing", async () => {
    const before = await holidays();
    const bad = await importFile("bad.csv", "# comment\n2026-01-26,Republic Day\n2026-13-01,Nowhere\n2026-10-02\n");
    expect(bad.code, bad.output).toBe(1);
    expect(bad.output).toContain("refused, nothing changed (2 bad line(s)");
    expect(bad.output).toContain('line 3: "2026-13-01" is not a date YYYY-MM-DD');
    expect(bad.output).toContain("line 4: 2026-10-02 has no description");
    expect(await holidays()).toEqual(before);
    const json = await importFile("bad.csv", "2026-02-29,Not this year\n", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.output.trim().split("\n").at(-1)!)).toMatchObject({ imported: false, removed: 0, problems: [{ line: 1, message: '"2026-02-29" is not a date YYYY-MM-DD' }] });
  });

  it("needs a file", async () => {
    const run = runEntry("src/cli.ts", ["calendar:import"], cli.env);
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain("calendar:import needs the path of a holiday file");
  });
});
