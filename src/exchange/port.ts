/**
 * Everything the service asks of the exchange (BSE StAR MF), as one interface. The service calls it
 * only from jobs, never inside a request. Implementations: the sandbox (inside the service, for
 * development and tests); a production implementation speaks the exchange's web services.
 *
 * The orders issue extends this interface with order entry, order cancellation, payments, order
 * status and allotment reports.
 */

/** What the exchange says about a registration (UCC or mandate). */
export type RegistrationOutcome =
  | { status: "PENDING"; remark: string | null }
  | { status: "REGISTERED"; remark: string | null }
  | { status: "REJECTED"; remark: string };

/** The UCC (client master) record, in the exchange's own codes. */
export interface UccRegistration {
  clientCode: string;
  taxStatus: string;
  holdingNature: string;
  occupation: string;
  clientType: "P" | "D";
  depository: "C" | "N" | null;
  primaryHolder: { pan: string; name: string; dateOfBirth: string; gender: string; kycType: string; ckycNumber: string | null };
  jointHolders: Array<{ pan: string; name: string; dateOfBirth: string; kycType: string }>;
  guardian: { name: string; pan: string; relation: string } | null;
  contact: { email: string; mobile: string; emailRelation: string; mobileRelation: string };
  address: { line1: string; line2: string | null; city: string; state: string; pincode: string; country: string };
  bankAccounts: Array<{ accountType: string; accountNumber: string; ifsc: string; isDefault: boolean }>;
  nominees: Array<{ name: string; relation: string; percentage: number; minor: boolean; guardianName: string | null }>;
  fatca: {
    occupationType: string;
    incomeSlab: string;
    pep: string;
    sourceOfWealth: string;
    countryOfBirth: string;
    placeOfBirth: string;
    taxResidentOtherCountry: boolean;
  };
}

export interface MandateRegistration {
  mandateId: string;
  clientCode: string;
  mandateType: "ENACH" | "PHYSICAL";
  amountLimit: string;
  startDate: string;
  endDate: string | null;
  bank: { accountNumber: string; ifsc: string; accountType: string };
}

/** The exchange could not be reached or answered nonsense; the job retries. */
export class ExchangeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExchangeUnavailableError";
  }
}

export interface ExchangePort {
  registerInvestor(ucc: UccRegistration): Promise<RegistrationOutcome>;
  investorStatus(clientCode: string): Promise<RegistrationOutcome>;
  registerMandate(mandate: MandateRegistration): Promise<RegistrationOutcome & { exchangeMandateId: string | null }>;
  mandateStatus(mandateId: string): Promise<RegistrationOutcome>;
  cancelMandate(mandateId: string): Promise<{ cancelled: true } | { cancelled: false; remark: string }>;
}
