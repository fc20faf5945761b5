import { randomInt } from "node:crypto";

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const letter = () => LETTERS[randomInt(26)]!;

/** A random, well-formed individual PAN (fourth character P, digits not 0000). */
export function randomPan(): string {
  const digits = String(randomInt(1, 10_000)).padStart(4, "0");
  return `${letter()}${letter()}${letter()}P${letter()}${digits}${letter()}`;
}

export function yearsAgo(years: number): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  return date.toISOString().slice(0, 10);
}

/** A valid nominee as SEBI's 2025 framework wants it: an adult with a PAN, a mobile and an address; overrides replace fields. */
export function nomineeBody(overrides: Record<string, unknown> = {}) {
  return {
    name: "Ravi Rao",
    relationship: "SPOUSE",
    percentage: 100,
    date_of_birth: "1986-07-21",
    identity: { type: "PAN", number: "BCDPR2345K" },
    contact: { mobile: "9811122233", address: { line1: "12 MG Road", city: "Pune", state: "MH", pincode: "411001", country: "IN" } },
    ...overrides,
  };
}

/** A valid POST /api/investors/v1 body: a resident individual, single holding, physical mode. */
export function investorBody(overrides: Record<string, unknown> = {}) {
  return {
    primary_holder: {
      pan: randomPan(),
      name: "Asha Rao",
      date_of_birth: "1988-04-12",
      gender: "F",
      occupation: "PRIVATE_SECTOR_SERVICE",
      kyc_type: "KRA",
    },
    tax_status: "INDIVIDUAL",
    holding_type: "SINGLE",
    contact: { email: "asha.rao@example.in", mobile: "9876543210", email_relation: "SELF", mobile_relation: "SELF" },
    address: { line1: "12 MG Road", city: "Pune", state_code: "MH", pincode: "411001", country_code: "IN" },
    fatca: {
      occupation_type: "SERVICE",
      income_slab: "34",
      pep: "NO",
      source_of_wealth: "SALARY",
      country_of_birth: "IN",
      place_of_birth: "Pune",
      tax_resident_other_country: false,
    },
    bank_accounts: [{ account_type: "SB", account_number: "001234567890", ifsc: "HDFC0001234", is_primary: true }],
    nominees: [nomineeBody()],
    ...overrides,
  };
}
