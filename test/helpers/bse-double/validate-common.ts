/**
 * Field checks the exchange's double applies, written from bse-starmf-services.md (not from the
 * adapter's builders). The document names few field-level failure texts; where it names none the double
 * answers `FAILED: <FIELD> IS MANDATORY` / `FAILED: INVALID <FIELD>` (the exchange's style).
 */
export const mandatory = (name: string) => `FAILED: ${name.toUpperCase()} IS MANDATORY`;
export const invalid = (name: string) => `FAILED: INVALID ${name.toUpperCase()}`;

export const DATE = /^(0[1-9]|[12]\d|3[01])\/(0[1-9]|1[0-2])\/\d{4}$/;
export const PAN = /^[A-Z]{5}\d{4}[A-Z]$/;
export const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const PINCODE = /^[1-9]\d{5}$/;
export const MOBILE = /^[6-9]\d{9}$/;
export const EMAIL = /^[^@\s|]+@[^@\s|]+\.[^@\s|]+$/;
export const DECIMAL = /^\d+(\.\d+)?$/;

/** A real calendar date in DD/MM/YYYY. */
export function isBseDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const [d, m, y] = value.split("/").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export interface FieldRule {
  name: string;
  max?: number;
  mandatory?: boolean;
  codes?: readonly string[];
  pattern?: RegExp;
  date?: boolean;
}

/** The first broken rule of one field, or null. */
export function checkField(rule: FieldRule, value: string): string | null {
  if (value === "") return rule.mandatory ? mandatory(rule.name) : null;
  if (rule.max !== undefined && value.length > rule.max) return `FAILED: ${rule.name.toUpperCase()} EXCEEDS ${rule.max} CHARACTERS`;
  if (rule.codes && !rule.codes.includes(value)) return invalid(rule.name);
  if (rule.pattern && !rule.pattern.test(value)) return invalid(rule.name);
  if (rule.date && !isBseDate(value)) return invalid(rule.name);
  return null;
}
