import { z } from "zod";
import { ClientRef, Ifsc, IndividualPan, IsoDate, PastDate, PersonName } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { findCountry } from "../masters/geography.js";
import { catalogValues } from "../../integrations/exchange/code-tables.js";
import { INVESTOR_STATUSES } from "./investor.states.js";
import { investorIssues } from "./rules.js";

/** Every enumerated field takes exactly the values of the investor-options catalog. */
const oneOf = <M extends Parameters<typeof catalogValues>[0]>(member: M) =>
  z.enum(catalogValues(member)).describe(`One of the \`${member}\` values of GET /api/masters/v1/investor-options.`);

const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => findCountry(code) !== undefined, { message: "must be an ISO 3166-1 alpha-2 country code", params: { reason: "invalid_country" } });

const PrimaryHolder = z.strictObject({
  pan: IndividualPan,
  name: PersonName,
  date_of_birth: PastDate,
  gender: oneOf("genders"),
  occupation: oneOf("occupations"),
  kyc_type: oneOf("kyc_types"),
  ckyc_number: z.string().regex(/^\d{14}$/, "must be 14 digits").optional().describe("Required when kyc_type is CKYC."),
});

const JointHolder = z.strictObject({
  pan: IndividualPan,
  name: PersonName,
  date_of_birth: PastDate,
  kyc_type: oneOf("kyc_types"),
});

const Guardian = z.strictObject({ name: PersonName, pan: IndividualPan, relationship: oneOf("guardian_relations") });

const Contact = z.strictObject({
  email: z.email("must be an email address").max(100),
  mobile: z
    .string()
    .regex(/^([6-9]\d{9}|\+[1-9]\d{7,14})$/, "must be a 10-digit Indian mobile number or an international number +<country><number>"),
  email_relation: oneOf("contact_relations"),
  mobile_relation: oneOf("contact_relations"),
});

const Address = z.strictObject({
  line1: z.string().trim().min(1).max(120),
  line2: z.string().trim().max(120).optional(),
  city: z.string().trim().min(1).max(50),
  state_code: z.string().trim().toUpperCase().min(1).max(50).describe("ISO 3166-2 subdivision code (for India: MH, TG, ...)."),
  pincode: z.string().trim().min(3).max(10),
  country_code: CountryCode,
});

const Fatca = z.strictObject({
  occupation_type: oneOf("fatca_occupation_types"),
  income_slab: oneOf("income_slabs"),
  pep: oneOf("pep_options"),
  source_of_wealth: oneOf("wealth_sources"),
  country_of_birth: CountryCode,
  place_of_birth: z.string().trim().min(1).max(50),
  tax_resident_other_country: z.boolean(),
});

const BankAccountInput = z.strictObject({
  account_type: oneOf("bank_account_types"),
  account_number: z.string().trim().regex(/^[A-Za-z0-9]{6,20}$/, "must be 6-20 letters or digits"),
  ifsc: Ifsc,
  is_primary: z.boolean(),
});

const Nominee = z.strictObject({
  name: PersonName,
  relationship: oneOf("nominee_relationships"),
  percentage: z.number().gt(0).max(100).refine((p) => Number.isInteger(Math.round(p * 100)) && Math.abs(p * 100 - Math.round(p * 100)) < 1e-9, { message: "at most 2 decimals", params: { reason: "too_many_decimals" } }),
  date_of_birth: PastDate.optional(),
  guardian_name: PersonName.optional().describe("Required for a nominee under 18."),
});

const Demat = z.strictObject({
  mode: oneOf("demat_modes"),
  dp_id: z.string().trim().toUpperCase().optional(),
  client_id: z.string().trim().optional(),
});

export const CreateInvestorRequest = z
  .strictObject({
    primary_holder: PrimaryHolder,
    tax_status: oneOf("tax_statuses"),
    holding_type: oneOf("holding_types"),
    joint_holders: z.array(JointHolder).max(2).optional(),
    guardian: Guardian.optional().describe("Required for tax status MINOR."),
    contact: Contact,
    address: Address,
    fatca: Fatca,
    bank_accounts: z.array(BankAccountInput).min(1).max(5),
    nominees: z.array(Nominee).optional(),
    demat: Demat.optional().describe("Defaults to PHYSICAL."),
    client_ref: ClientRef.optional(),
  })
  .superRefine((investor, ctx) => {
    for (const issue of investorIssues(investor)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, params: { reason: issue.reason } });
  });

export type CreateInvestorInput = z.infer<typeof CreateInvestorRequest>;

const Masked = (what: string) => z.string().describe(`Masked ${what}.`);

export const BankAccountView = z.object({
  id: z.string(),
  account_type: z.string(),
  account_number: Masked("account number (last 4 digits)"),
  ifsc: z.string(),
  is_primary: z.boolean(),
});

export const InvestmentAccountView = z.object({
  id: z.string(),
  holding_mode: z.enum(["PHYSICAL", "CDSL", "NSDL"]),
  created_at: z.string(),
});

export const InvestorStatus = z.enum(INVESTOR_STATUSES);

