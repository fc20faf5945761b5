/** broker_changes.status (the database checks the same list). */
export const BROKER_CHANGE_STATUSES = ["PENDING_DOCUMENT", "SUBMITTED", "REJECTED"] as const;
export type BrokerChangeStatus = (typeof BROKER_CHANGE_STATUSES)[number];

/** broker_changes.auth_mode: the investor signs the paper form, or confirms with the registrar (OTP). */
export const AUTH_MODES = ["WET_SIGNATURE", "TWO_FA"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** broker_changes.two_fa_channel: where the registrar sends a TWO_FA request's confirmation. */
export const TWO_FA_CHANNELS = ["EMAIL", "SMS"] as const;
export type TwoFaChannel = (typeof TWO_FA_CHANNELS)[number];

/** broker_change_documents.content_type: what the signed form may be, judged by its bytes. */
export const DOCUMENT_CONTENT_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];
