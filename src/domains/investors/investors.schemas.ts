import { z } from "zod";
import { NominationView } from "./consents.schemas.js";
import { ClientRef, Ifsc, IndividualPan, IsoDate, PastDate, PersonName } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { ClientRefView, CreatedAt, ResourceId, state, stateFilter, UpdatedAt } from "../shared/fields.schemas.js";
import { findCountry } from "../masters/geography.js";
import { catalogValues } from "../../integrations/exchange/code-tables.js";
import { INVESTOR_CHANGE_STATUSES, INVESTOR_STATUSES } from "./investor.states.js";
import { investorIssues } from "./rules.js";
import { Nominee, NomineeView, NOMINEES, StoredNominee } from "./nominees.schemas.js";

/** Every enumerated field takes exactly the values of the investor-options catalog. */
const oneOf = <M extends Parameters<typeof catalogValues>[0]>(member: M) =>
  z.enum(catalogValues(member)).describe(`One of the \`${member}\` values of GET /api/masters/v1/investor-options.`);

const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => findCountry(code) !== undefined, { message: "must be an ISO 3166-1 alpha-2 country code", params: { reason: "invalid_country" } });

/** Said of the fields alike in the request and the answer. */
const DATE_OF_BIRTH = "Date of birth (YYYY-MM-DD).";
const COUNTRY_OF_BIRTH = "ISO 3166-1 alpha-2 country of birth.";
const PRIMARY_HOLDER_NAME = "The first holder's name, as on the PAN.";
const JOINT_HOLDER_NAME = "The joint holder's name, as on the PAN.";
const GUARDIAN_NAME = "The guardian's name, as on the PAN.";
const LINE1 = "Address line 1.";
const LINE2 = "Address line 2.";
const CITY = "City.";
const PINCODE = "PIN code, 6 digits.";
const COUNTRY_CODE = "ISO 3166-1 alpha-2 country code.";
const PLACE_OF_BIRTH = "City or town of birth.";
const TAX_RESIDENT = "Whether the investor is a tax resident of a country other than India.";
const IFSC = "The bank branch's IFSC.";
const IS_PRIMARY = "Whether this is the investor's primary bank account (payouts go there).";
const DP_ID = "The depository participant's id.";

const PrimaryHolder = z.strictObject({
  pan: IndividualPan,
  name: PersonName.describe(PRIMARY_HOLDER_NAME),
  date_of_birth: PastDate.describe(DATE_OF_BIRTH),
  gender: oneOf("genders"),
  occupation: oneOf("occupations"),
  kyc_type: oneOf("kyc_types"),
  ckyc_number: z.string().regex(/^\d{14}$/, "must be 14 digits").optional().describe("Required when kyc_type is CKYC."),
});

const JointHolder = z.strictObject({
  pan: IndividualPan,
  name: PersonName.describe(JOINT_HOLDER_NAME),
  date_of_birth: PastDate.describe(DATE_OF_BIRTH),
  kyc_type: oneOf("kyc_types"),
});

const Guardian = z.strictObject({ name: PersonName.describe(GUARDIAN_NAME), pan: IndividualPan, relationship: oneOf("guardian_relations") });

export const Contact = z.strictObject({
  email: z.email("must be an email address").max(100).describe("Email address (masked in responses)."),
  mobile: z
    .string()
    .regex(/^([6-9]\d{9}|\+[1-9]\d{7,14})$/, "must be a 10-digit Indian mobile number or an international number +<country><number>")
    .describe("Indian mobile number, 10 digits (masked in responses)."),
  email_relation: oneOf("contact_relations"),
  mobile_relation: oneOf("contact_relations"),
});

export const Address = z.strictObject({
  line1: z.string().trim().min(1).max(120).describe(LINE1),
  line2: z.string().trim().max(120).describe(LINE2).optional(),
  city: z.string().trim().min(1).max(50).describe(CITY),
  state_code: z.string().trim().toUpperCase().min(1).max(50).describe("ISO 3166-2 subdivision code (for India: MH, TG, ...)."),
  pincode: z.string().trim().min(3).max(10).describe(PINCODE),
  country_code: CountryCode.describe(COUNTRY_CODE),
});

export const Fatca = z.strictObject({
  occupation_type: oneOf("fatca_occupation_types"),
  income_slab: oneOf("income_slabs"),
  pep: oneOf("pep_options"),
  source_of_wealth: oneOf("wealth_sources"),
  country_of_birth: CountryCode.describe(COUNTRY_OF_BIRTH),
  place_of_birth: z.string().trim().min(1).max(50).describe(PLACE_OF_BIRTH),
  tax_resident_other_country: z.boolean().describe(TAX_RESIDENT),
});

