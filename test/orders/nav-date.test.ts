import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { CALENDAR_TTL_MS, calendarOf, exchangeCalendar, forgetExchangeCalendar, isWeekday, uncoveredYear, warnIfCalendarEnds } from "../../src/domains/masters/exchange-calendar.js";
import { parseHolidayFile } from "../../src/domains/masters/exchange-holidays.import.js";
import { DEFAULT_CUT_OFFS, expectedNavDate, isCutOff, nextBusinessDay, type NavDateKind } from "../../src/domains/orders/nav-date.js";
import { addDays } from "../../src/domains/portfolio/calendar.js";

// The 2026 calendar the seed ships; 2027 is not loaded (its weekdays are business days). Parsed in the tests,
// not at import, so that mutation testing sees each test exercise the parser.
const seedFile = readFileSync(new URL("../../assets/seed/exchange-holidays.csv", import.meta.url), "utf8");
const seedCalendar = () => calendarOf(parseHolidayFile(seedFile).holidays.map((h) => h.date));
const calendar = { isBusinessDay: (date: string) => seedCalendar().isBusinessDay(date), get years() { return seedCalendar().years; } };

/** An instant given in India time, "YYYY-MM-DD HH:MM[:SS.mmm]". */
const ist = (local: string) => new Date(`${local.replace(" ", "T")}+05:30`);

type Row = [what: string, kind: NavDateKind, liquid: boolean, cutOff: string | null, at: Date, expected: string];

