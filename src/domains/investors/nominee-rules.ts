import type { DetailReason } from "../../platform/lib/errors.js";
import { ageOn, exactDecimal } from "../../platform/lib/formats.js";
import { Decimal } from "../../platform/lib/money.js";
import { MAX_NOMINEES } from "../../integrations/exchange/port.js";

/** A violated rule, as rules.ts reports them: the field's path, a closed reason code, a sentence. */
interface RuleIssue {
  path: Array<string | number>;
  reason: DetailReason;
  message: string;
}

/** What the nominee rules read of a nominee whose shape is checked (stored ones may predate identities). */
export interface NomineeApplication {
  percentage: number;
  date_of_birth?: string | undefined;
  contact?: { email?: string | undefined; mobile?: string | undefined; address: { pincode: string; country: string } } | undefined;
  guardian?: { name: string } | undefined;
  guardian_name?: string | undefined;
}

/** A nominee under 18 on today's date in India. */
export function isMinorNominee(nominee: { date_of_birth?: string | undefined }): boolean {
  return nominee.date_of_birth !== undefined && ageOn(nominee.date_of_birth) < 18;
}

/**
 * The nominees' rules across fields: at most MAX_NOMINEES, shares adding up to exactly 100 (each rounded to
 * 2 decimals), email or mobile for each, and a guardian for a minor only.
 */
export function nomineeIssues(nominees: NomineeApplication[]): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const add = (path: RuleIssue["path"], reason: RuleIssue["reason"], message: string) => issues.push({ path, reason, message });
  if (nominees.length > MAX_NOMINEES) add(["nominees"], "too_big", `at most ${MAX_NOMINEES} nominees (the exchange's number)`);
  if (nominees.length > 0) {
    const total = nominees.reduce((sum, n) => sum.plus(exactDecimal(n.percentage).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)), new Decimal(0));
    if (!total.equals(100)) add(["nominees"], "rule_violated", `percentages must add up to 100 (they add up to ${total.toString()})`);
  }
  nominees.forEach((nominee, i) => {
    // A stored nominee from before the 2025 framework has no contact at all: it is read, never re-checked here.
    if (nominee.contact && !nominee.contact.email && !nominee.contact.mobile) {
      add(["nominees", i, "contact"], "required", "needs at least one of email and mobile");
    }
    const address = nominee.contact?.address;
    if (address?.country === "IN" && !/^[1-9]\d{5}$/.test(address.pincode)) {
      add(["nominees", i, "contact", "address", "pincode"], "invalid_format", "must be a 6-digit Indian PIN code");
    } else if (address && address.country !== "IN" && !/^[A-Za-z0-9 -]{3,10}$/.test(address.pincode)) {
      add(["nominees", i, "contact", "address", "pincode"], "invalid_format", "must be a postal code of 3-10 letters, digits, spaces or hyphens");
    }
    const hasGuardian = nominee.guardian !== undefined || nominee.guardian_name !== undefined;
    if (isMinorNominee(nominee) && !hasGuardian) add(["nominees", i, "guardian"], "required", "is required for a nominee under 18");
    if (!isMinorNominee(nominee) && nominee.guardian) add(["nominees", i, "guardian"], "field_not_allowed", "is only for a nominee under 18");
  });
  return issues;
}