export const BankAccountInput = z.strictObject({
  account_type: oneOf("bank_account_types"),
  account_number: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{6,20}$/, "must be 6-20 letters or digits")
    .describe("The bank account number (masked in responses: last 4 digits)."),
  ifsc: Ifsc.describe(IFSC),
  is_primary: z.boolean().describe(IS_PRIMARY),
});

const Demat = z.strictObject({
  mode: oneOf("demat_modes"),
  dp_id: z.string().trim().toUpperCase().describe(DP_ID).optional(),
  // Described by the name it shares with the API client's id (as the reference has always said it).
  client_id: z.string().trim().describe("The API client that created the resource.").optional(),
});

const PRIMARY_HOLDER = "The first holder: PAN, name, date of birth and KYC.";
const JOINT_HOLDERS = "Up to 2 joint holders (holding_type JOINT or ANYONE_OR_SURVIVOR).";
const CONTACT = "Email and mobile with whose they are.";
const ADDRESS = "The investor's address.";
const FATCA = "The FATCA declaration.";
const BANK_ACCOUNTS = "The investor's bank accounts; exactly one is primary.";

export const CreateInvestorRequest = z
  .strictObject({
    primary_holder: PrimaryHolder.describe(PRIMARY_HOLDER),
    tax_status: oneOf("tax_statuses"),
    holding_type: oneOf("holding_types"),
    joint_holders: z.array(JointHolder).max(2).describe(JOINT_HOLDERS).optional(),
    guardian: Guardian.optional().describe("Required for tax status MINOR."),
    contact: Contact.describe(CONTACT),
    address: Address.describe(ADDRESS),
    fatca: Fatca.describe(FATCA),
    bank_accounts: z.array(BankAccountInput).min(1).max(5).describe(BANK_ACCOUNTS),
    nominees: z.array(Nominee).describe(NOMINEES).optional(),
    demat: Demat.optional().describe("Defaults to PHYSICAL."),
    client_ref: ClientRef.optional(),
  })
  .superRefine((investor, ctx) => {
    for (const issue of investorIssues(investor)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, params: { reason: issue.reason } });
  });

export type CreateInvestorInput = z.infer<typeof CreateInvestorRequest>;

const Masked = (what: string) => z.string().describe(`Masked ${what}.`);
const option = (what: string) => `(\`${what}\` of the investor options).`;
const KYC_TYPE = `How KYC was done ${option("kyc_types")}`;
// The guardian's relationship is described as a nominee's (as the reference has always said it).
const RELATIONSHIP = `The nominee's relationship to the investor ${option("nominee_relationships")}`;

export const BankAccountView = z.object({
  id: ResourceId,
  account_type: z.string().describe(`The bank account's type ${option("bank_account_types")}`),
  account_number: Masked("account number (last 4 digits)"),
  ifsc: z.string().describe(IFSC),
  is_primary: z.boolean().describe(IS_PRIMARY),
});

/** A change of a REGISTERED investor waiting for (or decided by) the exchange: ids, never the values. */
export const PendingChangeView = z
  .object({
    id: ResourceId,
    requested_at: z.string().describe("When the change was asked for (ISO 8601)."),
    status: z.enum(INVESTOR_CHANGE_STATUSES).describe("PENDING (sent to the exchange), APPLIED (the details above are the new ones) or REJECTED."),
    fields: z.array(z.string()).describe("The fields the change names (contact, address, fatca, occupation, nominees)."),
    provider_remark: z.string().nullable().describe("The exchange's remark (anything PAN-shaped masked)."),
  })
  .nullable()
  .describe("The investor's latest change after registration (PATCH), null when none; the details above stay the registered ones until the exchange applies it.");

export const InvestmentAccountView = z.object({
  id: ResourceId,
  holding_mode: z.enum(["PHYSICAL", "CDSL", "NSDL"]).describe("How the units are held: CDSL or NSDL (demat) or PHYSICAL (a folio with the registrar)."),
  created_at: CreatedAt,
});

export const InvestorStatus = z.enum(INVESTOR_STATUSES);

const TAX_STATUS = "The investor's tax status (GET /api/masters/v1/investor-options, `tax_statuses`).";
const HOLDING_TYPE = `SINGLE, JOINT or ANYONE_OR_SURVIVOR ${option("holding_types")}`;

