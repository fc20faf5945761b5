import type { UccRegistration } from "../../../src/integrations/exchange/port.js";
import type { InvestorDetails } from "../../../src/domains/investors/investors.schemas.js";
import { toUccRegistration } from "../../../src/domains/investors/ucc.js";

type Account = { accountType: string; accountNumber: string; ifsc: string; isPrimary: boolean };

/** A resident individual: two bank accounts (the second the default), CKYC, two nominees (one a minor). */
export function individualUcc(): UccRegistration {
  const details: InvestorDetails = {
    primary_holder: { pan: "ABCPK1234F", name: "Asha Rani Kulkarni", date_of_birth: "1985-04-12", gender: "F", occupation: "DOCTOR", kyc_type: "CKYC", ckyc_number: "12345678901234" },
    joint_holders: [],
    guardian: null,
    contact: { email: "asha@example.in", mobile: "9876543210", email_relation: "SELF", mobile_relation: "SPOUSE" },
    address: { line1: "Flat 12, Sunrise Apartments, Baner Road", line2: "Near Balewadi Phata", city: "Pune", state_code: "MH", pincode: "411045", country_code: "IN" },
    fatca: { occupation_type: "SERVICE", income_slab: "34", pep: "NO", source_of_wealth: "SALARY", country_of_birth: "IN", place_of_birth: "Nagpur", tax_resident_other_country: false },
    nominees: [
      { name: "Vikram Kulkarni", relationship: "SPOUSE", percentage: 60 },
      { name: "Meera Kulkarni", relationship: "DAUGHTER", percentage: 40, date_of_birth: "2015-03-04", guardian_name: "Vikram Kulkarni" },
    ],
    demat: { mode: "PHYSICAL" },
  };
  const accounts: Account[] = [
    { accountType: "CB", accountNumber: "50100012345678", ifsc: "HDFC0001234", isPrimary: false },
    { accountType: "SB", accountNumber: "000123456789", ifsc: "SBIN0000456", isPrimary: true },
  ];
  return toUccRegistration("C000000001", { taxStatus: "INDIVIDUAL", holdingType: "SINGLE" }, details, accounts);
}

/** Anyone-or-survivor with two joint holders, demat with CDSL, a forex dealer (UCC 01, FATCA 43), Jharkhand. */
export function jointUcc(): UccRegistration {
  const details: InvestorDetails = {
    primary_holder: { pan: "BCDPS2345G", name: "Rohan Sharma", date_of_birth: "1979-11-30", gender: "M", occupation: "FOREX_DEALER", kyc_type: "KRA" },
    joint_holders: [
      { pan: "CDEPS3456H", name: "Priya Anand Sharma", date_of_birth: "1982-02-01", kyc_type: "KRA" },
      { pan: "DEFPS4567J", name: "Kiran Kumar Sharma", date_of_birth: "1955-07-19", kyc_type: "EKYC" },
    ],
    guardian: null,
    contact: { email: "rohan@example.in", mobile: "+919812345678", email_relation: "SELF", mobile_relation: "SELF" },
    address: { line1: "House 4, Lane 7", city: "Ranchi", state_code: "JH", pincode: "834001", country_code: "IN" },
    fatca: { occupation_type: "BUSINESS", income_slab: "36", pep: "RELATED", source_of_wealth: "BUSINESS_INCOME", country_of_birth: "IN", place_of_birth: "Ranchi", tax_resident_other_country: false },
    nominees: [],
    demat: { mode: "CDSL", client_id: "1203320000123456" },
  };
  return toUccRegistration("C000000002", { taxStatus: "INDIVIDUAL", holdingType: "ANYONE_OR_SURVIVOR" }, details, [
    { accountType: "SB", accountNumber: "123456789012", ifsc: "ICIC0000789", isPrimary: true },
  ]);
}

/** A minor with the mother as guardian, demat with NSDL, Telangana. */
export function minorUcc(): UccRegistration {
  const details: InvestorDetails = {
    primary_holder: { pan: "EFGPR5678K", name: "Aarav Reddy", date_of_birth: "2014-08-15", gender: "M", occupation: "STUDENT", kyc_type: "KRA" },
    joint_holders: [],
    guardian: { name: "Lakshmi Devi Reddy", pan: "FGHPR6789L", relationship: "MOTHER" },
    contact: { email: "lakshmi@example.in", mobile: "9000012345", email_relation: "GUARDIAN", mobile_relation: "GUARDIAN" },
    address: { line1: "8-2-293 Road No 12 Banjara Hills", city: "Hyderabad", state_code: "TG", pincode: "500034", country_code: "IN" },
    fatca: { occupation_type: "OTHERS", income_slab: "31", pep: "NO", source_of_wealth: "GIFT", country_of_birth: "IN", place_of_birth: "Hyderabad", tax_resident_other_country: false },
    nominees: [],
    demat: { mode: "NSDL", dp_id: "IN300123", client_id: "10234567" },
  };
  return toUccRegistration("C000000003", { taxStatus: "MINOR", holdingType: "SINGLE" }, details, [
    { accountType: "SB", accountNumber: "998877665544", ifsc: "KKBK0000123", isPrimary: true },
  ]);
}

/** An NRI in the United States: foreign address, an Indian mobile, NRE and NRO accounts, three nominees. */
export function nriUcc(): UccRegistration {
  const details: InvestorDetails = {
    primary_holder: { pan: "GHIPN7890M", name: "Neil Nair", date_of_birth: "1990-01-25", gender: "M", occupation: "PRIVATE_SECTOR_SERVICE", kyc_type: "KRA" },
    joint_holders: [],
    guardian: null,
    contact: { email: "neil@example.com", mobile: "+919876501234", email_relation: "SELF", mobile_relation: "SELF" },
    address: { line1: "1200 Market Street Apt 5B", city: "San Francisco", state_code: "CA", pincode: "94103", country_code: "US" },
    fatca: { occupation_type: "SERVICE", income_slab: "35", pep: "NO", source_of_wealth: "SALARY", country_of_birth: "IN", place_of_birth: "Kochi", tax_resident_other_country: false },
    nominees: [
      { name: "Anil Nair", relationship: "FATHER", percentage: 33.34 },
      { name: "Sunita Nair", relationship: "MOTHER", percentage: 33.33 },
      { name: "Maya Nair", relationship: "SISTER", percentage: 33.33, date_of_birth: "2012-09-30", guardian_name: "Anil Nair" },
    ],
    demat: { mode: "PHYSICAL" },
  };
  return toUccRegistration("C000000004", { taxStatus: "NRI", holdingType: "SINGLE" }, details, [
    { accountType: "NE", accountNumber: "NRE0001122", ifsc: "FDRL0001001", isPrimary: true },
    { accountType: "NO", accountNumber: "NRO0003344", ifsc: "FDRL0001001", isPrimary: false },
  ]);
}

/** The fields of a pipe string as a position -> value map of the non-empty ones (1-based). */
export function filled(param: string): Record<number, string> {
  return Object.fromEntries(param.split("|").flatMap((value, i) => (value === "" ? [] : [[i + 1, value]])));
}

/** The pipe string with field `position` (1-based) replaced. */
export function withField(param: string, position: number, value: string): string {
  const fields = param.split("|");
  fields[position - 1] = value;
  return fields.join("|");
}
