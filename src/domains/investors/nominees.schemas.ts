import { z } from "zod";
import { atMostDecimals, PAN_PATTERN, PastDate, PersonName } from "../../platform/lib/formats.js";
import { describeAfter } from "../../platform/openapi/fields.js";
import { catalogValues } from "../../integrations/exchange/code-tables.js";
import { MAX_NOMINEES } from "../../integrations/exchange/port.js";
import { findCountry } from "../masters/geography.js";

/**
 * A nominee as SEBI's revised nomination framework (2025) wants it: identity (one document), contact
 * (email or mobile, and a postal address), and a guardian with an identity of their own for a minor.
 * The cross-field rules (shares, count, minors) are in nominee-rules.ts.
 */

export const IDENTITY_TYPES = ["PAN", "AADHAAR_LAST4", "DRIVING_LICENCE", "PASSPORT"] as const;
export type IdentityType = (typeof IDENTITY_TYPES)[number];

/** Each document's number, as stored: upper case, spaces and hyphens removed (a driving licence is written with either). */
const IDENTITY_FORMATS: Record<IdentityType, { pattern: RegExp; message: string }> = {
  PAN: { pattern: PAN_PATTERN, message: "must be a PAN: 5 letters, 4 digits (not 0000), 1 letter" },
  AADHAAR_LAST4: { pattern: /^\d{4}$/, message: "must be the last 4 digits of the Aadhaar number (never the whole number)" },
  DRIVING_LICENCE: {
    pattern: /^[A-Z]{2}[0-9A-Z]{2}(19|20)\d{2}\d{7}$/,
    message: "must be an Indian driving licence number: state (2 letters), RTO (2), year of issue (4 digits), 7 digits",
  },
  PASSPORT: { pattern: /^[A-Z][0-9]{7}$/, message: "must be an Indian passport number: 1 letter and 7 digits" },
};

const normaliseIdentityNumber = (value: string) => value.replace(/[\s-]/g, "").toUpperCase();

const IDENTITY = "The person's identity document: its type and number (stored encrypted; masked in responses).";

export const NomineeIdentity = z
  .strictObject({
    type: z.enum(IDENTITY_TYPES).describe("PAN, AADHAAR_LAST4 (the last four digits of the Aadhaar number only), DRIVING_LICENCE or PASSPORT."),
    number: z
      .string()
      .max(30)
      .transform(normaliseIdentityNumber)
      .describe("The document's number (spaces and hyphens ignored); for AADHAAR_LAST4 the last four digits, never the whole Aadhaar number."),
  })
  .superRefine((identity, ctx) => {
    const format = IDENTITY_FORMATS[identity.type] as (typeof IDENTITY_FORMATS)[IdentityType] | undefined;
    if (format && !format.pattern.test(identity.number)) ctx.addIssue({ code: "custom", path: ["number"], message: format.message, params: { reason: "invalid_format" } });
  })
  .describe(IDENTITY);

const CountryCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((code) => findCountry(code) !== undefined, { message: "must be an ISO 3166-1 alpha-2 country code", params: { reason: "invalid_country" } });

const NomineeAddress = z
  .strictObject({
    line1: z.string().trim().min(1).max(120).describe("Address line 1."),
    line2: z.string().trim().max(120).optional().describe("Address line 2."),
    line3: z.string().trim().max(120).optional().describe("Address line 3."),
    city: z.string().trim().min(1).max(50).describe("City."),
    state: z.string().trim().min(1).max(50).describe("State (for India its ISO 3166-2 code, MH, TG, ..., or its name)."),
    pincode: z.string().trim().min(3).max(10).describe("PIN code (6 digits in India) or postal code."),
    country: CountryCode.describe("ISO 3166-1 alpha-2 country code."),
  })
  .describe("The nominee's postal address.");

export const NomineeContact = z
  .strictObject({
    email: z.email("must be an email address").max(100).optional().describe("The nominee's email (masked in responses)."),
    mobile: z
      .string()
      .regex(/^([6-9]\d{9}|\+[1-9]\d{7,14})$/, "must be a 10-digit Indian mobile number or an international number +<country><number>")
      .optional()
      .describe("The nominee's mobile (masked in responses)."),
    address: NomineeAddress,
  })
  .describe("How to reach the nominee: at least one of email and mobile, and a postal address (stored encrypted).");

