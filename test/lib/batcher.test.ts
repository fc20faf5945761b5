import { describe, expect, it } from "vitest";
import { Batcher } from "../../src/platform/lib/batcher.js";

/** A batch function that records each call and answers when released. */
function recording(fail: (item: number) => boolean = () => false) {
  const calls: number[][] = [];
  const releases: Array<() => void> = [];
  const run = async (items: number[]) => {
    calls.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    if (items.length > 1 && items.some(fail)) throw new Error("batch failed");
    if (items.some(fail)) throw new Error(`item ${items[0]} failed`);
    return items.map((i) => i * 10);
  };
  const releaseAll = async () => {
    while (releases.length > 0) releases.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { calls, run, releaseAll };
}

describe("Batcher", () => {
  it("sends the items added together in one call, and those added while it runs in the next", async () => {
    const { calls, run, releaseAll } = recording();
    const batcher = new Batcher(run);
    const first = [batcher.add(1), batcher.add(2)];
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1, 2]]);
    const later = [batcher.add(3), batcher.add(4), batcher.add(5)];
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([[1, 2]]); // waits for the batch under way
    await releaseAll();
    expect(await Promise.all(first)).toEqual([10, 20]);
    expect(calls).toEqual([[1, 2], [3, 4, 5]]);
    await releaseAll();
    expect(await Promise.all(later)).toEqual([30, 40, 50]);
  });

  it("sends no more than maxBatch items in one call", async () => {
    const { calls, run, releaseAll } = recording();
    const batcher = new Batcher(run, 2);
    const all = [1, 2, 3, 4, 5].map((i) => batcher.add(i));
    while (calls.flat().length < 5) await releaseAll();
    await releaseAll();
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(calls).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("runs each item of a failed batch alone, so only the bad one fails", async () => {
    const { calls, run, releaseAll } = recording((i) => i === 2);
    const batcher = new Batcher(run);
    const results = [1, 2, 3].map((i) => batcher.add(i).then((value) => ({ value }), (error: Error) => ({ error: error.message })));
    while (calls.length < 4) await releaseAll();
    await releaseAll();
    expect(await Promise.all(results)).toEqual([{ value: 10 }, { error: "item 2 failed" }, { value: 30 }]);
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
