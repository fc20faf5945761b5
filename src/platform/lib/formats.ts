import { z } from "zod";
import { Decimal } from "./money.js";
import { todayInIndia } from "./india-date.js";

/** Field formats shared by the domains (master-codes.md, Formats). */

export const PAN_PATTERN = /^[A-Z]{5}(?!0000)[0-9]{4}[A-Z]$/;

export const Pan = z
  .string()
  .trim()
  .toUpperCase()
  .regex(PAN_PATTERN, "must be a PAN: 5 letters, 4 digits (not 0000), 1 letter")
  .describe("PAN (10 characters). Accepted in request bodies only; always masked in responses.");

/** An individual's PAN has P as its fourth character. */
export const IndividualPan = Pan.refine((pan) => pan[3] === "P", { message: "must be an individual's PAN (fourth character P)", params: { reason: "not_individual_pan" } });

export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    // Year 0000 exists for JavaScript, not for PostgreSQL.
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && !value.startsWith("0000");
  }, { message: "must be a real calendar date", params: { reason: "invalid_date" } });

export const PastDate = IsoDate.refine((value) => value <= todayInIndia(), { message: "must not be in the future", params: { reason: "date_in_future" } });

/** A date that is today (in India) or later. */
export const TodayOrLater = IsoDate.refine((value) => value >= todayInIndia(), { message: "must be today or later", params: { reason: "date_in_past" } });

export const Ifsc = z.string().trim().toUpperCase().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, "must be an IFSC: 4 letters, 0, 6 letters or digits");

export const PersonName = z
  .string()
  .trim()
  .min(1)
  .max(70)
  .regex(/^[A-Za-z][A-Za-z .'-]*$/, "may contain letters, spaces, '.', apostrophes and hyphens");

export const ClientRef = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._:-]+$/, "1-64 letters, digits, '.', '_', ':' or '-'")
  .describe("Your own reference, echoed in responses.");

/** Whole years between a date of birth and today (in India). */
export function ageOn(dateOfBirth: string, today = todayInIndia()): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/**
 * The exact decimal a JSON number stands for: its shortest round-trip text (a client's 100.1 is "100.1", never
 * 100.09999...). Money and units are never computed on the double itself (no `* 100`): this is the one way in.
 */
export function exactDecimal(value: number): Decimal {
  return new Decimal(String(value));
}

/** A refinement of a JSON number: at most `places` decimals, judged on its exact decimal. */
export const atMostDecimals = (places: number) => (value: number) => exactDecimal(value).decimalPlaces() <= places;

/** Rupees as a JSON number with at most 2 decimals (kept exact as a Decimal string). */
export const Rupees = (max: number) =>
  z
    .number()
    .positive()
    .max(max)
    .refine(atMostDecimals(2), { message: "at most 2 decimals", params: { reason: "too_many_decimals" } });

/** The exact decimal string of a validated rupee amount. */
export function rupeesToDecimal(value: number): string {
  return exactDecimal(value).toFixed(2);
}

/** A Decimal column as a JSON number (money 2, NAV 4, units 3 decimals are exact in a double's shortest form). */
export function decimalOrNull(value: { toNumber(): number } | null): number | null {
  return value === null ? null : value.toNumber();
}
