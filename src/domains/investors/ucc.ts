import type { UccRegistration } from "../../integrations/exchange/port.js";
import { normaliseIndianStateCode } from "../masters/geography.js";
import { exchangeCodeOf, uccOccupationCode } from "../../integrations/exchange/code-tables.js";
import type { HoldingType, TaxStatus } from "./investor.states.js";
import type { InvestorDetails } from "./investors.schemas.js";
import { isMinorNominee } from "./nominee-rules.js";

/** The investor as the exchange's UCC and FATCA records want it: the catalog's values become codes. */
export function toUccRegistration(
  clientCode: string,
  investor: { taxStatus: TaxStatus; holdingType: HoldingType; nominationStatus?: string | null },
  details: InvestorDetails,
  bankAccounts: Array<{ accountType: string; accountNumber: string; ifsc: string; isPrimary: boolean }>,
): UccRegistration {
  const demat = details.demat.mode;
  const depositoryCode = exchangeCodeOf("demat_modes", demat);
  const holder = details.primary_holder;
  return {
    clientCode,
    taxStatus: exchangeCodeOf("tax_statuses", investor.taxStatus),
    holdingNature: exchangeCodeOf("holding_types", investor.holdingType),
    occupation: uccOccupationCode(holder.occupation),
    clientType: depositoryCode === "P" ? "P" : "D",
    depository: depositoryCode === "P" ? null : (depositoryCode.split(":")[1] as "C" | "N"),
    dematAccount: demat === "PHYSICAL" || !details.demat.client_id ? null : { dpId: details.demat.dp_id ?? null, clientId: details.demat.client_id },
    primaryHolder: {
      pan: holder.pan,
      name: holder.name,
      dateOfBirth: holder.date_of_birth,
      gender: holder.gender,
      kycType: exchangeCodeOf("kyc_types", holder.kyc_type),
      ckycNumber: holder.ckyc_number ?? null,
    },
    jointHolders: details.joint_holders.map((h) => ({ pan: h.pan, name: h.name, dateOfBirth: h.date_of_birth, kycType: exchangeCodeOf("kyc_types", h.kyc_type) })),
    guardian: details.guardian
      ? { name: details.guardian.name, pan: details.guardian.pan, relation: exchangeCodeOf("guardian_relations", details.guardian.relationship) }
      : null,
    contact: {
      email: details.contact.email,
      mobile: details.contact.mobile,
      emailRelation: exchangeCodeOf("contact_relations", details.contact.email_relation),
      mobileRelation: exchangeCodeOf("contact_relations", details.contact.mobile_relation),
    },
    address: {
      line1: details.address.line1,
      line2: details.address.line2 ?? null,
      city: details.address.city,
      state: details.address.country_code === "IN" ? (normaliseIndianStateCode(details.address.state_code) ?? details.address.state_code) : details.address.state_code,
      pincode: details.address.pincode,
      country: details.address.country_code,
    },
    bankAccounts: bankAccounts.map((a) => ({ accountType: a.accountType, accountNumber: a.accountNumber, ifsc: a.ifsc, isDefault: a.isPrimary })),
    // The UCC document in hand carries name, relation, share, minor flag, date of birth and guardian's name
    // (fields 94-111); the nominee's identity and contact have no documented field yet (a UAT point).
    nominees: details.nominees.map((n) => ({
      name: n.name,
      relation: exchangeCodeOf("nominee_relationships", n.relationship),
      percentage: n.percentage,
      minor: isMinorNominee(n),
      dateOfBirth: n.date_of_birth ?? null,
      guardianName: n.guardian?.name ?? n.guardian_name ?? null,
    })),
    nominationOptedOut: details.nominees.length === 0 && investor.nominationStatus === "OPTED_OUT",
    fatca: {
      occupationCode: exchangeCodeOf("occupations", holder.occupation),
      occupationType: exchangeCodeOf("fatca_occupation_types", details.fatca.occupation_type),
      incomeSlab: exchangeCodeOf("income_slabs", details.fatca.income_slab),
      pep: exchangeCodeOf("pep_options", details.fatca.pep),
      sourceOfWealth: exchangeCodeOf("wealth_sources", details.fatca.source_of_wealth),
      countryOfBirth: details.fatca.country_of_birth,
      placeOfBirth: details.fatca.place_of_birth,
      taxResidentOtherCountry: details.fatca.tax_resident_other_country,
    },
  };
}
