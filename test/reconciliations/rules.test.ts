import { describe, expect, it } from "vitest";
import type { ExchangeAllotmentRow, ExchangeOrderRow } from "../../src/integrations/exchange/port.js";
import { compareDay, previousBusinessDay, type OurOrder } from "../../src/domains/reconciliations/rules.js";
import { calendarOf } from "../../src/domains/masters/exchange-calendar.js";

const ours = (id: string, fields: Partial<OurOrder> = {}): OurOrder => ({
  id, distributorId: "dst_a", exchangeOrderNumber: `N-${id}`, status: "ACCEPTED", amount: "1000.00", units: null, allUnits: false,
  allottedUnits: null, allottedAmount: null, ...fields,
});
const theirs = (number: string, fields: Partial<ExchangeOrderRow> = {}): ExchangeOrderRow => ({
  orderId: null, exchangeOrderNumber: number, clientCode: "C1", schemeCode: "S1", buySell: "P", status: "ACCEPTED", amount: "1000.00", units: null,
  remark: null, ...fields,
});
const allotment = (number: string, fields: Partial<ExchangeAllotmentRow> = {}): ExchangeAllotmentRow => ({
  orderId: null, exchangeOrderNumber: number, folioNo: "F1", schemeCode: "S1", nav: "12.3456", units: "81.000", amount: "1000.00",
  allotmentDate: "2026-11-20", valid: true, remark: null, ...fields,
});
const brief = (list: ReturnType<typeof compareDay>) => list.map(({ kind, key, orderId, distributorId, exchangeOrderNumber, ours, theirs }) => ({ kind, key, orderId, distributorId, exchangeOrderNumber, ours, theirs }));

