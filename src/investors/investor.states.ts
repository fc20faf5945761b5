/** investors.status: a registration at the exchange (the database checks the same list). */
export const INVESTOR_STATUSES = ["PENDING", "REGISTERED", "REJECTED"] as const;
export type InvestorStatus = (typeof INVESTOR_STATUSES)[number];
