import { describe, expect, it } from "vitest";
import { AppError } from "../../src/platform/lib/errors.js";
import { RequestBudget, spendBudget } from "../../src/platform/lib/request-budget.js";

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

/** 0.5 request/s, burst 4: one request refills in 2 s, an emptied bucket in 8 s; room for two keys. */
const SLOW = { rps: 0.5, burst: 4 };
const T0 = 1_000_000;

function slowBudget() {
  const clock = { now: T0 };
  return { clock, budget: new RequestBudget(SLOW, () => clock.now, { maxBuckets: 2 }) };
}

const verdict = (allowed: boolean, remaining: string, reset: string, retryAfter?: string) => ({
  allowed,
  headers: { "RateLimit-Limit": "4", "RateLimit-Remaining": remaining, "RateLimit-Reset": reset, ...(retryAfter === undefined ? {} : { "Retry-After": retryAfter }) },
});

describe("the request budget's buckets", () => {
  it("a new key has the whole burst; each take spends one, Reset the seconds until full; once spent, Retry-After the seconds until one fits", () => {
    const { budget } = slowBudget();
    expect(budget.take("a")).toEqual(verdict(true, "3", "2"));
    expect(budget.take("a")).toEqual(verdict(true, "2", "4"));
    expect(budget.take("a")).toEqual(verdict(true, "1", "6"));
    expect(budget.take("a")).toEqual(verdict(true, "0", "8"));
    expect(budget.take("a")).toEqual(verdict(false, "0", "8", "2"));
  });

  it("refills continuously at rps, never beyond the burst", () => {
    const { budget, clock } = slowBudget();
    for (let i = 0; i < 4; i++) budget.take("a");
    clock.now = T0 + 500; // a quarter of a request back
    expect(budget.take("a")).toEqual(verdict(false, "0", "8", "2"));
    clock.now = T0 + 2_000; // exactly one request back
    expect(budget.take("a")).toEqual(verdict(true, "0", "8"));
    clock.now = T0 + 60_000; // rested far longer than a full refill
    expect(budget.take("a")).toEqual(verdict(true, "3", "2"));
    expect(budget.take("b")).toEqual(verdict(true, "3", "2"));
  });

  it("works on its default clock (performance.now)", () => {
    const budget = new RequestBudget({ rps: 1, burst: 10 });
    expect(budget.take("a")).toEqual({ allowed: true, headers: { "RateLimit-Limit": "10", "RateLimit-Remaining": "9", "RateLimit-Reset": "1" } });
    const second = budget.take("a");
    expect(second.allowed).toBe(true);
    expect(second.headers["RateLimit-Remaining"]).toBe("8");
  });

  it("holds 10,000 keys by default, then refuses a new one while none is full", () => {
    const clock = { now: T0 };
    const budget = new RequestBudget(SETTINGS, () => clock.now);
    for (let i = 0; i < 10_000; i++) expect(budget.take(`k${i}`).allowed).toBe(true);
    expect(budget.take("k10000")).toEqual({ allowed: false, headers: { "RateLimit-Limit": "10", "RateLimit-Remaining": "0", "RateLimit-Reset": "1", "Retry-After": "1" } });
  });

  it("refund gives back one request, never beyond the burst; refunding a key it does not hold does nothing", () => {
    const { budget } = slowBudget();
    budget.take("a");
    budget.take("a");
    budget.refund("a");
    expect(budget.take("a")).toEqual(verdict(true, "2", "4"));
    for (let i = 0; i < 3; i++) budget.refund("a");
    expect(budget.take("a")).toEqual(verdict(true, "3", "2"));
    budget.refund("b");
    expect(budget.take("b")).toEqual(verdict(true, "3", "2"));
  });

  it("while the map is full of spent buckets, refuses new keys until the first is full again, then forgets that one only", () => {
    const { budget, clock } = slowBudget();
    for (let i = 0; i < 4; i++) budget.take("a"); // full again at T0 + 8 s
    clock.now = T0 + 4_000;
    for (let i = 0; i < 4; i++) budget.take("b"); // full again at T0 + 12 s
    clock.now = T0 + 5_000;
    expect(budget.take("c")).toEqual(verdict(false, "0", "3", "3"));
    clock.now = T0 + 7_500;
    expect(budget.take("d")).toEqual(verdict(false, "0", "1", "1"));
    clock.now = T0 + 8_000;
    expect(budget.take("e")).toEqual(verdict(true, "3", "2"));
    expect(budget.take("b")).toEqual(verdict(true, "1", "6")); // b kept its own, half-refilled bucket
  });
});

describe("spendBudget", () => {
  it("writes the RateLimit headers on the response; once spent, throws 429 RATE_LIMITED with Retry-After in its message and headers", () => {
    const { budget } = slowBudget();
    const response: Record<string, string> = { "X-Request-Id": "r1" };
    spendBudget(budget, "a", response);
    expect(response).toEqual({ "X-Request-Id": "r1", "RateLimit-Limit": "4", "RateLimit-Remaining": "3", "RateLimit-Reset": "2" });
    for (let i = 0; i < 3; i++) spendBudget(budget, "a", response);
    const refused = verdict(false, "0", "8", "2").headers;
    let thrown: unknown;
    try {
      spendBudget(budget, "a", response);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    const error = thrown as AppError;
    expect([error.appCode, error.status, error.message, error.headers]).toEqual(["RATE_LIMITED", 429, "Too many requests for this API client; retry after 2 s", refused]);
    expect(response).toEqual({ "X-Request-Id": "r1", ...refused });
  });

  it("names whose budget it is in the message", () => {
    const { budget } = slowBudget();
    for (let i = 0; i < 4; i++) spendBudget(budget, "address:192.0.2.1", {}, "from this address");
    expect(() => spendBudget(budget, "address:192.0.2.1", {}, "from this address")).toThrow(/^Too many requests from this address; retry after 2 s$/);
  });
});