export const InvestorView = z.object({
  id: ResourceId,
  status: state(InvestorStatus),
  client_ref: ClientRefView,
  ucc_code: z.string().describe("The investor's client code (UCC) at the exchange."),
  provider_remark: z.string().nullable().describe("The exchange's own remark on the registration (anything PAN-shaped masked)."),
  pan: Masked("PAN of the primary holder (ABXXXXX34F)"),
  name: z.string().describe("The primary holder's name."),
  tax_status: z.string().describe(TAX_STATUS),
  holding_type: z.string().describe(HOLDING_TYPE),
  primary_holder: z
    .object({
      pan: Masked("PAN"),
      name: z.string().describe(PRIMARY_HOLDER_NAME),
      date_of_birth: z.string().describe(DATE_OF_BIRTH),
      gender: z.string().describe(`Gender ${option("genders")}`),
      occupation: z.string().describe(`The occupation ${option("occupations")}`),
      kyc_type: z.string().describe(KYC_TYPE),
      ckyc_number: z.string().nullable().describe("Masked CKYC number."),
    })
    .describe(PRIMARY_HOLDER),
  joint_holders: z
    .array(
      z.object({
        pan: Masked("PAN"),
        name: z.string().describe(JOINT_HOLDER_NAME),
        date_of_birth: z.string().describe(DATE_OF_BIRTH),
        kyc_type: z.string().describe(KYC_TYPE),
      }),
    )
    .describe(JOINT_HOLDERS),
  guardian: z
    .object({ name: z.string().describe(GUARDIAN_NAME), pan: Masked("PAN"), relationship: z.string().describe(RELATIONSHIP) })
    .nullable()
    .describe("The guardian of a minor investor."),
  contact: z
    .object({
      email: Masked("email (first character and domain)"),
      mobile: Masked("mobile (last 4 digits)"),
      email_relation: z.string().describe(`Whose email it is ${option("contact_relations")}`),
      mobile_relation: z.string().describe(`Whose mobile it is ${option("contact_relations")}`),
    })
    .describe(CONTACT),
  address: z
    .object({
      line1: z.string().describe(LINE1),
      line2: describeAfter(z.string().nullable(), LINE2),
      city: z.string().describe(CITY),
      state_code: z.string().describe("The state (GET /api/masters/v1/countries/IN/states)."),
      pincode: z.string().describe(PINCODE),
      country_code: z.string().describe(COUNTRY_CODE),
    })
    .describe(ADDRESS),
  fatca: z
    .object({
      occupation_type: z.string().describe(`The FATCA occupation type ${option("fatca_occupation_types")}`),
      income_slab: z.string().describe(`The income slab code ${option("income_slabs")}`),
      pep: z.string().describe(`Politically exposed person ${option("pep_options")}`),
      source_of_wealth: z.string().describe(`Source of wealth ${option("wealth_sources")}`),
      country_of_birth: z.string().describe(COUNTRY_OF_BIRTH),
      place_of_birth: z.string().describe(PLACE_OF_BIRTH),
      tax_resident_other_country: z.boolean().describe(TAX_RESIDENT),
    })
    .describe(FATCA),
  nominees: z.array(NomineeView).describe(NOMINEES),
  demat: z
    .object({
      mode: z.string().describe("How the payment is made (UPI, NETBANKING, MANDATE, CHEQUE), or for a demat account its depository mode."),
      dp_id: describeAfter(z.string().nullable(), DP_ID),
      client_id: z.string().nullable().describe("Masked."),
    })
    .describe("The demat account, for holding_mode CDSL or NSDL."),
  investment_account_id: z.string().describe("The investor's investment account, for orders."),
  investment_accounts: z.array(InvestmentAccountView).describe("The investor's investment accounts (one per holding mode); orders name one."),
  bank_accounts: z.array(BankAccountView).describe(BANK_ACCOUNTS),
  pending_change: PendingChangeView,
  nomination: NominationView,
  created_at: CreatedAt,
  updated_at: UpdatedAt,
});

export const InvestorSummary = z.object({
  id: ResourceId,
  status: state(InvestorStatus),
  client_ref: ClientRefView,
  pan: Masked("PAN"),
  name: z.string().describe("The primary holder's name."),
  tax_status: z.string().describe(TAX_STATUS),
  holding_type: z.string().describe(HOLDING_TYPE),
  investment_account_id: z
    .string()
    .describe("The investment account's id (`iac_`...): an investor's account that orders are placed on (GET /api/investors/v1/{id})."),
  created_at: CreatedAt,
});

export const InvestorId = z.string().min(1).max(64).describe("An investor id (inv_...).");

export const ListInvestorsQuery = z.strictObject({
  status: stateFilter(InvestorStatus),
  limit: Limit(100, 20),
  cursor: Cursor,
});

export const InvestorPage = z.object({ data: z.array(InvestorSummary).describe("Your investors on this page, newest first."), next_cursor: NextCursor });

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
  nominees: z.array(StoredNominee),
  demat: z.object({ mode: storedOneOf("demat_modes"), dp_id: z.string().optional(), client_id: z.string().optional() }),
});
export type InvestorDetails = z.infer<typeof StoredInvestorDetails>;
