/**
 * The lookups' figures (cost, gain, XIRR, locked units, the summary's totals: src/domains/holdings/holdings-figures.ts)
 * of one PAN's 5 positions, with 0, 24 and 120 transactions each (none yet imported; two years and ten years of
 * monthly SIPs with a redemption a year; one ELSS position), in this process, against answering the same rows as
 * JSON (JSON.stringify of the positions with their transactions: what a server does with them at the least).
 * No target: the figures' cost per lookup, which bench:hot-reads measures end to end only with no transactions.
 *   npm run bench:holdings-figures     (BENCH_SECONDS=3 per side; --smoke for a tiny run)
 */
import { figuresOfHistory } from "../src/domains/holdings/holdings-figures.js";
import type { PositionWithHistory } from "../src/domains/holdings/pan-positions.repo.js";
import { setting } from "./harness/options.js";
import { compare, printTable, type Figures } from "./harness/table.js";

const SECONDS = setting("BENCH_SECONDS", 3, 0.2);
const TODAY = "2026-12-01";

/** Position k of a PAN with `txns` monthly SIPs of 5,000 rupees from January, two (24) or ten (120) years back (every 12th a redemption of 5 units). */
function position(k: number, txns: number): PositionWithHistory {
  const history = Array.from({ length: txns }, (_, i) => {
    const sale = i % 12 === 11;
    return {
      txn_no: `T${k}-${i}`,
      type: sale ? "REDEMPTION" : "SIP",
      trade_date: new Date(Date.UTC(2026 - Math.ceil(txns / 12), i, 5)).toISOString().slice(0, 10),
      units: sale ? "5.000" : `${10 + (i % 7)}.125`,
      amount_paise: sale ? "260000" : "500000",
      stamp_duty_paise: sale ? "0" : "25",
      reverses_txn_no: null,
    };
  });
  const units = history.reduce((sum, t) => sum + (t.type === "SIP" ? 1 : -1) * Number(t.units), 0) + 12.5;
  return {
    registrar: k % 2 ? "KFINTECH" : "CAMS", amc_code: `AMC${k}`, amc_name: "Bench Mutual Fund", folio_no: `91${k}/55`, scheme_code: `10000${k}`,
    isin: `INF000B0000${k}`, scheme_name: `Bench Scheme ${k} Growth`, units: units.toFixed(3), nav: "521.3456", nav_date: "2026-11-27",
    market_value: (units * 521.3456).toFixed(2), balance_date: "2026-11-27", category: k === 0 ? "Equity Scheme - ELSS" : "Equity Scheme - Flexi Cap Fund",
    lock_in: null, txns: history,
  };
}

/** Calls of `fn` per second over SECONDS (after a warm-up of a fifth of that). */
function rateOf(fn: () => unknown): Figures {
  const run = (ms: number) => {
    let calls = 0;
    const end = performance.now() + ms;
    while (performance.now() < end) {
      for (let i = 0; i < 50; i++) fn();
      calls += 50;
    }
    return calls;
  };
  run((SECONDS * 1000) / 5);
  const started = performance.now();
  const calls = run(SECONDS * 1000);
  return { rate: calls / ((performance.now() - started) / 1000) };
}

const rows = [];
for (const txns of [0, 24, 120]) {
  const positions = Array.from({ length: 5 }, (_, k) => position(k, txns));
  const { totals } = figuresOfHistory(positions, TODAY);
  if (txns > 0 && (totals.xirr === null || totals.cost_value <= 0)) throw new Error(`figures check failed: ${JSON.stringify(totals)}`);
  const ours = rateOf(() => figuresOfHistory(positions, TODAY));
  const baseline = rateOf(() => JSON.stringify(positions));
  rows.push(compare(`figures of 5 positions, ${txns} transactions each`, "lookups/s", ours, "JSON.stringify of the same rows", baseline));
}
printTable(`The lookups' figures in this process, ${SECONDS} s per side`, rows);
for (const row of rows) console.log(`${row.path}: ${(1e6 / row.ours.rate!).toFixed(1)} us per lookup`);
