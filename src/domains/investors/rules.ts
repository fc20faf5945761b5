import { AppError, type DetailReason } from "../../platform/lib/errors.js";
import { ageOn } from "../../platform/lib/formats.js";
import { normaliseIndianStateCode } from "../masters/geography.js";
import { nomineeIssues, type NomineeApplication } from "./nominee-rules.js";

/**
 * The investor's rules beyond the shape of a request (investors.schemas.ts checks the shape and calls
 * investorIssues): those of master-codes.md that involve more than one field, and one PAN per distributor.
 */

/** A violated rule: the field's path, a closed reason code, and a sentence. */
export interface RuleIssue {
  path: Array<string | number>;
  reason: DetailReason;
  message: string;
}

/** What the rules read of a creation request whose shape is checked (CreateInvestorRequest). */
export interface InvestorApplication {
  tax_status: string;
  holding_type: string;
  primary_holder: { pan: string; date_of_birth: string; kyc_type: string; ckyc_number?: string | undefined };
  joint_holders?: Array<{ pan: string; date_of_birth: string }> | undefined;
  guardian?: { pan: string } | undefined;
  contact: { mobile: string };
  address: { state_code: string; pincode: string; country_code: string };
  bank_accounts: Array<{ account_type: string; account_number: string; ifsc: string; is_primary: boolean }>;
  nominees?: NomineeApplication[] | undefined;
  demat?: { mode: string; dp_id?: string | undefined; client_id?: string | undefined } | undefined;
}

/** Every cross-field rule the request breaks, in the order of its fields. */
export function investorIssues(investor: InvestorApplication): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const add = (path: RuleIssue["path"], reason: DetailReason, message: string) => issues.push({ path, reason, message });
  const minor = investor.tax_status === "MINOR";
  const nri = investor.tax_status === "NRI";

  investor.bank_accounts.forEach((account, i) => {
    const allowed = nri ? ["NE", "NO"] : ["SB", "CB"];
    if (!allowed.includes(account.account_type)) {
      add(["bank_accounts", i, "account_type"], "invalid_value", `must be ${allowed.join(" or ")} for tax status ${investor.tax_status}`);
    }
  });
  if (investor.bank_accounts.filter((a) => a.is_primary).length !== 1) {
    add(["bank_accounts"], "rule_violated", "exactly one bank account must be primary");
  }
  const accountKeys = investor.bank_accounts.map((a) => `${a.ifsc}:${a.account_number}`);
  accountKeys.forEach((key, i) => {
    if (accountKeys.indexOf(key) !== i) add(["bank_accounts", i, "account_number"], "duplicate", "is listed twice");
  });

  const age = ageOn(investor.primary_holder.date_of_birth);
  if (minor) {
    if (!investor.guardian) add(["guardian"], "required", "is required for tax status MINOR");
    if (age >= 18) add(["primary_holder", "date_of_birth"], "age_not_allowed", "a minor must be under 18");
  } else {
    if (investor.guardian) add(["guardian"], "field_not_allowed", "is only for tax status MINOR");
    if (age < 18) add(["primary_holder", "date_of_birth"], "age_not_allowed", "the holder must be 18 or older (use tax status MINOR)");
  }

  const { kyc_type: kycType, ckyc_number: ckycNumber } = investor.primary_holder;
  if (kycType === "CKYC" && !ckycNumber) add(["primary_holder", "ckyc_number"], "required", "is required when kyc_type is CKYC");
  if (kycType !== "CKYC" && ckycNumber) add(["primary_holder", "ckyc_number"], "field_not_allowed", "is only for kyc_type CKYC");

  const joint = investor.joint_holders ?? [];
  if (investor.holding_type === "SINGLE" && joint.length > 0) {
    add(["joint_holders"], "field_not_allowed", "must be empty for holding type SINGLE");
  }
  if (investor.holding_type !== "SINGLE" && joint.length === 0) {
    add(["joint_holders"], "too_small", `holding type ${investor.holding_type} needs 2 or 3 holders`);
  }
  const pans = [investor.primary_holder.pan, ...joint.map((h) => h.pan)];
  joint.forEach((holder, i) => {
    if (pans.indexOf(holder.pan) !== i + 1) add(["joint_holders", i, "pan"], "duplicate", "is already used by another holder");
    if (ageOn(holder.date_of_birth) < 18) add(["joint_holders", i, "date_of_birth"], "age_not_allowed", "a joint holder must be 18 or older");
  });
  if (investor.guardian && investor.guardian.pan === investor.primary_holder.pan) {
    add(["guardian", "pan"], "duplicate", "must differ from the holder's PAN");
  }

  issues.push(...nomineeIssues(investor.nominees ?? []));

  const demat = investor.demat;
  if (demat?.mode === "PHYSICAL" && (demat.dp_id || demat.client_id)) {
    add(["demat"], "field_not_allowed", "PHYSICAL takes no depository details");
  }
  if (demat?.mode === "CDSL") {
    if (!demat.client_id || !/^\d{16}$/.test(demat.client_id)) add(["demat", "client_id"], "invalid_format", "CDSL needs a 16-digit client id");
    if (demat.dp_id) add(["demat", "dp_id"], "field_not_allowed", "CDSL takes the 16-digit client id only");
  }
  if (demat?.mode === "NSDL") {
    if (!demat.dp_id || !/^IN[A-Z0-9]{6}$/.test(demat.dp_id)) add(["demat", "dp_id"], "invalid_format", "NSDL needs a DP id: IN followed by 6 characters");
    if (!demat.client_id || !/^\d{8}$/.test(demat.client_id)) add(["demat", "client_id"], "invalid_format", "NSDL needs an 8-digit client id");
  }

  const { address } = investor;
  if (address.country_code === "IN") {
    if (!normaliseIndianStateCode(address.state_code)) add(["address", "state_code"], "invalid_value", "must be an Indian state or union territory code (ISO 3166-2:IN)");
    if (!/^[1-9]\d{5}$/.test(address.pincode)) add(["address", "pincode"], "invalid_format", "must be a 6-digit Indian PIN code");
  } else if (!/^[A-Za-z0-9 -]{3,10}$/.test(address.pincode)) {
    add(["address", "pincode"], "invalid_format", "must be a postal code of 3-10 letters, digits, spaces or hyphens");
  }
  if (!nri && investor.contact.mobile.startsWith("+") && !investor.contact.mobile.startsWith("+91")) {
    add(["contact", "mobile"], "invalid_value", "a resident's mobile must be an Indian number");
  }
  return issues;
}

/** One PAN per distributor: the 409 naming the investor that holds it already. */
export function duplicatePan(existingId: string): AppError {
  return new AppError("CONFLICT", `An investor with this PAN already exists: ${existingId}; use that investor`, {
    details: [{ path: "primary_holder.pan", message: `already registered as ${existingId}`, reason: "pan_already_registered" }],
  });
}
