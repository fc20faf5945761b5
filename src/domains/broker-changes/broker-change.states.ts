/** broker_changes.status (the database checks the same list). */
export const BROKER_CHANGE_STATUSES = ["PENDING_DOCUMENT", "SUBMITTED", "REJECTED"] as const;
export type BrokerChangeStatus = (typeof BROKER_CHANGE_STATUSES)[number];

