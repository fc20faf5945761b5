import { describe, expect, it } from "vitest";
import { RequestBudget } from "../../src/platform/lib/request-budget.js";

/** 1 request/s, burst 10: a bucket spent by one request is full again after 1 s, an emptied one after 10 s. */
const SETTINGS = { rps: 1, burst: 10 };
const CAPACITY = 10_000;

function budgetAt(start = 1_000_000) {
  const clock = { now: start };
  return { clock, budget: new RequestBudget(SETTINGS, () => clock.now, { maxBuckets: CAPACITY }) };
}

/** Spends all of `key`'s burst; the next take is refused. */
function empty(budget: RequestBudget, key: string) {
  for (let i = 0; i < SETTINGS.burst; i++) expect(budget.take(key).allowed).toBe(true);
  expect(budget.take(key).allowed).toBe(false);
}

describe("the request budget's map when it is full (security review, issue 25)", () => {
  it("never forgets a spent bucket: a flood of new keys (IPv6 /64s) cannot reset an emptied client's budget", async () => {
    const { budget } = budgetAt();
    empty(budget, "client_a");
    for (let i = 0; i < CAPACITY + 500; i++) budget.take(`address:2001:db8:${i.toString(16)}::/64`);
    const again = budget.take("client_a");
    expect(again.allowed).toBe(false);
    expect(again.headers["Retry-After"]).toBe("1");
  });

  it("refuses a new key while every bucket is spent, with Retry-After until the first one is full again", async () => {
    const { budget, clock } = budgetAt();
    for (let i = 0; i < CAPACITY; i++) expect(budget.take(`k${i}`).allowed).toBe(true);
    clock.now += 400;
    const refused = budget.take("newcomer");
    expect(refused).toEqual({
      allowed: false,
      headers: { "RateLimit-Limit": "10", "RateLimit-Remaining": "0", "RateLimit-Reset": "1", "Retry-After": "1" },
    });
    // The keys already known keep being served from their own buckets.
    expect(budget.take("k0").headers["RateLimit-Remaining"]).toBe("8");
  });

  it("makes room by forgetting full buckets only (a forgotten full bucket changes nothing)", async () => {
    const { budget, clock } = budgetAt();
    empty(budget, "client_a");
    for (let i = 0; i < CAPACITY - 1; i++) budget.take(`k${i}`);
    clock.now += 1_000; // every k is full again; client_a has 1 of 10
    const newcomer = budget.take("newcomer");
    expect(newcomer.allowed).toBe(true);
    expect(newcomer.headers["RateLimit-Remaining"]).toBe("9");
    const a = budget.take("client_a");
    expect(a.allowed).toBe(true);
    expect(a.headers["RateLimit-Remaining"]).toBe("0");
    expect(budget.take("client_a").allowed).toBe(false);
  });
});
