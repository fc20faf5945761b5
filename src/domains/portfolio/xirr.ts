import { dayNumber } from "./calendar.js";

/**
 * The annualised return of dated cash flows, as spreadsheet XIRR computes it: the rate r where
 * sum(amount / (1 + r)^(days since the first flow / 365)) = 0 (Actual/365). Invested money is negative,
 * money received positive, today's value the last positive flow.
 *
 * A rate, not money, so it is solved in floating point (paise as doubles are exact below 2^53): Newton's method
 * from 10%, and when Newton fails (leaves (-1, inf), does not settle in 50 steps) bisection between -0.999999
 * and 1e6 when the NPV changes sign there. Null (not meaningful), with the reason, when the flows do not both invest and
 * receive, when the first and last flows are less than MIN_SPAN_DAYS apart (a few days' return annualised is
 * noise), or when no rate in (-1, 1e6] solves them.
 */

export const MIN_SPAN_DAYS = 7;
const TOLERANCE = 1e-10;
const MAX_NEWTON_STEPS = 50;
const LOWEST = -0.999999;
const HIGHEST = 1e6;

export interface CashFlow {
  date: string;
  amountPaise: bigint;
}

export interface Term {
  years: number;
  amount: number;
}

function npv(terms: readonly Term[], rate: number): number {
  // Stryker disable next-line ArithmeticOperator: bisection, its one reader, looks only for a change of sign, which a negated NPV keeps
  return terms.reduce((sum, t) => sum + t.amount / Math.pow(1 + rate, t.years), 0);
}

/** The NPV over its slope in the rate, one power per term for both (each term's slope is -years x its NPV / (1 + rate)). */
function newtonStep(terms: readonly Term[], rate: number): number {
  let value = 0;
  let slope = 0;
  for (const t of terms) {
    const discounted = t.amount / Math.pow(1 + rate, t.years);
    value += discounted;
    slope -= (t.years * discounted) / (1 + rate);
  }
  return value / slope;
}

export function newton(terms: readonly Term[]): number | null {
  let rate = 0.1;
  // Stryker disable next-line EqualityOperator: one step more or less of a method that has not settled in 50
  for (let step = 0; step < MAX_NEWTON_STEPS; step++) {
    const next = rate - newtonStep(terms, rate);
    // Beyond -1 (1 + r <= 0) the equation has no meaning, though an even power has roots there; NaN fails too.
    // Stryker disable next-line EqualityOperator: a step landing exactly on -1 has an infinite NPV next and fails anyway
    if (!(next > -1)) return null;
    // Stryker disable next-line EqualityOperator: a step of exactly the tolerance is as settled as a smaller one
    if (Math.abs(next - rate) < TOLERANCE) return next;
    rate = next;
  }
  return null;
}

export function bisection(terms: readonly Term[]): number | null {
  let lo = LOWEST;
  let hi = HIGHEST;
  const loSign = Math.sign(npv(terms, lo));
  if (loSign === Math.sign(npv(terms, hi))) return null;
  // Stryker disable next-line EqualityOperator: an interval of exactly the tolerance is as narrow as a smaller one
  while (hi - lo > TOLERANCE) {
    const mid = (lo + hi) / 2;
    if (Math.sign(npv(terms, mid)) === loSign) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export type XirrOutcome = { rate: number; reason: null } | { rate: null; reason: "no_sign_change" | "span_under_7_days" | "no_solution" };

export function xirrOutcome(flows: readonly CashFlow[]): XirrOutcome {
  if (!flows.some((f) => f.amountPaise < 0n) || !flows.some((f) => f.amountPaise > 0n)) return { rate: null, reason: "no_sign_change" };
  const days = flows.map((f) => dayNumber(f.date));
  const first = days.reduce((a, b) => Math.min(a, b));
  if (days.reduce((a, b) => Math.max(a, b)) - first < MIN_SPAN_DAYS) return { rate: null, reason: "span_under_7_days" };
  const terms = flows.map((f, i) => ({ years: (days[i]! - first) / 365, amount: Number(f.amountPaise) }));
  const rate = newton(terms) ?? bisection(terms);
  return rate === null ? { rate: null, reason: "no_solution" } : { rate, reason: null };
}

export function xirr(flows: readonly CashFlow[]): number | null {
  return xirrOutcome(flows).rate;
}
