/**
 * A micro-benchmark of a function, not of a path: the input check every procedure runs before its schema
 * (unsafeInputDetails, src/platform/lib/hostile-input.ts: no NUL in strings or keys, no prototype keys, at most 64
 * levels), in this process, over a typical order body, an investor body and a hostile body. Its raw
 * baseline is the same check written plainly (a recursive walk over Object.keys with a path stack, below),
 * which must find exactly the same details on every body before anything is timed. Both are timed the
 * same way in the same run: best of 7 rounds, after a warm-up round. Issue 15 sets no target for it.
 *   npx tsx bench/hostile-input.ts     (BENCH_ITERATIONS scales the rounds, default 1; --smoke for a tiny run)
 */
import { isDeepStrictEqual } from "node:util";
import { formatPath, UNKNOWN_FIELD, type ErrorDetail } from "../src/platform/lib/errors.js";
import { MAX_INPUT_DEPTH, NUL_MESSAGE, unsafeInputDetails } from "../src/platform/lib/hostile-input.js";
import { setting } from "./harness/options.js";
import { compare, printTable, type Row } from "./harness/table.js";

const SCALE = setting("BENCH_ITERATIONS", 1, 0.01);
const ROUNDS = 7;

const order = {
  investment_account_id: "iac_01JABCDEF0123456789ABCDEFG",
  order_type: "LUMPSUM_PURCHASE",
  scheme_code: "INF179K01BB8",
  amount: 5000,
  purchase_type: "FRESH",
};

const investor = {
  primary_holder: { pan: "ABCDE1234F", name: "Asha Rao", date_of_birth: "1988-04-12", gender: "F", occupation: "PRIVATE_SECTOR_SERVICE", kyc_type: "KRA" },
  tax_status: "INDIVIDUAL",
  holding_type: "SINGLE",
  contact: { email: "asha.rao@example.in", mobile: "9876543210", email_relation: "SELF", mobile_relation: "SELF" },
  address: { line1: "12 MG Road", city: "Pune", state_code: "MH", pincode: "411001", country_code: "IN" },
  fatca: { occupation_type: "SERVICE", income_slab: "34", pep: "NO", source_of_wealth: "SALARY", country_of_birth: "IN", place_of_birth: "Pune", tax_resident_other_country: false },
  bank_accounts: [{ account_type: "SB", account_number: "001234567890", ifsc: "HDFC0001234", is_primary: true }],
  nominees: [
    {
      name: "Ravi Rao", relationship: "SPOUSE", percentage: 100, date_of_birth: "1986-07-21",
      identity: { type: "PAN", number: "BCDPR2345K" },
      contact: { mobile: "9811122233", address: { line1: "12 MG Road", city: "Pune", state: "MH", pincode: "411001", country: "IN" } },
    },
  ],
};

/** An investor body with a NUL in a value and in a key, a `__proto__` key (as JSON.parse makes it) and 100 levels of nesting. */
function hostileBody(): unknown {
  let deep: unknown = "bottom";
  for (let i = 0; i < 100; i++) deep = { level: deep };
  return {
    ...investor,
    contact: { ...investor.contact, email: "asha\u0000@example.in" },
    address: JSON.parse(`{"line1":"12 MG Road","__proto__":{"polluted":true},"bad\\u0000key":"x"}`) as unknown,
    nominees: [{ name: "Ravi Rao", notes: deep }],
  };
}

const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const MAX_DETAILS = 20;

/** The baseline: the same rules and the same details, written the plain way (recursion, a shared path stack). */
function plainUnsafeInputDetails(input: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (typeof input === "string") {
    if (input.includes("\u0000")) details.push({ path: formatPath([]), message: NUL_MESSAGE, reason: "nul_character" });
  } else if (input !== null && typeof input === "object") {
    walk(input, 1, [], details);
  }
  return details;
}

function walk(container: object, level: number, path: PropertyKey[], details: ErrorDetail[]): void {
  const keys: PropertyKey[] = Array.isArray(container) ? container.map((_, i) => i) : Object.keys(container);
  for (const key of keys) {
    if (details.length >= MAX_DETAILS) return;
    if (typeof key === "string" && key.includes("\u0000")) {
      details.push({ path: formatPath([...path, key]), message: NUL_MESSAGE, reason: "nul_character" });
      continue;
    }
    if (typeof key === "string" && RESERVED_KEYS.has(key)) {
      details.push({ path: formatPath([...path, key]), message: UNKNOWN_FIELD, reason: "unknown_field" });
      continue;
    }
    const value: unknown = (container as Record<PropertyKey, unknown>)[key];
    if (typeof value === "string") {
      if (value.includes("\u0000")) details.push({ path: formatPath([...path, key]), message: NUL_MESSAGE, reason: "nul_character" });
    } else if (value !== null && typeof value === "object") {
      if (level >= MAX_INPUT_DEPTH) {
        details.push({ path: formatPath([...path, key]), message: `Nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`, reason: "too_deep" });
        continue;
      }
      path.push(key);
      walk(value, level + 1, path, details);
      path.pop();
    }
  }
}

type Check = (input: unknown) => ErrorDetail[];

function nsPerCheck(check: Check, input: unknown, iterations: number, expected: number): number {
  let found = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) found += check(input).length;
  const elapsed = Number(process.hrtime.bigint() - started);
  if (found !== expected * iterations) throw new Error(`expected ${expected} details per check`);
  return elapsed / iterations;
}

/** Best and median of the rounds, in ns per check, after a warm-up round of a tenth. */
function time(check: Check, input: unknown, iterations: number): { best: number; median: number } {
  const expected = check(input).length;
  nsPerCheck(check, input, Math.max(1, Math.round(iterations / 10)), expected);
  const rounds = Array.from({ length: ROUNDS }, () => nsPerCheck(check, input, iterations, expected)).sort((a, b) => a - b);
  return { best: rounds[0]!, median: rounds[Math.floor(ROUNDS / 2)]! };
}

const bodies: Array<[string, unknown, number]> = [
  ["order body", order, 1_000_000],
  ["investor body", investor, 200_000],
  ["hostile body (100 levels, NULs, __proto__)", hostileBody(), 200_000],
];

const rows: Row[] = [];
const notes: string[] = [];
for (const [name, input, iterations] of bodies) {
  const ours = unsafeInputDetails(input);
  const plain = plainUnsafeInputDetails(input);
  if (!isDeepStrictEqual(ours, plain)) throw new Error(`${name}: the baseline finds other details\n${JSON.stringify({ ours, plain }, null, 2)}`);
  const count = Math.max(1, Math.round(iterations * SCALE));
  const ourTime = time(unsafeInputDetails, input, count);
  const plainTime = time(plainUnsafeInputDetails, input, count);
  rows.push(compare(name, "checks/s", { rate: 1e9 / ourTime.best }, "the same check written plainly (recursive)", { rate: 1e9 / plainTime.best }));
  notes.push(`${name}: ${ours.length} details; ${ourTime.best.toFixed(0)} ns per check (median ${ourTime.median.toFixed(0)}), plain ${plainTime.best.toFixed(0)} ns (median ${plainTime.median.toFixed(0)})`);
}
printTable(`unsafeInputDetails (src/platform/lib/hostile-input.ts), a micro-benchmark in one process: best of ${ROUNDS} rounds each, ${bodies.map(([name, , n]) => `${Math.max(1, Math.round(n * SCALE)).toLocaleString("en")} checks per round for the ${name.split(" (")[0]}`).join(", ")}`, rows);
for (const note of notes) console.log(note);
