import { narrowTo } from "../../platform/lib/closed-set.js";
import { maskAccountNumber, maskEmail, maskMobile, maskPan } from "../../platform/lib/mask.js";
import { NOMINATION_STATUSES, nominationStatusOf } from "./consent.states.js";
import type { InvestorChangeRow } from "./changes.repo.js";
import type { InvestorRow } from "./investors.repo.js";
import type { InvestorDetails } from "./investors.schemas.js";
import { toNomineeView } from "./nominee-view.js";

export type InvestorView = ReturnType<typeof toInvestorView>;
export type InvestorSummary = ReturnType<typeof toInvestorSummary>;

/**
 * The investor as its resource shows it: every personal detail masked, with its accounts and its latest
 * change (names of fields only: the new values stay encrypted until the exchange applies them).
 */
export function toInvestorView(row: InvestorRow, details: InvestorDetails, change: InvestorChangeRow | null = null) {
  const holder = details.primary_holder;
  return {
    id: row.id,
    status: row.status,
    client_ref: row.clientRef,
    ucc_code: row.uccCode,
    provider_remark: row.providerRemark,
    pan: maskPan(holder.pan),
    name: holder.name,
    tax_status: row.taxStatus,
    holding_type: row.holdingType,
    primary_holder: {
      pan: maskPan(holder.pan),
      name: holder.name,
      date_of_birth: holder.date_of_birth,
      gender: holder.gender,
      occupation: holder.occupation,
      kyc_type: holder.kyc_type,
      ckyc_number: holder.ckyc_number ? maskAccountNumber(holder.ckyc_number) : null,
    },
    joint_holders: details.joint_holders.map((h) => ({ pan: maskPan(h.pan), name: h.name, date_of_birth: h.date_of_birth, kyc_type: h.kyc_type })),
    guardian: details.guardian ? { name: details.guardian.name, pan: maskPan(details.guardian.pan), relationship: details.guardian.relationship } : null,
    contact: {
      email: maskEmail(details.contact.email),
      mobile: maskMobile(details.contact.mobile),
      email_relation: details.contact.email_relation,
      mobile_relation: details.contact.mobile_relation,
    },
    address: { ...details.address, line2: details.address.line2 ?? null },
    fatca: details.fatca,
    nominees: details.nominees.map(toNomineeView),
    demat: {
      mode: details.demat.mode,
      dp_id: details.demat.dp_id ?? null,
      client_id: details.demat.client_id ? maskAccountNumber(details.demat.client_id) : null,
    },
    investment_account_id: row.investmentAccounts[0]!.id,
    investment_accounts: row.investmentAccounts.map((a) => ({
      id: a.id,
      holding_mode: a.holdingMode,
      created_at: a.createdAt.toISOString(),
    })),
    bank_accounts: row.bankAccounts.map((a) => ({
      id: a.id,
      account_type: a.accountType,
      account_number: maskAccountNumber(`XXXXXXXX${a.accountNumberLast4}`),
      ifsc: a.ifsc,
      is_primary: a.isPrimary,
    })),
    pending_change: change && {
      id: change.id,
      requested_at: change.requestedAt.toISOString(),
      status: change.status,
      fields: change.fields,
      provider_remark: change.providerRemark,
    },
    nomination: nominationOf(row, nominationStatusOf(row.nominationStatus, details.nominees.length)),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** NOMINATED, OPTED_OUT (with the consent link's evidence) or NONE, as placement reads it. */
function nominationOf(row: InvestorRow, status: string) {
  const consent = status === "OPTED_OUT" ? row.nominationConsent : null;
  return {
    status: narrowTo(NOMINATION_STATUSES, status, "investors.nomination_status"),
    opted_out_at: status === "OPTED_OUT" ? (row.nominationOptedOutAt?.toISOString() ?? null) : null,
    // The address is kept and shown whole: it is the evidence, and not among the personal data masked.
    evidence:
      consent?.confirmedAt && consent.confirmIp && consent.declarationVersion
        ? {
            confirmed_at: consent.confirmedAt.toISOString(),
            ip: consent.confirmIp,
            user_agent: consent.confirmUserAgent,
            declaration_version: consent.declarationVersion,
          }
        : null,
  };
}

/** The investor as a list shows it. */
export function toInvestorSummary(row: InvestorRow, details: InvestorDetails) {
  const view = toInvestorView(row, details);
  return {
    id: view.id,
    status: view.status,
    client_ref: view.client_ref,
    pan: view.pan,
    name: view.name,
    tax_status: view.tax_status,
    holding_type: view.holding_type,
    investment_account_id: view.investment_account_id,
    created_at: view.created_at,
  };
}
