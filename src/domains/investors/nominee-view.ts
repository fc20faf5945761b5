import { maskAccountNumber, maskEmail, maskMobile, maskPan } from "../../platform/lib/mask.js";
import type { IdentityType, StoredNomineeDetails } from "./nominees.schemas.js";

/** An identity number as responses show it: a PAN as every PAN is shown, the rest by their last 4 characters. */
export function maskIdentity(identity: { type: IdentityType; number: string }): { type: IdentityType; number: string } {
  if (identity.type === "PAN") return { type: identity.type, number: maskPan(identity.number) };
  // The Aadhaar's last four are all we keep; shown in the 12-digit masked form people know.
  if (identity.type === "AADHAAR_LAST4") return { type: identity.type, number: `XXXXXXXX${identity.number}` };
  return { type: identity.type, number: maskAccountNumber(identity.number) };
}

/**
 * A nominee as the investor resource shows it: identity numbers, email and mobile masked. A nominee stored
 * before the 2025 framework shows identity and contact null, and its guardian's name without identity.
 */
export function toNomineeView(nominee: StoredNomineeDetails) {
  const contact = nominee.contact;
  const guardianName = nominee.guardian?.name ?? nominee.guardian_name ?? null;
  return {
    name: nominee.name,
    relationship: nominee.relationship,
    percentage: nominee.percentage,
    date_of_birth: nominee.date_of_birth ?? null,
    identity: nominee.identity ? maskIdentity(nominee.identity) : null,
    contact: contact
      ? {
          email: contact.email ? maskEmail(contact.email) : null,
          mobile: contact.mobile ? maskMobile(contact.mobile) : null,
          address: { ...contact.address, line2: contact.address.line2 ?? null, line3: contact.address.line3 ?? null },
        }
      : null,
    guardian: guardianName
      ? {
          name: guardianName,
          relationship: nominee.guardian?.relationship ?? null,
          identity: nominee.guardian ? maskIdentity(nominee.guardian.identity) : null,
        }
      : null,
    guardian_name: guardianName,
  };
}
