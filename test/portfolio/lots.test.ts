import { describe, expect, it } from "vitest";
import { buildLots, type LotsResult } from "../../src/domains/portfolio/lots.js";
import { fromMilli, proRata, scaledText, toMilli } from "../../src/domains/portfolio/exact.js";
import { dec, tx } from "./txns.js";

/** FIFO lots (reports.md, Lots), exact to the paisa and the thousandth of a unit. */

const open = (r: LotsResult) => r.openLots.map((l) => [l.source, l.txnNo, l.acquiredOn, scaledText(l.milli, 3), l.costPaise]);
const parts = (r: LotsResult, i = 0) => r.sales[i]!.consumed.map((c) => [c.source, c.lotTxnNo, c.acquiredOn, c.units.toFixed(3), c.costPaise, c.saleValuePaise]);

describe("proRata: half-even to the paisa, in integers", () => {
  it.each([
    [100n, 1n, 3n, 33n],
    [100n, 2n, 3n, 67n],
    [5n, 1n, 2n, 2n], // 2.5 -> 2 (even)
    [7n, 1n, 2n, 4n], // 3.5 -> 4 (even)
    [3n, 1n, 2n, 2n], // 1.5 -> 2
    [10n, 1n, 4n, 2n], // 2.5 -> 2
    [10n, 3n, 4n, 8n], // 7.5 -> 8
    [9n, 1n, 4n, 2n], // 2.25 -> 2
    [11n, 1n, 4n, 3n], // 2.75 -> 3
    [0n, 1n, 3n, 0n],
    [100n, 3n, 3n, 100n],
  ])("%s * %s / %s = %s", (total, part, whole, share) => {
    expect(proRata(total, part, whole)).toBe(share);
  });

  it("units are thousandths; more than 3 decimals is refused", () => {
    expect(toMilli(dec("12.345"))).toBe(12_345n);
    expect(toMilli(dec("-1.5"))).toBe(1_500n);
    expect(fromMilli(12_345n).toString()).toBe("12.345");
    expect(() => toMilli(dec("1.0005"))).toThrow("units with more than 3 decimals: 1.0005");
  });
});