// 2026-11: Mon 23, Tue 24 (Guru Nanak Jayanti, a holiday), Wed 25, Thu 26, Fri 27, Sat 28, Sun 29, Mon 30.
const TABLE: Row[] = [
  // Purchases, not liquid: the cut-off is 15:00 unless the scheme master says otherwise.
  ["purchase before the cut-off", "purchase", false, null, ist("2026-11-26 14:59"), "2026-11-26"],
  ["purchase a millisecond before the cut-off", "purchase", false, null, ist("2026-11-26 14:59:59.999"), "2026-11-26"],
  ["purchase exactly at the cut-off counts as after", "purchase", false, null, ist("2026-11-26 15:00"), "2026-11-27"],
  ["purchase after the cut-off", "purchase", false, null, ist("2026-11-26 15:01"), "2026-11-27"],
  ["purchase on Friday morning", "purchase", false, null, ist("2026-11-27 10:00"), "2026-11-27"],
  ["purchase on Friday evening: Monday", "purchase", false, null, ist("2026-11-27 16:00"), "2026-11-30"],
  ["purchase on Saturday: Monday", "purchase", false, null, ist("2026-11-28 10:00"), "2026-11-30"],
  ["purchase late on Sunday: Monday", "purchase", false, null, ist("2026-11-29 23:59"), "2026-11-30"],
  ["purchase on a holiday: the next business day", "purchase", false, null, ist("2026-11-24 10:00"), "2026-11-25"],
  ["purchase after the cut-off on the eve of a holiday: skips it", "purchase", false, null, ist("2026-11-23 15:30"), "2026-11-25"],
  ["purchase on Thursday evening before Christmas (Friday): Monday", "purchase", false, null, ist("2026-12-24 16:00"), "2026-12-28"],
  ["purchase on New Year's Eve evening: the next year's first weekday", "purchase", false, null, ist("2026-12-31 16:00"), "2027-01-01"],
  ["purchase in the first minute of Friday in India (Thursday in UTC)", "purchase", false, null, new Date("2026-11-26T18:30:00Z"), "2026-11-27"],
  ["purchase in the last second of Thursday in India", "purchase", false, null, new Date("2026-11-26T18:29:59Z"), "2026-11-27"],
  ["purchase at 14:30 India time (09:00 UTC)", "purchase", false, null, new Date("2026-11-26T09:00:00Z"), "2026-11-26"],
  ["purchase before a master's earlier cut-off", "purchase", false, "14:00", ist("2026-11-26 13:59"), "2026-11-26"],
  ["purchase after a master's earlier cut-off", "purchase", false, "14:00", ist("2026-11-26 14:30"), "2026-11-27"],
  // Liquid and overnight purchases: 13:30; the NAV of the calendar day before.
  ["liquid purchase on Monday morning: Sunday's NAV", "purchase", true, null, ist("2026-11-30 10:00"), "2026-11-29"],
  ["liquid purchase exactly at 13:30 on Monday: Monday's NAV", "purchase", true, null, ist("2026-11-30 13:30"), "2026-11-30"],
  ["liquid purchase on Friday before the cut-off: Thursday's NAV", "purchase", true, null, ist("2026-11-27 11:00"), "2026-11-26"],
  ["liquid purchase on Friday after the cut-off: Sunday's NAV", "purchase", true, null, ist("2026-11-27 14:00"), "2026-11-29"],
  ["liquid purchase on Saturday: Sunday's NAV", "purchase", true, null, ist("2026-11-28 10:00"), "2026-11-29"],
  ["liquid purchase on a holiday: the holiday's NAV", "purchase", true, null, ist("2026-11-24 10:00"), "2026-11-24"],
  ["liquid purchase after the cut-off on the eve of a holiday", "purchase", true, null, ist("2026-11-23 14:00"), "2026-11-24"],
  ["liquid purchase before a master's cut-off", "purchase", true, "12:30", ist("2026-11-26 12:00"), "2026-11-25"],
  ["liquid purchase after a master's cut-off", "purchase", true, "12:30", ist("2026-11-26 13:00"), "2026-11-26"],
  ["liquid purchase on New Year's Day morning: New Year's Eve", "purchase", true, null, ist("2027-01-01 10:00"), "2026-12-31"],
  ["liquid purchase on 1 January 2026: the previous year's last day", "purchase", true, null, ist("2026-01-01 10:00"), "2025-12-31"],
  ["liquid purchase on New Year's Eve afternoon", "purchase", true, null, ist("2026-12-31 14:00"), "2026-12-31"],
  // Redemptions, switch-outs, SWP and STP installments: 15:00, the day's own NAV.
  ["redemption before the cut-off", "redemption", false, null, ist("2026-11-26 14:59"), "2026-11-26"],
  ["redemption exactly at the cut-off", "redemption", false, null, ist("2026-11-26 15:00"), "2026-11-27"],
  ["redemption on Friday evening: Monday", "redemption", false, null, ist("2026-11-27 18:00"), "2026-11-30"],
  ["redemption on Sunday: Monday", "redemption", false, null, ist("2026-11-29 09:00"), "2026-11-30"],
  ["redemption on a holiday", "redemption", false, null, ist("2026-11-24 09:00"), "2026-11-25"],
  ["redemption of a liquid fund keeps the redemption rule", "redemption", true, null, ist("2026-11-26 14:00"), "2026-11-26"],
  ["redemption after a master's earlier cut-off", "redemption", false, "13:00", ist("2026-11-26 14:00"), "2026-11-27"],
  ["redemption on New Year's Eve evening", "redemption", false, null, ist("2026-12-31 15:00"), "2027-01-01"],
];

describe("expectedNavDate", () => {
  it.each(TABLE)("%s", (_what, kind, liquid, cutOff, at, expected) => {
    expect(expectedNavDate({ kind, liquid, cutOff, at, isBusinessDay: calendar.isBusinessDay })).toBe(expected);
  });

  it("has the defaults of exchange-masters.md", () => {
    expect(DEFAULT_CUT_OFFS).toEqual({ purchase: "15:00", liquidPurchase: "13:30", redemption: "15:00" });
  });

  it("refuses a malformed cut-off", () => {
    for (const cutOff of ["15", "15:0", "24:00", "15:60", "3:00 PM", " 15:00"]) {
      expect(() => expectedNavDate({ kind: "purchase", liquid: false, cutOff, at: ist("2026-11-26 10:00"), isBusinessDay: () => true })).toThrow(/HH:MM/);
    }
  });

  it("takes 00:00 and 23:59 as cut-offs", () => {
    const at = ist("2026-11-26 23:58");
    expect(expectedNavDate({ kind: "redemption", liquid: false, cutOff: "23:59", at, isBusinessDay: calendar.isBusinessDay })).toBe("2026-11-26");
    expect(expectedNavDate({ kind: "redemption", liquid: false, cutOff: "00:00", at: ist("2026-11-26 00:00"), isBusinessDay: calendar.isBusinessDay })).toBe("2026-11-27");
  });
});

