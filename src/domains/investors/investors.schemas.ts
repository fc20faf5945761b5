import { z } from "zod";
import type { DetailReason } from "../../platform/lib/errors.js";
import { ageOn, ClientRef, Ifsc, IndividualPan, IsoDate, PastDate, PersonName } from "../../platform/lib/formats.js";
import { Cursor, Limit, NextCursor } from "../../platform/lib/zod.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { ClientRefView, CreatedAt, ResourceId, state, stateFilter, UpdatedAt } from "../shared/fields.schemas.js";
import { findCountry, normaliseIndianStateCode } from "../masters/geography.js";
import { catalogValues } from "../../integrations/exchange/code-tables.js";
import { INVESTOR_STATUSES } from "./investor.states.js";

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
const NOMINEE_NAME = "The nominee's name.";
const LINE1 = "Address line 1.";
const LINE2 = "Address line 2.";
const CITY = "City.";
const PINCODE = "PIN code, 6 digits.";
const COUNTRY_CODE = "ISO 3166-1 alpha-2 country code.";
const PLACE_OF_BIRTH = "City or town of birth.";
const TAX_RESIDENT = "Whether the investor is a tax resident of a country other than India.";
const IFSC = "The bank branch's IFSC.";
const IS_PRIMARY = "Whether this is the investor's primary bank account (payouts go there).";
const PERCENTAGE = "The nominee's share, percent; the nominees' shares add up to 100.";
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

const Contact = z.strictObject({
  email: z.email("must be an email address").max(100).describe("Email address (masked in responses)."),
  mobile: z
    .string()
    .regex(/^([6-9]\d{9}|\+[1-9]\d{7,14})$/, "must be a 10-digit Indian mobile number or an international number +<country><number>")
    .describe("Indian mobile number, 10 digits (masked in responses)."),
  email_relation: oneOf("contact_relations"),
  mobile_relation: oneOf("contact_relations"),
});

const Address = z.strictObject({
  line1: z.string().trim().min(1).max(120).describe(LINE1),
  line2: z.string().trim().max(120).describe(LINE2).optional(),
  city: z.string().trim().min(1).max(50).describe(CITY),
  state_code: z.string().trim().toUpperCase().min(1).max(50).describe("ISO 3166-2 subdivision code (for India: MH, TG, ...)."),
  pincode: z.string().trim().min(3).max(10).describe(PINCODE),
  country_code: CountryCode.describe(COUNTRY_CODE),
});

const Fatca = z.strictObject({
  occupation_type: oneOf("fatca_occupation_types"),
  income_slab: oneOf("income_slabs"),
  pep: oneOf("pep_options"),
  source_of_wealth: oneOf("wealth_sources"),
  country_of_birth: CountryCode.describe(COUNTRY_OF_BIRTH),
  place_of_birth: z.string().trim().min(1).max(50).describe(PLACE_OF_BIRTH),
  tax_resident_other_country: z.boolean().describe(TAX_RESIDENT),
});

const BankAccountInput = z.strictObject({
  account_type: oneOf("bank_account_types"),
  account_number: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{6,20}$/, "must be 6-20 letters or digits")
    .describe("The bank account number (masked in responses: last 4 digits)."),
  ifsc: Ifsc.describe(IFSC),
  is_primary: z.boolean().describe(IS_PRIMARY),
});

const Nominee = z.strictObject({
  name: PersonName.describe(NOMINEE_NAME),
  relationship: oneOf("nominee_relationships"),
  percentage: z
    .number()
    .gt(0)
    .max(100)
    .refine((p) => Number.isInteger(Math.round(p * 100)) && Math.abs(p * 100 - Math.round(p * 100)) < 1e-9, { message: "at most 2 decimals", params: { reason: "too_many_decimals" } })
    .describe(PERCENTAGE),
  date_of_birth: PastDate.describe(DATE_OF_BIRTH).optional(),
  guardian_name: PersonName.optional().describe("Required for a nominee under 18."),
});

const Demat = z.strictObject({
  mode: oneOf("demat_modes"),
  dp_id: z.string().trim().toUpperCase().describe(DP_ID).optional(),
  // Described by the name it shares with the API client's id (as the reference has always said it).
  client_id: z.string().trim().describe("The API client that created the resource.").optional(),
});

type Issue = { path: Array<string | number>; reason: DetailReason; message: string };

const PRIMARY_HOLDER = "The first holder: PAN, name, date of birth and KYC.";
const JOINT_HOLDERS = "Up to 2 joint holders (holding_type JOINT or ANYONE_OR_SURVIVOR).";
const CONTACT = "Email and mobile with whose they are.";
const ADDRESS = "The investor's address.";
const FATCA = "The FATCA declaration.";
const BANK_ACCOUNTS = "The investor's bank accounts; exactly one is primary.";
const NOMINEES = "Nominees, whose shares add up to 100.";

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
    for (const issue of crossFieldIssues(investor)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, params: { reason: issue.reason } });
  });

export type CreateInvestorInput = z.infer<typeof CreateInvestorRequest>;

/** The rules of master-codes.md that involve more than one field. */
function crossFieldIssues(investor: z.infer<typeof CreateInvestorRequest>): Issue[] {
  const issues: Issue[] = [];
  const add = (path: Issue["path"], reason: DetailReason, message: string) => issues.push({ path, reason, message });
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

  const nominees = investor.nominees ?? [];
  if (nominees.length > 3) add(["nominees"], "too_big", "at most 3 nominees");
  if (nominees.length > 0) {
    const totalHundredths = nominees.reduce((sum, n) => sum + Math.round(n.percentage * 100), 0);
    if (totalHundredths !== 10_000) add(["nominees"], "rule_violated", `percentages must add up to 100 (they add up to ${totalHundredths / 100})`);
  }
  nominees.forEach((nominee, i) => {
    if (nominee.date_of_birth && ageOn(nominee.date_of_birth) < 18 && !nominee.guardian_name) {
      add(["nominees", i, "guardian_name"], "required", "is required for a nominee under 18");
    }
  });

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
  nominees: z
    .array(
      z.object({
        name: z.string().describe(NOMINEE_NAME),
        relationship: z.string().describe(RELATIONSHIP),
        percentage: z.number().describe(PERCENTAGE),
        date_of_birth: describeAfter(z.string().nullable(), DATE_OF_BIRTH),
        guardian_name: describeAfter(z.string().nullable(), "The guardian's name."),
      }),
    )
    .describe(NOMINEES),
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


