/**
 * The enhanced UCC registration (StarMFCommonAPI ClientMaster/Registration, section 3 of
 * bse-starmf-services.md): the JSON body with its `Param` string of 131 pipe-separated fields in the
 * document's order, and the reader of the answer.
 */
import { ExchangeUnavailableError, MAX_NOMINEES, type RegistrationOutcome, type UccRegistration } from "../port.js";
import {
  BseMappingError,
  UCC_ACCOUNT_TYPES,
  UCC_DECLARATIONS,
  UCC_GENDERS,
  UCC_HOLDINGS,
  UCC_KYC_TYPES,
  UCC_NOMINEE_RELATIONS,
  UCC_OCCUPATIONS,
  UCC_TAX_STATUS_ACCOUNT_TYPES,
  codeIn,
  oneOf,
  uccCountryCode,
  uccStateCode,
} from "./codes.js";
import { bseDate, fit, pipeSafe, plainDecimal, splitName, wrapAddress } from "./format.js";

export const UCC_PARAM_FIELDS = 131;

export interface BseJsonCredentials {
  userId: string;
  memberCode: string;
  password: string;
}

export interface UccRequestBody {
  UserId: string;
  MemberCode: string;
  Password: string;
  RegnType: "NEW" | "MOD";
  Param: string;
  Filler1: string;
  Filler2: string;
}

/** Dividends are paid by direct credit (02) to the default bank account: the catalog has no choice of pay mode. */
const DIVIDEND_PAY_MODE_DIRECT_CREDIT = "02";
/** Statements go by e-mail (E): every investor gives one. */
const COMMUNICATION_MODE_ELECTRONIC = "E";
/** Onboarding through the API is paperless (Z). */
const PAPERLESS = "Z";

export function buildUccRequest(credentials: BseJsonCredentials, regnType: "NEW" | "MOD", ucc: UccRegistration): UccRequestBody {
  return {
    UserId: credentials.userId,
    MemberCode: credentials.memberCode,
    Password: credentials.password,
    RegnType: regnType,
    Param: uccParam(ucc),
    Filler1: "",
    Filler2: "",
  };
}