describe("the date helpers", () => {
  it("validates cut-offs", () => {
    expect(["00:00", "09:30", "13:30", "23:59"].every(isCutOff)).toBe(true);
    expect(["24:00", "9:30", "13:3", "13:30:00", ""].some(isCutOff)).toBe(false);
  });

  it("moves dates across months, years and a leap day", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
  });

  it("finds the next business day up to 31 days on, and gives up on a calendar closed longer", () => {
    expect(nextBusinessDay("2026-12-24", calendar.isBusinessDay)).toBe("2026-12-28");
    expect(nextBusinessDay("2026-12-01", (d) => d === "2027-01-01")).toBe("2027-01-01");
    expect(() => nextBusinessDay("2026-12-01", (d) => d === "2027-01-02")).toThrow(/No business day within 31 days after 2026-12-01/);
  });

  it("counts weekdays outside the holidays as business days, in any year", () => {
    expect(isWeekday("2026-11-27")).toBe(true);
    expect(isWeekday("2026-11-28")).toBe(false);
    expect(isWeekday("2026-11-29")).toBe(false);
    expect(calendar.isBusinessDay("2026-11-24")).toBe(false);
    expect(calendar.isBusinessDay("2027-01-26")).toBe(true); // 2027 is not loaded
  });

  it("tells the first year of the next 60 days that has no holidays loaded", () => {
    expect(uncoveredYear(calendar, "2026-10-01", 60)).toBeNull();
    expect(uncoveredYear(calendar, "2026-11-27", 60)).toBe(2027);
    expect(uncoveredYear(calendarOf(["2026-01-26", "2027-01-26"]), "2026-11-27", 60)).toBeNull();
    expect(uncoveredYear(calendarOf([]), "2026-03-01", 60)).toBe(2026);
  });
});

describe("the holiday file", () => {
  it("ships 2026's fifteen weekday holidays", () => {
    const { holidays, problems } = parseHolidayFile(seedFile);
    expect(problems).toEqual([]);
    expect(holidays).toHaveLength(15);
    expect(holidays.every((h) => h.date.startsWith("2026-") && isWeekday(h.date))).toBe(true);
    expect(holidays[0]).toEqual({ date: "2026-01-26", description: "Republic Day" });
  });

  it("skips comments and blank lines, reads CRLF and a byte order mark, trims around the comma, keeps commas in descriptions", () => {
    const text = "\uFEFF# header\r\n\r\n2026-01-26 ,Republic Day\r\n  # indented comment\r\n2026-10-02, Gandhi Jayanti, a national holiday \r\n2026-12-25,X\uFEFFmas\n";
    expect(parseHolidayFile(text)).toEqual({
      holidays: [
        { date: "2026-01-26", description: "Republic Day" },
        { date: "2026-10-02", description: "Gandhi Jayanti, a national holiday" },
        { date: "2026-12-25", description: "X\uFEFFmas" },
      ],
      problems: [],
    });
  });

  it("reports each bad line with its number", () => {
    const text = ["# c", "2026-02-30,Not a day", "26-01-2026,Wrong order", "2026-03-03", "2026-03-03,Holi", "2026-03-03,Holi again", "2026-04-03,", ",Nameless", "2026-1-5,Short"].join("\n");
    expect(parseHolidayFile(text).problems).toEqual([
      { line: 2, message: '"2026-02-30" is not a date YYYY-MM-DD' },
      { line: 3, message: '"26-01-2026" is not a date YYYY-MM-DD' },
      { line: 4, message: "2026-03-03 has no description (YYYY-MM-DD,description)" },
      { line: 6, message: "2026-03-03 is already on line 5" },
      { line: 7, message: "2026-04-03 has no description (YYYY-MM-DD,description)" },
      { line: 8, message: '"" is not a date YYYY-MM-DD' },
      { line: 9, message: '"2026-1-5" is not a date YYYY-MM-DD' },
    ]);
    // Only bad lines: they are the problems (not also "no holiday").
    expect(parseHolidayFile("2026-02-30,Nope\n")).toEqual({ holidays: [], problems: [{ line: 1, message: '"2026-02-30" is not a date YYYY-MM-DD' }] });
  });

  it("refuses a file with no holiday", () => {
    expect(parseHolidayFile("# only comments\n\n").problems).toEqual([{ line: 0, message: "the file lists no holiday, so it covers no year" }]);
  });
});

