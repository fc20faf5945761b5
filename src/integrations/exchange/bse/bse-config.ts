/** The BSE StAR MF adapter's settings (MF_EXCHANGE=bse). */
export interface BseConfig {
  /** Scheme and host, without a trailing slash. */
  baseUrl: string;
  userId: string;
  memberId: string;
  password: string;
  /** Fixed pass key; otherwise a fresh one per login. */
  passKey: string | undefined;
  apiKey: string;
  /** EUIN sent when an order names none and is not declared execution-only. */
  euin: string | undefined;
  /** How long one call to the exchange may take. */
  timeoutMs: number;
}
