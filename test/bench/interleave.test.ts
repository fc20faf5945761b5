import { describe, expect, it } from "vitest";
import { NOT_RUN, pairRatios, turns, type LoadResult } from "../../bench/harness/load.js";

const rates = (...values: number[]): LoadResult[] => values.map((rate) => ({ ...NOT_RUN, rate, requests: rate, seconds: 1 }));

describe("the HTTP benchmarks' sides taking turns", () => {
  it("each side runs first in every other pair: A B, B A, A B, ...", () => {
    expect(turns(3)).toEqual([0, 1, 1, 0, 0, 1]);
    expect(turns(1)).toEqual([0, 1]);
    expect(turns(0)).toEqual([]);
  });

  it("each pair's ratio is the second side's rate over the first's, summarised by median and range", () => {
    expect(pairRatios(rates(100, 200, 100), rates(50, 120, 40))).toBe("median 0.50 of 3 pairs (0.40-0.60)");
    expect(pairRatios(rates(100, 100), rates(50, 70))).toBe("median 0.60 of 2 pairs (0.50-0.70)");
  });

  it("a side that did not run has no ratios", () => {
    expect(pairRatios([NOT_RUN], rates(50))).toBe("-");
    expect(pairRatios(rates(50), [NOT_RUN])).toBe("-");
  });
});
