/** consent_links.status (the database checks the same list). A PENDING link past `expires_at` reads EXPIRED. */
export const CONSENT_LINK_STATUSES = ["PENDING", "CONFIRMED", "EXPIRED"] as const;
export type ConsentLinkStatus = (typeof CONSENT_LINK_STATUSES)[number];

/** investors.nomination_status (the database checks the same list). */
export const NOMINATION_STATUSES = ["NOMINATED", "OPTED_OUT", "NONE"] as const;
export type NominationStatus = (typeof NOMINATION_STATUSES)[number];

/**
 * The status of an investor whose stored one is NULL (created before the column; investors__derive_nomination sets
 * it): NOMINATED when its details name nominees, else NONE (an opt-out always stored its status).
 */
export function nominationStatusOf(stored: string | null, nomineeCount: number): string {
  return stored ?? (nomineeCount > 0 ? "NOMINATED" : "NONE");
}