export const InvestorView = z.object({
  id: z.string(),
  status: InvestorStatus,
  client_ref: z.string().nullable(),
  ucc_code: z.string().describe("The investor's client code (UCC) at the exchange."),
  provider_remark: z.string().nullable().describe("The exchange's own remark on the registration (anything PAN-shaped masked)."),
  pan: Masked("PAN of the primary holder (ABXXXXX34F)"),
  name: z.string().describe("The primary holder's name."),
  tax_status: z.string(),
  holding_type: z.string(),
  primary_holder: z.object({
    pan: Masked("PAN"),
    name: z.string(),
    date_of_birth: z.string(),
    gender: z.string(),
    occupation: z.string(),
    kyc_type: z.string(),
    ckyc_number: z.string().nullable().describe("Masked CKYC number."),
  }),
  joint_holders: z.array(z.object({ pan: Masked("PAN"), name: z.string(), date_of_birth: z.string(), kyc_type: z.string() })),
  guardian: z.object({ name: z.string(), pan: Masked("PAN"), relationship: z.string() }).nullable(),
  contact: z.object({
    email: Masked("email (first character and domain)"),
    mobile: Masked("mobile (last 4 digits)"),
    email_relation: z.string(),
    mobile_relation: z.string(),
  }),
  address: z.object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state_code: z.string(),
    pincode: z.string(),
    country_code: z.string(),
  }),
  fatca: z.object({
    occupation_type: z.string(),
    income_slab: z.string(),
    pep: z.string(),
    source_of_wealth: z.string(),
    country_of_birth: z.string(),
    place_of_birth: z.string(),
    tax_resident_other_country: z.boolean(),
  }),
  nominees: z.array(
    z.object({
      name: z.string(),
      relationship: z.string(),
      percentage: z.number(),
      date_of_birth: z.string().nullable(),
      guardian_name: z.string().nullable(),
    }),
  ),
  demat: z.object({ mode: z.string(), dp_id: z.string().nullable(), client_id: z.string().nullable().describe("Masked.") }),
  investment_account_id: z.string().describe("The investor's investment account, for orders."),
  investment_accounts: z.array(InvestmentAccountView),
  bank_accounts: z.array(BankAccountView),
  created_at: z.string(),
  updated_at: z.string(),
});

export const InvestorSummary = z.object({
  id: z.string(),
  status: InvestorStatus,
  client_ref: z.string().nullable(),
  pan: Masked("PAN"),
  name: z.string().describe("The primary holder's name."),
  tax_status: z.string(),
  holding_type: z.string(),
  investment_account_id: z.string(),
  created_at: z.string(),
});

export const InvestorId = z.string().min(1).max(64).describe("An investor id (inv_...).");

export const ListInvestorsQuery = z.strictObject({
  status: InvestorStatus.optional(),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export const InvestorPage = z.object({ data: z.array(InvestorSummary), next_cursor: NextCursor });

export const SyncRequest = z.strictObject({
  investor_id: z.string().min(1).optional().describe("Only this investor; otherwise all of your PENDING investors."),
});

export const SyncResponse = z.object({
  pending: z.number().int().describe("PENDING investors whose status is being fetched from the exchange."),
  queued: z.number().int().describe("Status checks queued (each is applied as soon as the exchange answers)."),
});

/** A catalog value as stored: the investor-options catalog's list, without the request's description. */
const storedOneOf = <M extends Parameters<typeof catalogValues>[0]>(member: M) => z.enum(catalogValues(member));

/**
 * investors.details_encrypted, decrypted: the personal details as CreateInvestorRequest validated them at
 * creation, read back by their shape only, so that a rule changed since (or today's date, which the age and
 * past-date rules depend on) never makes a stored investor unreadable. Keys in the request's order.
 */
export const StoredInvestorDetails = z.object({
  primary_holder: z.object({
    pan: z.string(),
    name: z.string(),
    date_of_birth: z.string(),
    gender: storedOneOf("genders"),
    occupation: storedOneOf("occupations"),
    kyc_type: storedOneOf("kyc_types"),
    ckyc_number: z.string().optional(),
  }),
  joint_holders: z.array(z.object({ pan: z.string(), name: z.string(), date_of_birth: z.string(), kyc_type: storedOneOf("kyc_types") })),
  guardian: z.object({ name: z.string(), pan: z.string(), relationship: storedOneOf("guardian_relations") }).nullable(),
  contact: z.object({
    email: z.string(),
    mobile: z.string(),
    email_relation: storedOneOf("contact_relations"),
    mobile_relation: storedOneOf("contact_relations"),
  }),
  address: z.object({
    line1: z.string(),
    line2: z.string().optional(),
    city: z.string(),
    state_code: z.string(),
    pincode: z.string(),
    country_code: z.string(),
  }),
  fatca: z.object({
    occupation_type: storedOneOf("fatca_occupation_types"),
    income_slab: storedOneOf("income_slabs"),
    pep: storedOneOf("pep_options"),
    source_of_wealth: storedOneOf("wealth_sources"),
    country_of_birth: z.string(),
    place_of_birth: z.string(),
    tax_resident_other_country: z.boolean(),
  }),
  nominees: z.array(
    z.object({
      name: z.string(),
      relationship: storedOneOf("nominee_relationships"),
      percentage: z.number(),
      date_of_birth: z.string().optional(),
      guardian_name: z.string().optional(),
    }),
  ),
  demat: z.object({ mode: storedOneOf("demat_modes"), dp_id: z.string().optional(), client_id: z.string().optional() }),
});
export type InvestorDetails = z.infer<typeof StoredInvestorDetails>;
