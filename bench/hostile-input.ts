/**
 * Micro-benchmark of the input check every procedure runs (src/lib/hostile-input.ts), over a
 * typical order body and an investor body: `npx tsx bench/hostile-input.ts`. Prints the best of
 * several rounds, in nanoseconds per check.
 */
import { unsafeInputDetails } from "../src/lib/hostile-input.js";

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
  nominees: [{ name: "Ravi Rao", relationship: "SPOUSE", percentage: 100 }],
};

function nsPerCheck(input: unknown, iterations: number): number {
  let found = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) found += unsafeInputDetails(input).length;
  const elapsed = Number(process.hrtime.bigint() - started);
  if (found !== 0) throw new Error("the bodies are clean");
  return elapsed / iterations;
}

for (const [name, input, iterations] of [["order body", order, 1_000_000], ["investor body", investor, 200_000]] as const) {
  nsPerCheck(input, iterations / 10);
  const rounds = Array.from({ length: 7 }, () => nsPerCheck(input, iterations));
  console.log(`${name}: ${Math.min(...rounds).toFixed(0)} ns per check (best of ${rounds.length}; median ${rounds.sort((a, b) => a - b)[3]!.toFixed(0)})`);
}
