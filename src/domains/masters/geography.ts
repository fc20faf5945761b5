import { createRequire } from "node:module";

// i18n-iso-countries ships its locale data as JSON; load the English names once.
const require = createRequire(import.meta.url);
const countries = require("i18n-iso-countries") as {
  getNames(lang: string, options?: { select: "official" | "alias" | "all" }): Record<string, string>;
};

export interface Country {
  code: string;
  name: string;
}
export interface Subdivision {
  code: string;
  name: string;
}

const COUNTRIES: Country[] = Object.entries(countries.getNames("en", { select: "official" }))
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));

const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

/**
 * India's 28 states and 8 union territories with their ISO 3166-2:IN codes (as revised in 2023:
 * CG, OD, TG and UK replaced CT, OR, TS and UT).
 */
const INDIAN_STATES: Subdivision[] = [
  ["AN", "Andaman and Nicobar Islands"], ["AP", "Andhra Pradesh"], ["AR", "Arunachal Pradesh"],
  ["AS", "Assam"], ["BR", "Bihar"], ["CH", "Chandigarh"], ["CG", "Chhattisgarh"],
  ["DH", "Dadra and Nagar Haveli and Daman and Diu"], ["DL", "Delhi"], ["GA", "Goa"], ["GJ", "Gujarat"],
  ["HR", "Haryana"], ["HP", "Himachal Pradesh"], ["JK", "Jammu and Kashmir"], ["JH", "Jharkhand"],
  ["KA", "Karnataka"], ["KL", "Kerala"], ["LA", "Ladakh"], ["LD", "Lakshadweep"], ["MP", "Madhya Pradesh"],
  ["MH", "Maharashtra"], ["MN", "Manipur"], ["ML", "Meghalaya"], ["MZ", "Mizoram"], ["NL", "Nagaland"],
  ["OD", "Odisha"], ["PY", "Puducherry"], ["PB", "Punjab"], ["RJ", "Rajasthan"], ["SK", "Sikkim"],
  ["TN", "Tamil Nadu"], ["TG", "Telangana"], ["TR", "Tripura"], ["UP", "Uttar Pradesh"],
  ["UK", "Uttarakhand"], ["WB", "West Bengal"],
].map(([code, name]) => ({ code: code!, name: name! }));

/** Codes retired by the 2023 revision, still seen in older data. */
const INDIAN_STATE_ALIASES: Record<string, string> = { CT: "CG", OR: "OD", TS: "TG", UT: "UK" };

export function listCountries(): Country[] {
  return COUNTRIES;
}

export function findCountry(code: string): Country | undefined {
  return COUNTRY_BY_CODE.get(code.toUpperCase());
}

/**
 * States of a country. Only India's are held (the exchange needs no other); for any other
 * country the list is empty.
 */
export function listStates(countryCode: string): Subdivision[] {
  return countryCode.toUpperCase() === "IN" ? INDIAN_STATES : [];
}

/** The current ISO 3166-2:IN code for a state code (retired codes map to their successors). */
export function normaliseIndianStateCode(code: string): string | undefined {
  const upper = code.toUpperCase();
  const current = INDIAN_STATE_ALIASES[upper] ?? upper;
  return INDIAN_STATES.some((s) => s.code === current) ? current : undefined;
}
