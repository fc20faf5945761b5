import { describe, expect, it } from "vitest";
import { buildLots } from "../../src/domains/portfolio/lots.js";
import { cashFlows, positionFigures } from "../../src/domains/portfolio/position-figures.js";
import { xirr } from "../../src/domains/portfolio/xirr.js";
import { dec, tx } from "./txns.js";

/** A position's cost value, average NAV, unrealised gain and XIRR over its lots of known date and cost. */

const figures = (r: ReturnType<typeof positionFigures>) => [r.knownUnits.toFixed(3), r.costValuePaise, r.averageNav?.toFixed(4) ?? null, r.currentValuePaise, r.unrealisedGainPaise];

describe("positionFigures", () => {
  it("a year's doubling: cost, average NAV, value, gain and an XIRR of 1", () => {
    const txns = [tx("1", "PURCHASE", "2024-11-28", "100.000", 99_990n, { stampDutyPaise: 10n })];
    const r = positionFigures(txns, buildLots(txns, dec("100.000")), dec("20.0000"), "2025-11-28");
    expect(figures(r)).toEqual(["100.000", 100_000n, "10.0000", 200_000n, 100_000n]);
    expect(r.xirr).toEqual({ rate: 1, reason: null });
  });

  it("flows: invested types negative at cost, sales (their known lots' share) and payouts positive, no money for a reinvestment, a bonus or a reversed purchase", () => {
    const txns = [
      tx("1", "PURCHASE", "2024-01-01", "10.000", 10_000n, { stampDutyPaise: 1n }),
      tx("2", "SIP", "2024-02-01", "10.000", 10_000n),
      tx("3", "SWITCH_IN", "2024-03-01", "10.000", 10_000n),
      tx("4", "STP_IN", "2024-04-01", "10.000", 10_000n),
      tx("5", "TRANSFER_IN", "2024-05-01", "10.000", 10_000n),
      tx("6", "DIVIDEND_REINVESTMENT", "2024-06-01", "1.000", 1_000n),
      tx("7", "BONUS", "2024-06-02", "1.000", 0n),
      tx("8", "DIVIDEND_PAYOUT", "2024-06-03", "0.000", 500n),
      tx("9", "PURCHASE", "2024-06-04", "5.000", 5_000n),
      tx("10", "REVERSAL", "2024-06-05", "5.000", 5_000n, { reversesTxnNo: "9" }),
      tx("11", "REDEMPTION", "2024-07-01", "5.000", 6_000n),
      tx("12", "TRANSFER_OUT", "2024-08-01", "5.000", 5_500n),
    ];
    const lots = buildLots(txns, dec("42.000"));
    expect(lots.lotsComplete).toBe(true);
    expect(cashFlows(txns, lots, "2025-01-01", 70_000n)).toEqual([
      { date: "2024-01-01", amountPaise: -10_001n },
      { date: "2024-02-01", amountPaise: -10_000n },
      { date: "2024-03-01", amountPaise: -10_000n },
      { date: "2024-04-01", amountPaise: -10_000n },
      { date: "2024-05-01", amountPaise: -10_000n },
      { date: "2024-06-03", amountPaise: 500n },
      { date: "2024-07-01", amountPaise: 6_000n },
      { date: "2024-08-01", amountPaise: 5_500n },
      { date: "2025-01-01", amountPaise: 70_000n },
    ]);
    const r = positionFigures(txns, lots, dec("1.5"), "2025-01-01");
    expect(figures(r)).toEqual(["42.000", 41_000n, "9.7619", 6_300n, -34_700n]);
  });

  it("the opening lot counts in neither cost, value nor XIRR; a sale's share of it is left out", () => {
    const txns = [tx("1", "PURCHASE", "2024-01-01", "10.000", 10_000n), tx("2", "REDEMPTION", "2024-06-01", "4.000", 8_000n)];
    const lots = buildLots(txns, dec("9.000"));
    expect(lots.lotsComplete).toBe(false);
    expect(cashFlows(txns, lots, "2025-01-01", 1n)).toEqual([
      { date: "2024-01-01", amountPaise: -10_000n },
      { date: "2024-06-01", amountPaise: 2_000n },
      { date: "2025-01-01", amountPaise: 1n },
    ]);
    const r = positionFigures(txns, lots, dec("12.34565"), "2025-01-01");
    // 9 x 12.34565 = 111.11085 rupees -> 11,111.085 paise -> 11,111 (half-even)
    expect(figures(r)).toEqual(["9.000", 9_000n, "10.0000", 11_111n, 2_111n]);
    expect(r.xirr.rate).toBe(xirr(cashFlows(txns, lots, "2025-01-01", 11_111n)));
  });

  it("no known units: no average NAV; NAV x units rounds half-even", () => {
    const empty = positionFigures([], buildLots([], dec("5.000")), dec("10"), "2025-01-01");
    expect(figures(empty)).toEqual(["0.000", 0n, null, 0n, 0n]);
    expect(empty.xirr).toEqual({ rate: null, reason: "no_sign_change" });
    const txns = [tx("1", "PURCHASE", "2024-01-01", "1.000", 3n)];
    expect(positionFigures(txns, buildLots(txns, dec("1.000")), dec("0.025"), "2025-01-01").currentValuePaise).toBe(2n);
    expect(positionFigures(txns, buildLots(txns, dec("1.000")), dec("0.035"), "2025-01-01").currentValuePaise).toBe(4n);
    expect(positionFigures([tx("1", "PURCHASE", "2024-01-01", "3.000", 100n)], buildLots([tx("1", "PURCHASE", "2024-01-01", "3.000", 100n)], dec("3")), dec("1"), "2025-01-01").averageNav!.toFixed(4)).toBe("0.3333");
    expect(positionFigures([tx("1", "PURCHASE", "2024-01-01", "3.000", 200n)], buildLots([tx("1", "PURCHASE", "2024-01-01", "3.000", 200n)], dec("3")), dec("1"), "2025-01-01").averageNav!.toFixed(4)).toBe("0.6667");
  });
});
