/** broker_changes.auth_mode: the investor signs the paper form, or confirms with the registrar (OTP). */
export const AUTH_MODES = ["WET_SIGNATURE", "TWO_FA"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** broker_changes.two_fa_channel: where the registrar sends a TWO_FA request's confirmation. */
export const TWO_FA_CHANNELS = ["EMAIL", "SMS"] as const;
export type TwoFaChannel = (typeof TWO_FA_CHANNELS)[number];

/** broker_change_documents.content_type: what the signed form may be, judged by its bytes. */
export const DOCUMENT_CONTENT_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/**
 * What the service hands the registrar (CAMS or KFintech, whichever services the AMC) for a SUBMITTED
 * broker change request. Called only from the submit job, never inside a request.
 */
export interface BrokerChangeSubmission {
  id: string;
  amcCode: string;
  folioNo: string;
  /** The folio holder's PAN, in clear: the registrar matches it to the folio. Never logged or booked unmasked. */
  pan: string;
  authMode: AuthMode;
  twoFaChannel: TwoFaChannel | null;
  /** The ARN the folio moves to. */
  brokerCode: string;
  euin: string | null;
  subBrokerCode: string | null;
  riaCode: string | null;
  /** WET_SIGNATURE: the signed form. */
  document: { contentType: DocumentContentType; size: number; sha256: string; bytes: Uint8Array } | null;
}

/** The registrar took the request: its own reference, when it gives one. */
export interface RegistrarReceipt {
  reference: string | null;
}

/**
 * The registrar, as one interface. Implementations: the sandbox registrar (in the service, books what it
 * receives; a simulation endpoint rejects it); in production the registrars take broker changes on paper or in
 * their own portals, not by API, so the production side logs the hand-over (masked) for an operator and the
 * outcome is recorded by hand.
 */
export interface RegistrarPort {
  submitBrokerChange(submission: BrokerChangeSubmission): Promise<RegistrarReceipt>;
}
