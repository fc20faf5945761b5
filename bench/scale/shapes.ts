/**
 * The shape of a few years of a distributor platform: how much each distributor holds, the mix of order types
 * and statuses, the events and webhooks they cause. Every row of a kind is numbered 0..count-1 and everything
 * about it follows from its number (bench/scale/ids.ts), so tables can be written one after another without lookups.
 */
import { idAt, unit } from "./ids.js";

export const DAY_MS = 86_400_000;
/** The data covers the three years before the generation. */
export const SPAN_MS = 3 * 365 * DAY_MS;

/** Shares of the data: one distributor with ~70%, then a long tail. */
export const DISTRIBUTOR_SHARES = [0.7, 0.12, 0.07, 0.05, 0.03, 0.02, 0.007, 0.003];

export interface Scale {
  investors: number;
  orders: number;
  events: number;
  deliveries: number;
  positions: number;
}

/**
 * The open work the jobs pick, at least a full batch of each whatever the scale (up to a quarter of what the
 * scale holds), so bench:scale's almost empty side picks as many rows as the generated one: PENDING orders (half
 * never sent: the lost-dispatch sweep's 500), ACCEPTED ones (with the PENDING ones sent: the status sync's 500),
 * due webhook deliveries (the claim's 200, across the distributors). The default scale has more of each.
 */
export const OPEN_WORK = { pendingOrders: 1200, acceptedOrders: 600, dueDeliveries: 400 } as const;

/** How many of `total` rows are open: the proportional count, but at least the floor (or a quarter of the total), and 2. */
export const openCount = (proportional: number, floor: number, total: number) => Math.max(2, proportional, Math.min(floor, Math.floor(total / 4)));

/** When row n of `count` was made: evenly over the span, oldest first, ending `now`. */
export function timeOf(n: number, count: number, now: number): number {
  return now - SPAN_MS + Math.floor(((n + 0.5) * SPAN_MS) / Math.max(count, 1));
}

/** Which distributor a row belongs to, by the shares (row kinds pass their own salt). */
export function distributorIndex(n: number, salt: number): number {
  let u = unit(n, salt);
  for (let d = 0; d < DISTRIBUTOR_SHARES.length - 1; d++) {
    u -= DISTRIBUTOR_SHARES[d]!;
    if (u < 0) return d;
  }
  return DISTRIBUTOR_SHARES.length - 1;
}

/**
 * Investors are numbered in blocks, one per distributor (block sizes by the shares), so an order picks an
 * investor of its own distributor by arithmetic.
 */
const blocksByCount = new Map<number, Array<{ start: number; count: number }>>();
export function investorBlocks(investors: number): Array<{ start: number; count: number }> {
  const known = blocksByCount.get(investors);
  if (known) return known;
  const blocks: Array<{ start: number; count: number }> = [];
  let start = 0;
  DISTRIBUTOR_SHARES.forEach((share, d) => {
    const count = d === DISTRIBUTOR_SHARES.length - 1 ? investors - start : Math.max(1, Math.floor(investors * share));
    blocks.push({ start, count: Math.max(0, count) });
    start += Math.max(0, count);
  });
  blocksByCount.set(investors, blocks);
  return blocks;
}

/** Which distributor (its index) investor n of `investors` belongs to: the block holding n. */
export const distributorOfInvestor = (n: number, investors: number): number =>
  investorBlocks(investors).findIndex((b) => n >= b.start && n < b.start + b.count);

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
const strides = new Map<number, number>();
/**
 * When investor n joined. Investors are numbered in distributor blocks, but each block's investors joined all
 * through the span, interleaved with the others' (n is spread by a stride coprime with the count), as in
 * production: a distributor's newest-first list skips the other distributors' rows unless an index says.
 */
export function investorTime(n: number, scale: Scale, now: number): number {
  let stride = strides.get(scale.investors);
  if (stride === undefined) {
    stride = 1_000_003;
    while (gcd(stride % scale.investors, scale.investors) !== 1) stride += 2;
    strides.set(scale.investors, stride);
  }
  return timeOf((n * stride) % scale.investors, scale.investors, now);
}

export const investorId = (n: number, scale: Scale, now: number) => idAt("inv", investorTime(n, scale, now), n);
export const accountId = (n: number, scale: Scale, now: number) => idAt("iac", investorTime(n, scale, now), n);
export const bankId = (n: number, scale: Scale, now: number) => idAt("bnk", investorTime(n, scale, now), n);
export const eventId = (n: number, scale: Scale, now: number) => idAt("evt", timeOf(n, scale.events, now), n);

/** Within a block, which investor a row (order) of salt `salt` belongs to: a few investors order much more. */
export function investorOf(n: number, salt: number, block: { start: number; count: number }): number {
  const u = unit(n, salt + 7);
  return block.start + Math.floor(u * u * block.count);
}

/** Picks from [value, weight] pairs by u in [0, 1). */
export function pick<T>(u: number, table: ReadonlyArray<readonly [T, number]>): T {
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  let rest = u * total;
  for (const [value, weight] of table) {
    rest -= weight;
    if (rest < 0) return value;
  }
  return table[table.length - 1]![0];
}
export const mandateId = (n: number, at: number) => idAt("mdt", at, n);
