/**
 * Which order each number is: standalone orders (lump sums, redemptions, switches, top-ups), SIP-type
 * registrations and their installments' child orders, with the counts of each fixed by the scale.
 */
import { idAt, unit } from "./ids.js";
import { DAY_MS, OPEN_WORK, distributorIndex, investorBlocks, investorOf, openCount, pick, timeOf, type Scale } from "./shapes.js";

export const INSTALLMENTS = 24;
const MONTH_MS = 30 * DAY_MS;

export const STANDALONE_TYPES = [["LUMPSUM_PURCHASE", 55], ["REDEMPTION", 28], ["SWITCH", 12], ["SIP_TOPUP", 5]] as const;
const REGISTRATION_TYPES = [["SIP", 60], ["XSIP", 30], ["STP", 5], ["SWP", 5]] as const;
const SETTLED = [["ALLOTTED", 90], ["REJECTED", 4], ["FAILED", 3], ["CANCELLED", 3]] as const;
const REGISTRATION_STATUSES = [["ACCEPTED", 85], ["CANCELLED", 12], ["REJECTED", 3]] as const;

/** The first rows take each type in turn, so even a tiny scale has every type; then by the shares. */
function firstOrPick<T>(n: number, u: number, table: ReadonlyArray<readonly [T, number]>): T {
  return n < table.length ? table[n]![0] : pick(u, table);
}

export interface Registration {
  r: number;
  id: string;
  type: string;
  status: string;
  distributor: number;
  investor: number;
  at: number;
  /** Child orders made so far (installments due before yesterday, the registration live then). */
  children: number;
}

export interface OrderPlan {
  registrations: number;
  children: number;
  standalone: number;
  pending: number;
  accepted: number;
}

/** Order numbers: standalone 0..S-1, registrations from S, their children after all registrations. */
export function registrationAt(r: number, plan: OrderPlan, scale: Scale, now: number): Registration {
  const at = timeOf(r, plan.registrations, now);
  const status = pick(unit(r, 21), REGISTRATION_STATUSES);
  const distributor = distributorIndex(r, 22);
  const investor = investorOf(r, 23, investorBlocks(scale.investors)[distributor]!);
  const due = Math.max(0, Math.floor((now - DAY_MS - at) / MONTH_MS));
  const children = status === "REJECTED" ? 0 : Math.min(INSTALLMENTS, status === "CANCELLED" ? Math.floor(due / 2) : due);
  return { r, id: idAt("ord", at, plan.standalone + r), type: firstOrPick(r, unit(r, 24), REGISTRATION_TYPES), status, distributor, investor, at, children };
}

export const dueOf = (registration: Registration, k: number) => registration.at + (k + 1) * MONTH_MS;

export function planOrders(scale: Scale, now: number): OrderPlan {
  let registrations = Math.max(4, Math.round(scale.orders * 0.022));
  for (;;) {
    const draft = { registrations, children: 0, standalone: 0, pending: 0, accepted: 0 };
    let children = 0;
    for (let r = 0; r < registrations; r++) children += registrationAt(r, draft, scale, now).children;
    const standalone = scale.orders - registrations - children;
    if (standalone >= Math.min(scale.orders, 10)) {
      return {
        registrations, children, standalone,
        pending: openCount(Math.round(scale.orders * 0.0003), OPEN_WORK.pendingOrders, standalone),
        accepted: openCount(Math.round(scale.orders * 0.0004), OPEN_WORK.acceptedOrders, standalone),
      };
    }
    registrations = Math.floor(registrations * 0.7);
  }
}

export interface Standalone {
  id: string;
  type: string;
  status: string;
  distributor: number;
  investor: number;
  at: number;
}

/** The most recent standalone orders are the open ones: PENDING last, ACCEPTED before them. */
export function standaloneAt(s: number, plan: OrderPlan, scale: Scale, now: number): Standalone {
  const at = timeOf(s, plan.standalone, now);
  const fromEnd = plan.standalone - s;
  const status = fromEnd <= plan.pending ? "PENDING" : fromEnd <= plan.pending + plan.accepted ? "ACCEPTED" : pick(unit(s, 31), SETTLED);
  const distributor = distributorIndex(s, 32);
  const investor = investorOf(s, 33, investorBlocks(scale.investors)[distributor]!);
  return { id: idAt("ord", at, s), type: firstOrPick(s, unit(s, 34), STANDALONE_TYPES), status, distributor, investor, at };
}

/** A child order's status: allotted mostly; the last days' still at the exchange. */
export function childStatus(registration: Registration, k: number, now: number): string {
  if (now - dueOf(registration, k) < 5 * DAY_MS) return "ACCEPTED";
  return pick(unit(registration.r * INSTALLMENTS + k, 41), [["ALLOTTED", 95], ["FAILED", 3], ["REJECTED", 2]] as const);
}
