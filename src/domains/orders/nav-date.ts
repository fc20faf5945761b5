import { INDIA_OFFSET_MS, todayInIndia } from "../../platform/lib/india-date.js";
import { addDays } from "../portfolio/calendar.js";

/**
 * NAV applicability (SEBI, in force since 1 February 2021; exchange-masters.md "NAV applicability"): which
 * day's NAV an order gets, from the moment that counts (a purchase: its funds captured; a redemption,
 * switch-out or SWP: its acceptance by the exchange), the scheme's cut-off and the exchange's business days.
 *
 * "Before the cut-off" is strict: an order at exactly 15:00:00.000 India time is after a 15:00 cut-off.
 */

export type NavDateKind = "purchase" | "redemption";

/** The cut-offs when the exchange's scheme master gives none (India time). */
export const DEFAULT_CUT_OFFS = { purchase: "15:00", liquidPurchase: "13:30", redemption: "15:00" } as const;

export interface NavDateInput {
  kind: NavDateKind;
  /** A liquid or overnight scheme: its purchases take the previous calendar day's NAV. */
  liquid: boolean;
  /** "HH:MM" India time from the scheme master; null: the default for the kind. */
  cutOff: string | null;
  at: Date;
  isBusinessDay(date: string): boolean;
}

const CUT_OFF = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 86_400_000;
/** Longer than any run of closed days; a calendar with none open this long is broken, not a holiday season. */
const MAX_CLOSED_DAYS = 31;

/** A well-formed "HH:MM" cut-off (00:00 to 23:59). */
export function isCutOff(value: string): boolean {
  return CUT_OFF.test(value);
}

/** The NAV date (YYYY-MM-DD) an order gets. */
export function expectedNavDate(input: NavDateInput): string {
  const cutOff = input.cutOff ?? defaultCutOff(input.kind, input.liquid);
  const match = CUT_OFF.exec(cutOff);
  if (!match) throw new Error(`Cut-off ${JSON.stringify(cutOff)} is not HH:MM`);
  const cutOffMs = (Number(match[1]) * 60 + Number(match[2])) * 60_000;
  const day = todayInIndia(input.at);
  const msIntoDay = (input.at.getTime() + INDIA_OFFSET_MS) % DAY_MS;
  const inTime = input.isBusinessDay(day) && msIntoDay < cutOffMs;
  const navDay = inTime ? day : nextBusinessDay(day, input.isBusinessDay);
  return input.kind === "purchase" && input.liquid ? addDays(navDay, -1) : navDay;
}

function defaultCutOff(kind: NavDateKind, liquid: boolean): string {
  if (kind === "redemption") return DEFAULT_CUT_OFFS.redemption;
  return liquid ? DEFAULT_CUT_OFFS.liquidPurchase : DEFAULT_CUT_OFFS.purchase;
}

/** The first business day after `day`. */
export function nextBusinessDay(day: string, isBusinessDay: (date: string) => boolean): string {
  for (let next = addDays(day, 1), n = 0; n < MAX_CLOSED_DAYS; next = addDays(next, 1), n++) {
    if (isBusinessDay(next)) return next;
  }
  throw new Error(`No business day within ${MAX_CLOSED_DAYS} days after ${day}`);
}