describe("the calendar cache", () => {
  /** A stand-in database client holding `dates`, counting its reads. */
  const fakeDb = (dates: string[]) => {
    const findMany = vi.fn(async () => dates.map((d) => ({ date: new Date(`${d}T00:00:00Z`), description: "h" })));
    return { db: { exchangeHoliday: { findMany } } as never, findMany };
  };

  it("loads once per client, again after five minutes or when forgotten", async () => {
    const { db, findMany } = fakeDb(["2026-11-24"]);
    const t0 = 1_000_000;
    expect((await exchangeCalendar(db, t0)).isBusinessDay("2026-11-24")).toBe(false);
    await exchangeCalendar(db, t0 + CALENDAR_TTL_MS - 1);
    expect(findMany).toHaveBeenCalledTimes(1);
    expect(CALENDAR_TTL_MS).toBe(300_000);
    await exchangeCalendar(db, t0 + CALENDAR_TTL_MS);
    expect(findMany).toHaveBeenCalledTimes(2);
    forgetExchangeCalendar(db);
    await exchangeCalendar(db, t0 + CALENDAR_TTL_MS);
    expect(findMany).toHaveBeenCalledTimes(3);
    expect((await exchangeCalendar(fakeDb([]).db, t0)).isBusinessDay("2026-11-24")).toBe(true);
  });

  it("does not keep a failed load", async () => {
    const findMany = vi.fn().mockRejectedValueOnce(new Error("down")).mockResolvedValue([]);
    const db = { exchangeHoliday: { findMany } } as never;
    await expect(exchangeCalendar(db, 0)).rejects.toThrow("down");
    expect((await exchangeCalendar(db, 1)).years.size).toBe(0);
    expect(findMany).toHaveBeenCalledTimes(2);
  });

  it("a load that fails after a newer one (or after being forgotten) leaves the cache as it is", async () => {
    let fail!: (error: Error) => void;
    const findMany = vi
      .fn()
      .mockReturnValueOnce(new Promise((_, reject) => (fail = reject)))
      .mockResolvedValue([]);
    const db = { exchangeHoliday: { findMany } } as never;
    const stale = exchangeCalendar(db, 0);
    forgetExchangeCalendar(db);
    await exchangeCalendar(db, 1);
    fail(new Error("late failure"));
    await expect(stale).rejects.toThrow("late failure");
    await exchangeCalendar(db, 2);
    expect(findMany).toHaveBeenCalledTimes(2);

    const lonely = vi.fn().mockReturnValueOnce(new Promise((_, reject) => (fail = reject)));
    const alone = { exchangeHoliday: { findMany: lonely } } as never;
    const pending = exchangeCalendar(alone, 0);
    forgetExchangeCalendar(alone);
    fail(new Error("nobody waits"));
    await expect(pending).rejects.toThrow("nobody waits");
    await new Promise((resolve) => setImmediate(resolve));
  });

  it("warns, reading the table afresh, while the next 60 days reach a year with no holidays", async () => {
    const { db, findMany } = fakeDb(["2026-11-24"]);
    const warn = vi.fn();
    expect(await warnIfCalendarEnds(db, { warn }, "2026-11-01")).toBeNull();
    expect(await warnIfCalendarEnds(db, { warn }, "2026-11-02")).toBe(2027);
    expect(findMany).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      { uncovered_year: 2027, horizon_days: 60 },
      "The exchange holiday calendar has no holidays for 2027, within the next 60 days: NAV dates treat its weekdays as business days. Import the exchange's circular: npm run mf -- calendar:import FILE",
    );
  });
});
