/** Small formatting rules shared by the exchange's request builders. */
import { BseMappingError } from "./codes.js";

/** The months as the exchange's texts abbreviate them (`07 JUL 2017`, `Jan 20 2018 4:12PM`, `23-Nov-15`), upper case. */
export const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] as const;

/** ISO `YYYY-MM-DD` -> the exchange's `DD/MM/YYYY`. */
export function bseDate(field: string, iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) throw new BseMappingError(field, iso, "is not a YYYY-MM-DD date");
  return `${match[3]}/${match[2]}/${match[1]}`;
}

/** The value, refused (not cut) when longer than the exchange's field. */
export function fit(field: string, value: string, max: number): string {
  if (value.length > max) throw new BseMappingError(field, value.length > 20 ? `${value.slice(0, 20)}...` : value, `is longer than the exchange's ${max} characters`);
  return value;
}

/** A pipe-separated field must not hold the separator (or a line break, which ends the record). */
export function pipeSafe(field: string, value: string): string {
  if (/[|\r\n]/.test(value)) throw new BseMappingError(field, value, "contains a pipe or a line break");
  return value;
}

/** A person's name as first, middle and last: the first word, the words between, the last word. */
export function splitName(name: string): [string, string, string] {
  const words = name.trim().split(/\s+/);
  if (words.length <= 1) return [words[0]!, "", ""];
  return [words[0]!, words.slice(1, -1).join(" "), words[words.length - 1]!];
}

/** Address text wrapped at word boundaries into `lines` lines of at most `width` characters. */
export function wrapAddress(field: string, text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let current = "";
  // Split on every blank: the empty words between two blanks add nothing (the loop below skips them).
  for (const word of text.split(/\s/)) {
    for (let rest = word; rest.length > 0; ) {
      const room = current ? width - current.length - 1 : width;
      if (rest.length <= room) {
        current = current ? `${current} ${rest}` : rest;
        rest = "";
      } else if (!current) {
        out.push(rest.slice(0, width));
        rest = rest.slice(width);
      } else {
        out.push(current);
        current = "";
      }
    }
  }
  out.push(current);
  if (out.length > lines) throw new BseMappingError(field, text.slice(0, 20) + "...", `does not fit the exchange's ${lines} lines of ${width} characters`);
  while (out.length < lines) out.push("");
  return out;
}

/** A decimal string with trailing zeros dropped (`50.00` -> `50`, `33.30` -> `33.3`). */
export function plainDecimal(value: string | number): string {
  const text = typeof value === "number" ? value.toFixed(2) : value;
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}