const NomineeGuardian = z
  .strictObject({
    name: PersonName.describe("The guardian's name."),
    relationship: z.enum(catalogValues("guardian_relations")).optional().describe("The guardian's relationship to the nominee (`guardian_relations` of GET /api/masters/v1/investor-options)."),
    identity: NomineeIdentity,
  })
  .describe("Required for a nominee under 18 (on today's date in India), refused otherwise: the guardian's name and identity.");

const PERCENTAGE = "The nominee's share, percent, at most 2 decimals; the nominees' shares add up to exactly 100.";

export const Nominee = z.strictObject({
  name: PersonName.describe("The nominee's name."),
  relationship: z.enum(catalogValues("nominee_relationships")).describe("One of the `nominee_relationships` values of GET /api/masters/v1/investor-options."),
  percentage: z
    .number()
    .gt(0)
    .max(100)
    .refine(atMostDecimals(2), { message: "at most 2 decimals", params: { reason: "too_many_decimals" } })
    .describe(PERCENTAGE),
  date_of_birth: PastDate.describe("Date of birth (YYYY-MM-DD)."),
  identity: NomineeIdentity,
  contact: NomineeContact,
  guardian: NomineeGuardian.optional(),
});
export type NomineeInput = z.infer<typeof Nominee>;

export const NOMINEES = `Nominees (at most ${MAX_NOMINEES}, the exchange's number), whose shares add up to 100.`;

/** An identity as responses show it. */
const IdentityView = z
  .object({
    type: z.enum(IDENTITY_TYPES).describe("The document's type."),
    number: z.string().describe("The number, masked: a PAN as ABXXXXX34F, an Aadhaar as XXXXXXXX1234, others their last 4 characters."),
  })
  .nullable()
  .describe("The identity document, masked; null for a nominee recorded before identities were required.");

export const NomineeView = z.object({
  name: z.string().describe("The nominee's name."),
  relationship: z.string().describe("The nominee's relationship to the investor (`nominee_relationships` of the investor options)."),
  percentage: z.number().describe(PERCENTAGE),
  date_of_birth: describeAfter(z.string().nullable(), "Date of birth (YYYY-MM-DD); null only for a nominee recorded without one."),
  identity: IdentityView,
  contact: z
    .object({
      email: z.string().nullable().describe("Masked email (first character and domain)."),
      mobile: z.string().nullable().describe("Masked mobile (last 4 digits)."),
      address: z.object({
        line1: z.string().describe("Address line 1."),
        line2: z.string().nullable().describe("Address line 2."),
        line3: z.string().nullable().describe("Address line 3."),
        city: z.string().describe("City."),
        state: z.string().describe("State."),
        pincode: z.string().describe("PIN or postal code."),
        country: z.string().describe("ISO 3166-1 alpha-2 country code."),
      }).describe("The postal address."),
    })
    .nullable()
    .describe("The nominee's contact; null for a nominee recorded before contacts were required."),
  guardian: z
    .object({
      name: z.string().describe("The guardian's name."),
      relationship: z.string().nullable().describe("The guardian's relationship to the nominee."),
      identity: IdentityView,
    })
    .nullable()
    .describe("The guardian of a minor nominee."),
  guardian_name: describeAfter(z.string().nullable(), "The guardian's name (kept for clients written before `guardian`)."),
});

const StoredIdentity = z.object({ type: z.enum(IDENTITY_TYPES), number: z.string() });

/**
 * A nominee as stored inside investors.details_encrypted: nominees recorded before the 2025 framework have
 * no identity or contact and may carry `guardian_name`; they are read as they are.
 */
export const StoredNominee = z.object({
  name: z.string(),
  relationship: z.enum(catalogValues("nominee_relationships")),
  percentage: z.number(),
  date_of_birth: z.string().optional(),
  identity: StoredIdentity.optional(),
  contact: z
    .object({
      email: z.string().optional(),
      mobile: z.string().optional(),
      address: z.object({
        line1: z.string(),
        line2: z.string().optional(),
        line3: z.string().optional(),
        city: z.string(),
        state: z.string(),
        pincode: z.string(),
        country: z.string(),
      }),
    })
    .optional(),
  guardian: z.object({ name: z.string(), relationship: z.enum(catalogValues("guardian_relations")).optional(), identity: StoredIdentity }).optional(),
  guardian_name: z.string().optional(),
});
export type StoredNomineeDetails = z.infer<typeof StoredNominee>;