/** The 131 fields, each at its documented position (1-based), empty ones empty. */
export function uccParam(ucc: UccRegistration): string {
  const fields: string[] = new Array<string>(UCC_PARAM_FIELDS).fill("");
  const put = (position: number, field: string, value: string, max?: number) => {
    fields[position - 1] = pipeSafe(field, max === undefined ? value : fit(field, value, max));
  };
  const holder = ucc.primaryHolder;

  put(1, "clientCode", ucc.clientCode, 10);
  const [first, middle, last] = splitName(holder.name);
  put(2, "primaryHolder.name", first, 70);
  put(3, "primaryHolder.name", middle, 70);
  put(4, "primaryHolder.name", last, 70);
  const taxStatus = ucc.taxStatus;
  const accountTypes = codeIn(UCC_TAX_STATUS_ACCOUNT_TYPES, "taxStatus", taxStatus);
  put(5, "taxStatus", taxStatus);
  put(6, "primaryHolder.gender", oneOf(UCC_GENDERS, "primaryHolder.gender", holder.gender));
  put(7, "primaryHolder.dateOfBirth", bseDate("primaryHolder.dateOfBirth", holder.dateOfBirth));
  put(8, "occupation", oneOf(UCC_OCCUPATIONS, "occupation", ucc.occupation));
  put(9, "holdingNature", oneOf(UCC_HOLDINGS, "holdingNature", ucc.holdingNature));

  if (ucc.jointHolders.length > 2) throw new BseMappingError("jointHolders", String(ucc.jointHolders.length), "holders: the UCC carries at most two joint holders");
  ucc.jointHolders.forEach((joint, i) => {
    const path = `jointHolders[${i}]`;
    const [jFirst, jMiddle, jLast] = splitName(joint.name);
    put(10 + 3 * i, `${path}.name`, jFirst, 70);
    put(11 + 3 * i, `${path}.name`, jMiddle, 70);
    put(12 + 3 * i, `${path}.name`, jLast, 70);
    put(16 + i, `${path}.dateOfBirth`, bseDate(`${path}.dateOfBirth`, joint.dateOfBirth));
    put(23 + i, `${path}.panExempt`, "N");
    put(27 + i, `${path}.pan`, joint.pan, 10);
    const kyc = oneOf(UCC_KYC_TYPES, `${path}.kycType`, joint.kycType);
    if (kyc === "C") throw new BseMappingError(`${path}.kycType`, kyc, "needs the holder's CKYC number, which the investor record does not carry");
    put(114 + 2 * i, `${path}.kycType`, kyc);
  });

  if (ucc.guardian) {
    const [gFirst, gMiddle, gLast] = splitName(ucc.guardian.name);
    put(18, "guardian.name", gFirst, 70);
    put(19, "guardian.name", gMiddle, 70);
    put(20, "guardian.name", gLast, 70);
    put(25, "guardian.panExempt", "N");
    put(29, "guardian.pan", ucc.guardian.pan, 10);
  }
  put(22, "primaryHolder.panExempt", "N");
  put(26, "primaryHolder.pan", holder.pan, 10);

  put(34, "clientType", ucc.clientType);
  if (ucc.clientType === "D") {
    const account = ucc.dematAccount;
    if (!account) throw new BseMappingError("dematAccount", "null", "is required for a demat client");
    put(35, "dematAccount.pms", "N");
    if (ucc.depository === "C") {
      put(36, "depository", "CDSL");
      put(37, "dematAccount.clientId", account.clientId.slice(0, 8), 8);
      put(38, "dematAccount.clientId", account.clientId, 16);
    } else if (ucc.depository === "N") {
      put(36, "depository", "NSDL");
      put(40, "dematAccount.dpId", account.dpId ?? "", 8);
      put(41, "dematAccount.clientId", account.clientId, 8);
    } else {
      throw new BseMappingError("depository", String(ucc.depository), "is not CDSL (C) or NSDL (N)");
    }
  }

  if (ucc.bankAccounts.length === 0 || ucc.bankAccounts.length > 5) {
    throw new BseMappingError("bankAccounts", String(ucc.bankAccounts.length), "accounts: the UCC carries 1 to 5");
  }
  // The default account goes first: field 42's account is the one the document's minimal set describes.
  const accounts = [...ucc.bankAccounts].sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
  accounts.forEach((account, i) => {
    const path = `bankAccounts[${ucc.bankAccounts.indexOf(account)}]`;
    const base = 42 + 5 * i;
    const type = oneOf(UCC_ACCOUNT_TYPES, `${path}.accountType`, account.accountType);
    if (!accountTypes.includes(type)) throw new BseMappingError(`${path}.accountType`, type, `is not allowed for tax status ${taxStatus}`);
    put(base, `${path}.accountType`, type);
    put(base + 1, `${path}.accountNumber`, account.accountNumber, 40);
    put(base + 3, `${path}.ifsc`, account.ifsc, 11);
    put(base + 4, `${path}.isDefault`, account.isDefault ? "Y" : "N");
  });

  put(68, "dividendPayMode", DIVIDEND_PAY_MODE_DIRECT_CREDIT);
  const address = ucc.address;
  const addressText = [address.line1, address.line2 ?? ""].join(" ");
  // An Indian address goes in fields 69-75, a foreign one (NRI) in 82-88; both start with three lines of 40.
  const lines = wrapAddress("address.line1", addressText, 40, 3);
  const firstLine = address.country === "IN" ? 69 : 82;
  lines.forEach((line, i) => put(firstLine + i, `address.line${i + 1}`, line));
  if (address.country === "IN") {
    put(72, "address.city", address.city, 35);
    put(73, "address.state", uccStateCode("address.state", address.state));
    put(74, "address.pincode", address.pincode, 6);
    put(75, "address.country", "INDIA");
  } else {
    put(85, "address.city", address.city, 35);
    put(86, "address.pincode", address.pincode, 10);
    put(87, "address.state", address.state, 35);
    put(88, "address.country", uccCountryCode("address.country", address.country));
  }

  put(80, "contact.email", ucc.contact.email, 50);
  put(81, "communicationMode", COMMUNICATION_MODE_ELECTRONIC);
  const mobile = indianMobile(ucc.contact.mobile);
  if (mobile) put(93, "contact.mobile", mobile);
  else put(89, "contact.mobile", ucc.contact.mobile, 15);

  if (ucc.nominees.length > MAX_NOMINEES) throw new BseMappingError("nominees", String(ucc.nominees.length), "nominees: the UCC carries at most three");
  ucc.nominees.forEach((nominee, i) => {
    const path = `nominees[${i}]`;
    // Nominee 1 has its minor flag before the date of birth; nominees 2 and 3 the other way round.
    const [name, relation, share, minorFlag, dob, guardian] = i === 0 ? [94, 95, 96, 97, 98, 99] : [100 + 6 * (i - 1), 101 + 6 * (i - 1), 102 + 6 * (i - 1), 104 + 6 * (i - 1), 103 + 6 * (i - 1), 105 + 6 * (i - 1)];
    put(name, `${path}.name`, nominee.name, 40);
    put(relation, `${path}.relation`, oneOf(UCC_NOMINEE_RELATIONS, `${path}.relation`, nominee.relation));
    put(share, `${path}.percentage`, plainDecimal(nominee.percentage));
    put(minorFlag, `${path}.minor`, nominee.minor ? "Y" : "N");
    if (nominee.dateOfBirth) put(dob, `${path}.dateOfBirth`, bseDate(`${path}.dateOfBirth`, nominee.dateOfBirth));
    if (nominee.minor) {
      if (!nominee.guardianName) throw new BseMappingError(`${path}.guardianName`, "null", "is required for a minor nominee");
      put(guardian, `${path}.guardianName`, nominee.guardianName, 35);
    }
  });

  const kyc = oneOf(UCC_KYC_TYPES, "primaryHolder.kycType", holder.kycType);
  put(112, "primaryHolder.kycType", kyc);
  if (kyc === "C") {
    if (!holder.ckycNumber) throw new BseMappingError("primaryHolder.ckycNumber", "null", "is required for KYC type C");
    put(113, "primaryHolder.ckycNumber", holder.ckycNumber, 14);
  }
  put(126, "paperlessFlag", PAPERLESS);
  if (mobile) put(129, "contact.mobileRelation", oneOf(UCC_DECLARATIONS, "contact.mobileRelation", ucc.contact.mobileRelation));
  put(130, "contact.emailRelation", oneOf(UCC_DECLARATIONS, "contact.emailRelation", ucc.contact.emailRelation));
  return fields.join("|");
}

/** The 10-digit Indian number of a mobile given as `9876543210` or `+919876543210`; null for a foreign one. */
export function indianMobile(mobile: string): string | null {
  if (/^[6-9]\d{9}$/.test(mobile)) return mobile;
  const match = /^\+91([6-9]\d{9})$/.exec(mobile);
  return match ? match[1]! : null;
}

/**
 * The answer `{Status, Remarks, Filler1, Filler2}`: Status "0" registered, "1" rejected with the remark.
 * Anything else is a malformed answer (the exchange is treated as unavailable and the job retries).
 */
export function readUccResponse(body: unknown): RegistrationOutcome {
  if (typeof body !== "object" || body === null) throw new ExchangeUnavailableError("BSE UCC registration: the answer is not a JSON object");
  const { Status: status, Remarks: remarks } = body as Record<string, unknown>;
  const remark = typeof remarks === "string" && remarks.trim() !== "" ? remarks.trim() : null;
  if (status === "0") return { status: "REGISTERED", remark };
  if (status === "1") return { status: "REJECTED", remark: remark ?? "UCC registration rejected without a remark" };
  throw new ExchangeUnavailableError(`BSE UCC registration: unexpected Status ${JSON.stringify(status)?.slice(0, 20)}`);
}
