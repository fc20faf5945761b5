import { z } from "zod";
import { CONSENT_LINK_STATUSES, NOMINATION_STATUSES } from "./consent.states.js";

const Id = (what: string) => z.string().min(1).max(64).describe(what);

/** The investor's nomination as its resource shows it (servicing.md, Nomination). */
export const NominationView = z
  .object({
    status: z
      .enum(NOMINATION_STATUSES)
      .describe(
        "NOMINATED (the investor has nominees), OPTED_OUT (the investor confirmed the opt-out declaration and has no nominees) or " +
          "NONE. A FRESH purchase, SIP or XSIP in PHYSICAL holding mode needs NOMINATED or OPTED_OUT.",
      ),
    opted_out_at: z.string().nullable().describe("When the investor confirmed the opt-out (ISO 8601); null unless OPTED_OUT."),
    evidence: z
      .object({
        confirmed_at: z.string().describe("When the investor confirmed (ISO 8601)."),
        ip: z.string().describe("The client address the confirmation came from, as the service resolved it (TRUST_PROXY_HOPS)."),
        user_agent: z.string().nullable().describe("The browser's User-Agent (up to 512 characters)."),
        declaration_version: z.string().describe("The version of the declaration text the investor confirmed."),
      })
      .nullable()
      .describe("The opt-out's evidence; null unless OPTED_OUT."),
  })
  .describe("Nominees or an opt-out the investor confirmed on a consent link (POST /api/investors/v1/{id}/nomination-opt-out).");

export const OptOutInput = z.strictObject({ id: Id("An investor id (inv_...).") });
export const ConsentIdInput = z.strictObject({ id: Id("An investor id (inv_..."), consent_id: Id("A consent link id (cns_...).") });

export const ConsentView = z.object({
  id: Id("The consent link's id (cns_...): also its capability, keep it out of logs."),
  investor_id: Id("The investor who is asked to opt out."),
  status: z.enum(CONSENT_LINK_STATUSES).describe("PENDING (waiting for the investor), CONFIRMED (the opt-out is recorded) or EXPIRED."),
  url: z.string().describe("The page to send to the investor's registered email or mobile: /consents/{id}."),
  expires_at: z.string().describe("When the link stops working (ISO 8601; 72 hours after creation)."),
  confirmed_at: z.string().nullable().describe("When the investor confirmed (ISO 8601), null until then."),
  declaration_version: z.string().nullable().describe("The declaration's version the investor confirmed, null until then."),
  created_at: z.string().describe("When the link was created (ISO 8601)."),
});