describe("compareDay: our orders of a day against the exchange's reports", () => {
  it("finds nothing when both agree (amounts compared as exact decimals: 1000 is 1000.00)", () => {
    expect(compareDay([ours("o1"), ours("o2", { status: "ALLOTTED", allottedUnits: "81.000", allottedAmount: "1000.00" })], [theirs("N-o1", { amount: "1000" }), theirs("N-o2")], [allotment("N-o2")])).toEqual([]);
  });

  it("MISSING_HERE: an exchange order none of ours carries; from a statement row too, once per number; to no distributor", () => {
    const found = compareDay([], [theirs("900", { amount: "5000.5", status: "ACCEPTED" }), theirs("901", { buySell: "R", amount: "0", units: "10.5" })], [allotment("900"), allotment("902", { valid: false, remark: "RTA REJECTED" })]);
    expect(brief(found)).toEqual([
      { kind: "MISSING_HERE", key: "MISSING_HERE:900", orderId: null, distributorId: null, exchangeOrderNumber: "900", ours: null, theirs: "ACCEPTED purchase of S1, amount 5000.50" },
      { kind: "MISSING_HERE", key: "MISSING_HERE:901", orderId: null, distributorId: null, exchangeOrderNumber: "901", ours: null, theirs: "ACCEPTED redemption of S1, units 10.500" },
      { kind: "MISSING_HERE", key: "MISSING_HERE:902", orderId: null, distributorId: null, exchangeOrderNumber: "902", ours: null, theirs: "ALLOTMENT REJECTED: RTA REJECTED" },
    ]);
  });

  it("MISSING_AT_EXCHANGE: ACCEPTED, ALLOTTED or held with a number, absent from both reports; pending without a number, rejected and failed are not", () => {
    const found = compareDay(
      [ours("a"), ours("b", { status: "ALLOTTED" }), ours("c", { status: "PENDING" }), ours("d", { status: "PENDING", exchangeOrderNumber: null }), ours("e", { status: "REJECTED" }), ours("f", { status: "FAILED", exchangeOrderNumber: null })],
      [],
      [],
    );
    expect(brief(found)).toEqual(
      (["a", "b", "c"] as const).map((id, i) => ({
        kind: "MISSING_AT_EXCHANGE", key: `MISSING_AT_EXCHANGE:${id}`, orderId: id, distributorId: "dst_a", exchangeOrderNumber: `N-${id}`, ours: ["ACCEPTED", "ALLOTTED", "PENDING"][i], theirs: null,
      })),
    );
  });

  it("an order only in the allotment statement is at the exchange (not MISSING_AT_EXCHANGE)", () => {
    expect(brief(compareDay([ours("a", { status: "ALLOTTED", allottedUnits: "81.000", allottedAmount: "1000.00" })], [], [allotment("N-a")]))).toEqual([]);
  });

  it("STATUS: we ACCEPTED, it INVALID (its remark kept); we REJECTED or FAILED or still PENDING, it VALID; matched by our id before the number", () => {
    const found = compareDay(
      [ours("a"), ours("b", { status: "REJECTED" }), ours("c", { status: "FAILED", exchangeOrderNumber: null }), ours("d", { status: "PENDING" }), ours("e", { status: "REJECTED" })],
      [theirs("N-a", { status: "REJECTED", remark: "PAYMENT NOT RECEIVED" }), theirs("N-b"), theirs("77", { orderId: "c" }), theirs("N-d"), theirs("N-e", { status: "REJECTED" })],
      [],
    );
    expect(brief(found)).toEqual([
      { kind: "STATUS", key: "STATUS:a", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "ACCEPTED", theirs: "REJECTED: PAYMENT NOT RECEIVED" },
      { kind: "STATUS", key: "STATUS:b", orderId: "b", distributorId: "dst_a", exchangeOrderNumber: "N-b", ours: "REJECTED", theirs: "ACCEPTED" },
      { kind: "STATUS", key: "STATUS:c", orderId: "c", distributorId: "dst_a", exchangeOrderNumber: "77", ours: "FAILED", theirs: "ACCEPTED" },
      { kind: "STATUS", key: "STATUS:d", orderId: "d", distributorId: "dst_a", exchangeOrderNumber: "N-d", ours: "PENDING", theirs: "ACCEPTED" },
    ]);
  });

  it("a PENDING row of the exchange against a decided order of ours is not a difference yet", () => {
    expect(compareDay([ours("a")], [theirs("N-a", { status: "PENDING" })], [])).toEqual([]);
  });

  it("AMOUNT and UNITS of the order: exact to the paisa and the thousandth of a unit; a side with none and all-units redemptions are not compared", () => {
    const found = compareDay(
      [ours("a", { amount: "1000.00" }), ours("b", { amount: null, units: "10.000" }), ours("c", { amount: null, units: null, allUnits: true }), ours("d", { amount: "250.00" })],
      [theirs("N-a", { amount: "1000.01" }), theirs("N-b", { amount: "0", units: "10.001" }), theirs("N-c", { amount: "0", units: "55.5" }), theirs("N-d", { amount: null })],
      [],
    );
    expect(brief(found)).toEqual([
      { kind: "AMOUNT", key: "AMOUNT:a", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "1000.00", theirs: "1000.01" },
      { kind: "UNITS", key: "UNITS:b", orderId: "b", distributorId: "dst_a", exchangeOrderNumber: "N-b", ours: "10.000", theirs: "10.001" },
    ]);
  });

  it("AMOUNT and UNITS of an allotment we recorded: the statement's units truncated to 3 places and amount rounded half-up, as the sync applies them", () => {
    const recorded = ours("a", { status: "ALLOTTED", allottedUnits: "81.000", allottedAmount: "1000.00" });
    expect(compareDay([recorded], [theirs("N-a")], [allotment("N-a", { units: "81.0009", amount: "999.995" })])).toEqual([]);
    expect(brief(compareDay([recorded], [theirs("N-a")], [allotment("N-a", { units: "80.999", amount: "999.99" })]))).toEqual([
      { kind: "UNITS", key: "UNITS:a:allotment", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "81.000", theirs: "80.999" },
      { kind: "AMOUNT", key: "AMOUNT:a:allotment", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "1000.00", theirs: "999.99" },
    ]);
  });

  it("ALLOTMENT_MISSED: a valid statement row for an order we hold ACCEPTED, carrying the row to apply", () => {
    const row = allotment("N-a", { nav: "12.3456", units: "81.000518", amount: "1000" });
    const [missed, ...rest] = compareDay([ours("a")], [theirs("N-a")], [row]);
    expect(rest).toEqual([]);
    expect(missed).toEqual({
      kind: "ALLOTMENT_MISSED", key: "ALLOTMENT_MISSED:a", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "ACCEPTED",
      theirs: "ALLOTTED 81.001 units at NAV 12.3456, amount 1000.00, on 2026-11-20", allotment: row,
    });
  });

  it("a statement row against an order we hold otherwise: rejected by the registrar while we hold it ACCEPTED, allotted while we REJECTED it", () => {
    const found = compareDay(
      [ours("a"), ours("b", { status: "REJECTED" }), ours("c", { status: "REJECTED" })],
      [theirs("N-a"), theirs("N-c")],
      [allotment("N-a", { valid: false, remark: "KYC NOT VALIDATED", nav: "", units: "", amount: "" }), allotment("N-b"), allotment("N-c")],
    );
    expect(brief(found)).toEqual([
      { kind: "STATUS", key: "STATUS:c", orderId: "c", distributorId: "dst_a", exchangeOrderNumber: "N-c", ours: "REJECTED", theirs: "ACCEPTED" },
      { kind: "STATUS", key: "STATUS:a", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "ACCEPTED", theirs: "ALLOTMENT REJECTED: KYC NOT VALIDATED" },
      { kind: "STATUS", key: "STATUS:b", orderId: "b", distributorId: "dst_a", exchangeOrderNumber: "N-b", ours: "REJECTED", theirs: "ALLOTTED" },
    ]);
  });

  it("MISSING_HERE describes the exchange's order by amount, else by units, else as having no amount", () => {
    const found = compareDay([], [theirs("910", { amount: null, units: "12.25" }), theirs("911", { amount: null, units: null }), theirs("912", { status: "PENDING", amount: "0", units: null })], []);
    expect(found.map((m) => m.theirs)).toEqual(["ACCEPTED purchase of S1, units 12.250", "ACCEPTED purchase of S1, no amount", "PENDING purchase of S1, no amount"]);
  });

  it("an order rejected on both sides (or CANCELLED by us, REJECTED by it) agrees whatever its amount and units; CANCELLED against ACCEPTED is a STATUS", () => {
    const found = compareDay(
      [ours("a", { status: "REJECTED", amount: "1000.00" }), ours("b", { status: "CANCELLED", amount: null, units: "5.000" }), ours("c", { status: "CANCELLED" })],
      [theirs("N-a", { status: "REJECTED", remark: "PAYMENT NOT RECEIVED", amount: "999.00" }), theirs("N-b", { status: "REJECTED", remark: "WITHDRAWN", amount: "0", units: "4.000" }), theirs("N-c")],
      [],
    );
    expect(brief(found)).toEqual([
      { kind: "STATUS", key: "STATUS:c", orderId: "c", distributorId: "dst_a", exchangeOrderNumber: "N-c", ours: "CANCELLED", theirs: "ACCEPTED" },
    ]);
  });

  it("matches a row by our id before its number: a row carrying our id a and b's number is a's", () => {
    const found = compareDay([ours("a", { amount: "100.00" }), ours("b", { amount: "200.00" })], [theirs("N-b", { orderId: "a", amount: "200.00" }), theirs("N-b", { orderId: "b", amount: "200.00" })], []);
    expect(brief(found)).toEqual([{ kind: "AMOUNT", key: "AMOUNT:a", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "100.00", theirs: "200.00" }]);
  });

  it("a STATUS difference in the order report stands alone: the statement's row for that order is not applied over it", () => {
    const found = compareDay([ours("a")], [theirs("N-a", { status: "REJECTED", remark: "PAYMENT NOT RECEIVED" })], [allotment("N-a")]);
    expect(found).toEqual([
      { kind: "STATUS", key: "STATUS:a", orderId: "a", distributorId: "dst_a", exchangeOrderNumber: "N-a", ours: "ACCEPTED", theirs: "REJECTED: PAYMENT NOT RECEIVED", allotment: null },
    ]);
  });

  it("a registrar's rejection of an order we hold REJECTED or PENDING agrees (and shows the exchange has it)", () => {
    const rejected = { valid: false, remark: "KYC NOT VALIDATED", nav: "", units: "", amount: "" };
    expect(compareDay([ours("a", { status: "REJECTED" }), ours("b", { status: "PENDING" })], [], [allotment("N-a", rejected), allotment("N-b", rejected)])).toEqual([]);
  });

  it("a statement row matched by our id to an order without a number carries the exchange's number", () => {
    const found = compareDay([ours("c", { status: "REJECTED", exchangeOrderNumber: null })], [], [allotment("77", { orderId: "c" })]);
    expect(brief(found)).toEqual([{ kind: "STATUS", key: "STATUS:c", orderId: "c", distributorId: "dst_a", exchangeOrderNumber: "77", ours: "REJECTED", theirs: "ALLOTTED" }]);
  });

  it("keeps each distributor's order under its distributor", () => {
    const found = compareDay([ours("a", { distributorId: "dst_a" }), ours("b", { distributorId: "dst_b" })], [], []);
    expect(found.map((m) => [m.orderId, m.distributorId])).toEqual([["a", "dst_a"], ["b", "dst_b"]]);
  });
});

describe("previousBusinessDay", () => {
  const calendar = calendarOf(["2026-01-26"]);
  it.each([
    ["2026-01-28", "2026-01-27"],
    ["2026-01-27", "2026-01-23"], // Monday the 26th a holiday, then the weekend
    ["2026-01-26", "2026-01-23"],
    ["2026-01-25", "2026-01-23"],
    ["2026-01-01", "2025-12-31"],
  ])("before %s is %s", (day, expected) => {
    expect(previousBusinessDay(day, calendar.isBusinessDay)).toBe(expected);
  });

  it("looks back 30 days at most: the 30th day before is found, the 31st is not", () => {
    expect(previousBusinessDay("2026-03-31", (date) => date === "2026-03-01")).toBe("2026-03-01");
    expect(() => previousBusinessDay("2026-03-31", (date) => date === "2026-02-28")).toThrow(new Error("no business day in the 30 days before 2026-03-31"));
  });
});
