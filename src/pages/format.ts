import type { OrderType } from "../domains/orders/order-types.js";
import type { PaymentFailureCode } from "../integrations/exchange/outcomes.js";

const rupeeFormat = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
const unitFormat = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 3 });
const indiaTime = new Intl.DateTimeFormat("en-IN", { timeZone: "Asia/Kolkata", day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit" });
const indiaDay = new Intl.DateTimeFormat("en-IN", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric" });

/** `₹2,500.50` */
export const rupees = (amount: number) => rupeeFormat.format(amount);
export const units = (count: number) => `${unitFormat.format(count)} units`;
/** An instant as India reads it: `24 Nov 2026, 3:30 pm IST`. */
export const indiaDateTime = (iso: string) => `${indiaTime.format(new Date(iso))} IST`;
/** A calendar date (YYYY-MM-DD): `1 Dec 2026`. */
export const calendarDate = (date: string) => indiaDay.format(new Date(`${date}T00:00:00Z`));

export const ORDER_TYPE_LABELS: Record<OrderType, string> = {
  LUMPSUM_PURCHASE: "One-time purchase",
  REDEMPTION: "Redemption",
  SWITCH: "Switch",
  SIP: "SIP (systematic investment plan)",
  XSIP: "SIP by mandate (XSIP)",
  STP: "Systematic transfer plan (STP)",
  SWP: "Systematic withdrawal plan (SWP)",
  SIP_TOPUP: "SIP top-up",
};

/** A failed payment's reason, as the investor reads it. */
export const PAYMENT_FAILURE_REASONS: Record<PaymentFailureCode, string> = {
  payment_expired: "The payment was not completed in time.",
  invalid_vpa: "The UPI ID was not recognised.",
  bank_declined: "Your bank declined the payment.",
  user_cancelled: "The payment was cancelled.",
  insufficient_funds: "The account did not have enough money.",
  tpv_failed: "The money did not come from a bank account registered for you; pay from one of your registered accounts.",
};
