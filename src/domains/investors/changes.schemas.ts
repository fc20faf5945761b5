import { z } from "zod";
import { catalogValues } from "../../integrations/exchange/code-tables.js";
import { Address, Contact, Fatca, InvestorId } from "./investors.schemas.js";
import { Nominee } from "./nominees.schemas.js";

/** What a change after creation may name: these, each validated exactly as at creation. */
export const CHANGEABLE_FIELDS = ["contact", "address", "fatca", "occupation", "nominees", "bank_accounts"] as const;
export type ChangeableField = (typeof CHANGEABLE_FIELDS)[number];
/** The changeable fields kept in the investor's details (bank accounts are rows of their own). */
export type DetailField = Exclude<ChangeableField, "bank_accounts">;

const PrimaryFlag = z.strictObject({
  id: z.string().min(1).max(64).describe("The bank account's id (`bank_accounts[].id`)."),
  is_primary: z.boolean().describe("Whether it is to be the primary account."),
});

const NEW_REGISTRATION = "cannot be changed after creation: a new registration (a new investor) is the honest answer";

/** A field the exchange's UCC ties to the investor's identity: present at all, it is refused (field_not_allowed). */
const refused = (what: string) =>
  z
    .unknown()
    .refine((value) => value === undefined, { message: `${what} ${NEW_REGISTRATION}`, params: { reason: "field_not_allowed" } })
    .optional()
    .describe(`Refused (field_not_allowed): ${what} ${NEW_REGISTRATION}.`);

/** The path's id and the body's fields, as one input (the path parameter and the JSON body). */
export const PatchInvestorRequest = z
  .strictObject({
    id: InvestorId,
    contact: Contact.optional().describe("New email and mobile with whose they are (all four fields)."),
    address: Address.optional().describe("The new address (the whole address)."),
    fatca: Fatca.optional().describe("The new FATCA declaration (the whole declaration; sent to the exchange again)."),
    occupation: z.enum(catalogValues("occupations")).optional().describe("The primary holder's new occupation (`occupations` of GET /api/masters/v1/investor-options)."),
    nominees: z.array(Nominee).optional().describe("The new nominees (the whole list, each with identity and contact as at creation; shares add up to 100; an empty list removes them)."),
    bank_accounts: z
      .array(PrimaryFlag)
      .min(1)
      .max(5)
      .optional()
      .describe(
        "Primary flags of the investor's bank accounts (only `is_primary` may change): the one named primary takes the place of " +
          "the investor's primary; exactly one primary after the change. Add or remove accounts with POST and DELETE " +
          "/api/investors/v1/{id}/bank-accounts.",
      ),
    pan: refused("The PAN"),
    primary_holder: refused("The primary holder's identity (PAN, name, date of birth)"),
    joint_holders: refused("The joint holders"),
    guardian: refused("The guardian"),
    tax_status: refused("The tax status"),
    holding_type: refused("The holding type"),
  })
  .superRefine((body, ctx) => {
    if (!CHANGEABLE_FIELDS.some((field) => body[field] !== undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: `name at least one of ${CHANGEABLE_FIELDS.join(", ")}`, params: { reason: "required" } });
    }
  });

export type PatchInvestorInput = Omit<z.infer<typeof PatchInvestorRequest>, "id">;