describe("buildLots", () => {
  it("takes the transactions in trade-date order, same-day ones in the order given", () => {
    const r = buildLots(
      [
        tx("P3", "PURCHASE", "2024-03-01", "10.000", 3_000n),
        tx("S1", "REDEMPTION", "2024-02-01", "8.000", 900n),
        tx("P2", "PURCHASE", "2024-02-01", "10.000", 2_000n),
        tx("P1", "PURCHASE", "2024-01-01", "5.000", 500n),
      ],
      dec("17.000"),
    );
    // S1 comes before P2 (the same day): it takes P1 whole and 3 units beyond every lot, none of P2.
    expect(parts(r)).toEqual([
      ["LOT", "P1", "2024-01-01", "5.000", 500n, 562n],
      ["UNEXPLAINED", null, null, "3.000", null, 338n],
    ]);
    expect(open(r)).toEqual([
      ["LOT", "P2", "2024-02-01", "10.000", 2_000n],
      ["LOT", "P3", "2024-03-01", "10.000", 3_000n],
    ]);
    expect(r.lotsComplete).toBe(false);
  });

  it("orders many transactions given shuffled by trade date, same-day ones as given (a sort past its insertion runs)", () => {
    // 120 purchases over 40 days, three a day, shuffled deterministically; same-day ones keep their relative order.
    const dated = Array.from({ length: 120 }, (_, i) => tx(`P${i}`, "PURCHASE", `2024-02-${String(1 + Math.floor(i / 3) % 29).padStart(2, "0")}`, "1.000", 100n));
    const byMonth = dated.map((t, i) => (i >= 87 ? { ...t, tradeDate: t.tradeDate.replace("2024-02", "2024-03") } : t));
    let seed = 5;
    const shuffled = [...byMonth].sort(() => ((seed = (seed * 16_807) % 2_147_483_647) % 3) - 1);
    const order = (txns: typeof shuffled) => [...txns].sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0)).map((t) => t.txnNo);
    const { openLots } = buildLots(shuffled, dec("120.000"));
    const lots = openLots.map((l) => l.txnNo);
    expect(lots).toEqual(order(shuffled));
    const days = openLots.map((l) => l.acquiredOn!);
    expect(days).toEqual([...days].sort());
    // Same-day lots in the order the shuffled input gave them.
    for (const day of new Set(days)) {
      expect(lots.filter((_, i) => days[i] === day)).toEqual(shuffled.filter((t) => t.tradeDate === day).map((t) => t.txnNo));
    }
  });

  it("reads units only of the types that move them: a payout's units of any precision are no error", () => {
    const r = buildLots([tx("P1", "PURCHASE", "2024-01-01", "5.000", 500n), tx("D1", "DIVIDEND_PAYOUT", "2024-02-01", "0.0001", 100n)], dec("5.000"));
    expect(open(r)).toEqual([["LOT", "P1", "2024-01-01", "5.000", 500n]]);
    expect(r.lotsComplete).toBe(true);
  });

  it("makes a lot of each unit-adding type, cost = amount + stamp duty, a bonus at zero cost", () => {
    const r = buildLots(
      [
        tx("1", "PURCHASE", "2024-01-10", "100.000", 99_995n, { stampDutyPaise: 5n }),
        tx("2", "SIP", "2024-02-10", "10.000", 10_000n),
        tx("3", "SWITCH_IN", "2024-03-10", "5.000", 5_000n),
        tx("4", "STP_IN", "2024-03-11", "1.000", 1_000n),
        tx("5", "DIVIDEND_REINVESTMENT", "2024-03-12", "0.500", 500n),
        tx("6", "BONUS", "2024-03-13", "2.000", 777n, { stampDutyPaise: 3n }),
        tx("7", "TRANSFER_IN", "2024-03-14", "3.000", 3_000n),
        tx("8", "DIVIDEND_PAYOUT", "2024-03-15", "0.000", 900n),
        tx("9", "OTHER", "2024-03-16", "0.000", 0n),
      ],
      dec("121.500"),
    );
    expect(r.lotsComplete).toBe(true);
    expect(scaledText(r.unexplainedMilli, 3)).toBe("0.000");
    expect(open(r)).toEqual([
      ["LOT", "1", "2024-01-10", "100.000", 100_000n],
      ["LOT", "2", "2024-02-10", "10.000", 10_000n],
      ["LOT", "3", "2024-03-10", "5.000", 5_000n],
      ["LOT", "4", "2024-03-11", "1.000", 1_000n],
      ["LOT", "5", "2024-03-12", "0.500", 500n],
      ["LOT", "6", "2024-03-13", "2.000", 0n],
      ["LOT", "7", "2024-03-14", "3.000", 3_000n],
    ]);
    const first = r.openLots[0]!;
    expect([first.amountPaise, first.stampDutyPaise, scaledText(first.originalMilli, 3), first.type, first.acquiredOnOrBefore]).toEqual([99_995n, 5n, "100.000", "PURCHASE", "2024-01-10"]);
    expect([r.openLots[5]!.amountPaise, r.openLots[5]!.stampDutyPaise]).toEqual([0n, 0n]);
    expect([r.sales, r.transfersOut, r.unmatchedReversals]).toEqual([[], [], []]);
  });

  it("consumes the oldest lots first, partial lots pro rata, the remainder staying with the lot so parts sum exactly", () => {
    const r = buildLots(
      [
        tx("1", "PURCHASE", "2024-01-10", "3.000", 100n),
        tx("2", "PURCHASE", "2024-02-10", "2.000", 50n),
        tx("R1", "REDEMPTION", "2024-03-10", "1.000", 40n),
        tx("R2", "REDEMPTION", "2024-03-11", "1.000", 41n),
        tx("R3", "SWITCH_OUT", "2024-03-12", "2.000", 81n),
      ],
      dec("1.000"),
    );
    expect(r.lotsComplete).toBe(true);
    expect(parts(r, 0)).toEqual([["LOT", "1", "2024-01-10", "1.000", 33n, 40n]]);
    expect(parts(r, 1)).toEqual([["LOT", "1", "2024-01-10", "1.000", 34n, 41n]]); // 67 * 1 / 2 = 33.5 -> 34
    expect(parts(r, 2)).toEqual([
      ["LOT", "1", "2024-01-10", "1.000", 33n, 40n], // the sale's 81 * 1 / 2 = 40.5 -> 40 (even)
      ["LOT", "2", "2024-02-10", "1.000", 25n, 41n],
    ]);
    expect(open(r)).toEqual([["LOT", "2", "2024-02-10", "1.000", 25n]]);
    expect(r.sales.map((s) => [s.txnNo, s.type, s.soldOn, s.units.toFixed(3), s.amountPaise])).toEqual([
      ["R1", "REDEMPTION", "2024-03-10", "1.000", 40n],
      ["R2", "REDEMPTION", "2024-03-11", "1.000", 41n],
      ["R3", "SWITCH_OUT", "2024-03-12", "2.000", 81n],
    ]);
    const cost = r.sales.flatMap((s) => s.consumed).reduce((sum, c) => sum + c.costPaise!, 0n) + r.openLots[0]!.costPaise!;
    expect(cost).toBe(150n);
  });

  it("FIFO across switches within a scheme: a switch-in is a lot, STP-out and SWP are sales, a transfer-out consumes but is no sale", () => {
    const r = buildLots(
      [
        tx("1", "SWITCH_IN", "2023-05-01", "10.000", 1_000n),
        tx("2", "SIP", "2023-06-01", "10.000", 1_200n),
        tx("3", "STP_OUT", "2023-07-01", "4.000", 480n),
        tx("4", "TRANSFER_OUT", "2023-08-01", "4.000", 0n),
        tx("5", "SWP", "2023-09-01", "4.000", 600n),
      ],
      dec("8.000"),
    );
    expect(r.lotsComplete).toBe(true);
    expect(r.sales.map((s) => s.type)).toEqual(["STP_OUT", "SWP"]);
    expect(r.transfersOut.map((s) => [s.txnNo, s.consumed.map((c) => [c.lotTxnNo, c.units.toFixed(3), c.costPaise])])).toEqual([["4", [["1", "4.000", 400n]]]]);
    expect(parts(r, 1)).toEqual([
      ["LOT", "1", "2023-05-01", "2.000", 200n, 300n],
      ["LOT", "2", "2023-06-01", "2.000", 240n, 300n],
    ]);
    expect(open(r)).toEqual([["LOT", "2", "2023-06-01", "8.000", 960n]]);
  });

  it("a reversal cancels the purchase it names, and a reversed redemption gives its units back", () => {
    const r = buildLots(
      [
        tx("1", "PURCHASE", "2024-01-10", "10.000", 1_000n),
        tx("2", "PURCHASE", "2024-01-11", "5.000", 600n),
        tx("9", "REVERSAL", "2024-01-12", "10.000", 1_000n, { reversesTxnNo: "1" }),
        tx("3", "REDEMPTION", "2024-02-01", "5.000", 700n),
        tx("8", "REVERSAL", "2024-02-02", "5.000", 700n, { reversesTxnNo: "3" }),
        tx("7", "REVERSAL", "2024-02-03", "1.000", 1n, { reversesTxnNo: "404" }),
        tx("6", "REVERSAL", "2024-02-03", "1.000", 1n),
      ],
      dec("5.000"),
    );
    expect(r.lotsComplete).toBe(true);
    expect(open(r)).toEqual([["LOT", "2", "2024-01-11", "5.000", 600n]]);
    expect(r.sales).toEqual([]);
    expect(r.unmatchedReversals).toEqual(["7", "6"]);
  });

  it("a reversal of a reversal cancels nothing; a reversal is never the opening lot's bound", () => {
    const r = buildLots(
      [tx("8", "REVERSAL", "2024-01-01", "1.000", 1n, { reversesTxnNo: "0" }), tx("1", "PURCHASE", "2024-02-01", "1.000", 100n), tx("2", "REVERSAL", "2024-02-02", "1.000", 100n, { reversesTxnNo: "1" }), tx("3", "REVERSAL", "2024-02-03", "1.000", 100n, { reversesTxnNo: "2" })],
      dec("5.000"),
    );
    expect(r.unmatchedReversals).toEqual(["8", "3"]);
    expect(r.openLots.map((l) => [l.source, l.acquiredOnOrBefore, scaledText(l.milli, 3)])).toEqual([["OPENING", null, "5.000"]]);
    const bound = buildLots([tx("8", "REVERSAL", "2024-01-01", "1.000", 1n, { reversesTxnNo: "0" }), tx("1", "PURCHASE", "2024-02-01", "1.000", 100n)], dec("3.000"));
    expect(bound.openLots.map((l) => [l.source, l.acquiredOnOrBefore, scaledText(l.milli, 3)])).toEqual([["OPENING", "2024-02-01", "2.000"], ["LOT", "2024-02-01", "1.000"]]);
  });

  it("sorts by trade date, keeping the feed's order within a day", () => {
    const r = buildLots(
      [tx("2", "PURCHASE", "2024-02-01", "1.000", 200n), tx("1", "PURCHASE", "2024-01-01", "1.000", 100n), tx("3", "REDEMPTION", "2024-02-01", "1.000", 150n), tx("4", "PURCHASE", "2024-02-01", "1.000", 300n)],
      dec("2.000"),
    );
    expect(parts(r)).toEqual([["LOT", "1", "2024-01-01", "1.000", 100n, 150n]]);
    expect(open(r).map((l) => l[1])).toEqual(["2", "4"]);
  });

  it("a balance above the history is an opening lot of unknown date and cost, consumed first", () => {
    const r = buildLots([tx("1", "PURCHASE", "2024-01-10", "10.000", 1_000n), tx("2", "REDEMPTION", "2024-02-10", "6.000", 900n)], dec("9.000"));
    expect(r.lotsComplete).toBe(false);
    expect(scaledText(r.unexplainedMilli, 3)).toBe("5.000");
    expect(parts(r)).toEqual([
      ["OPENING", null, null, "5.000", null, 750n],
      ["LOT", "1", "2024-01-10", "1.000", 100n, 150n],
    ]);
    expect(open(r)).toEqual([["LOT", "1", "2024-01-10", "9.000", 900n]]);
    const partial = buildLots([tx("1", "PURCHASE", "2024-01-10", "1.000", 100n), tx("2", "REDEMPTION", "2024-02-10", "1.000", 300n)], dec("3.000"));
    expect([parts(partial), open(partial)]).toEqual([[["OPENING", null, null, "1.000", null, 300n]], [["OPENING", null, null, "2.000", null], ["LOT", "1", "2024-01-10", "1.000", 100n]]]);
    const opening = buildLots([tx("1", "PURCHASE", "2024-01-10", "1.000", 100n)], dec("3.000")).openLots[0]!;
    expect([opening.source, opening.type, opening.acquiredOnOrBefore, scaledText(opening.originalMilli, 3), scaledText(opening.milli, 3), opening.costPaise, opening.amountPaise, opening.stampDutyPaise]).toEqual(["OPENING", null, "2024-01-10", "2.000", "2.000", null, null, null]);
    expect(buildLots([], dec("4.000")).openLots.map((l) => [l.source, l.acquiredOnOrBefore, scaledText(l.milli, 3)])).toEqual([["OPENING", null, "4.000"]]);
  });

  it("a balance below the history, or a sale of more than the lots hold, is incomplete; nothing is guessed", () => {
    const below = buildLots([tx("1", "PURCHASE", "2024-01-10", "10.000", 1_000n)], dec("7.500"));
    expect([below.lotsComplete, scaledText(below.unexplainedMilli, 3), open(below)]).toEqual([false, "-2.500", [["LOT", "1", "2024-01-10", "10.000", 1_000n]]]);
    const over = buildLots([tx("2", "REDEMPTION", "2024-01-09", "4.000", 400n), tx("1", "PURCHASE", "2024-01-10", "4.000", 1_000n)], dec("0.000"));
    expect(over.lotsComplete).toBe(false);
    expect(scaledText(over.unexplainedMilli, 3)).toBe("0.000");
    expect(parts(over)).toEqual([["UNEXPLAINED", null, null, "4.000", null, 400n]]);
    const overTransfer = buildLots([tx("2", "TRANSFER_OUT", "2024-01-09", "1.000"), tx("1", "PURCHASE", "2024-01-10", "1.000", 1n)], dec("0"));
    expect(overTransfer.lotsComplete).toBe(false);
    const partly = buildLots([tx("1", "PURCHASE", "2024-01-10", "1.000", 100n), tx("2", "REDEMPTION", "2024-01-11", "3.000", 301n), tx("3", "PURCHASE", "2024-01-12", "2.000", 200n)], dec("0"));
    expect(partly.lotsComplete).toBe(false);
    expect(parts(partly)).toEqual([["LOT", "1", "2024-01-10", "1.000", 100n, 100n], ["UNEXPLAINED", null, null, "2.000", null, 201n]]);
  });

  it("skips a zero-unit lot", () => {
    const r = buildLots([tx("1", "DIVIDEND_REINVESTMENT", "2024-01-10", "0.000", 0n), tx("2", "PURCHASE", "2024-01-11", "1.000", 100n), tx("3", "REDEMPTION", "2024-01-12", "1.000", 120n)], dec("0"));
    expect([r.lotsComplete, open(r), parts(r)]).toEqual([true, [], [["LOT", "2", "2024-01-11", "1.000", 100n, 120n]]]);
  });
});
