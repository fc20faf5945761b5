/** mandates.status and mandates.mandate_type (the database checks the same lists). */
export const MANDATE_STATUSES = ["PENDING", "REGISTERED", "REJECTED", "CANCELLED"] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

export const MANDATE_TYPES = ["ENACH", "PHYSICAL"] as const;
export type MandateType = (typeof MANDATE_TYPES)[number];
