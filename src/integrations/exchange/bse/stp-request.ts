/**
 * The enhanced STP API (section 5 of bse-starmf-services.md): one JSON body for registration (NEW) and
 * cancellation (CXL), and the reader of its answer. We register exchange STPs (EXCH), physical mode.
 */
import { ExchangeUnavailableError } from "../port.js";
import { BseMappingError, STP_FREQUENCY, codeIn } from "./codes.js";
import { bseDate, fit } from "./format.js";
import type { BseJsonCredentials } from "./ucc-param.js";

export interface StpRegistration {
  clientCode: string;
  fromSchemeCode: string;
  toSchemeCode: string;
  purchaseType: "FRESH" | "ADDITIONAL";
  folioNo: string;
  /** Our reference for the registration (at most 10 characters). */
  internalRef: string;
  startDate: string;
  frequency: keyof typeof STP_FREQUENCY;
  /** Number of transfers; 0 for a daily STP, which runs to its end date. */
  transfers: number;
  endDate: string | null;
  amount: string;
  firstOrderToday: boolean;
  euin: string | null;
  euinDeclared: boolean;
  remarks: string | null;
  subBrokerArn: string | null;
  mobile: string | null;
  email: string | null;
}

/** Field by field in the document's order (JSON keeps it; the exchange may not care). */
export interface StpRequestBody {
  LoginId: string;
  MemberCode: string;
  Password: string;
  TransType: "NEW" | "CXL";
  STPType: "EXCH";
  ClientCode: string;
  FromBSESchemeCode: string;
  ToBSESchemeCode: string;
  BuySellType: "Fresh" | "Additional";
  TransactionMode: "P";
  FolioNo: string;
  STPRegNo: string;
  IntRefNo: string;
  StartDate: string;
  FrequencyType: string;
  NoOfTransfers: string;
  InstAmount: string;
  InstUnit: string;
  FirstOrderToday: "Y" | "N";
  SubBrokerCode: string;
  EUINDeclaration: "Y" | "N";
  EUINNumber: string;
  Remarks: string;
  EndDate: string;
  SubBrokerARN: string;
  Filler1: string;
  Filler2: string;
  Filler3: string;
  Filler4: string;
  Filler5: string;
}

/**
 * NEW sends an empty STPRegNo (as the samples do); CXL repeats the registration with the number to
 * cancel, as the document's cancellation samples repeat the whole body.
 */
export function buildStpRequest(
  credentials: BseJsonCredentials,
  stp: StpRegistration,
  action: { transType: "NEW" } | { transType: "CXL"; registrationNo: string },
): StpRequestBody {
  if (!/^\d+(\.\d+)?$/.test(stp.amount)) throw new BseMappingError("amount", stp.amount, "is not a plain decimal amount");
  const daily = stp.frequency === "DAILY";
  if (daily ? stp.transfers !== 0 : !Number.isInteger(stp.transfers) || stp.transfers < 1) {
    throw new BseMappingError("transfers", String(stp.transfers), daily ? "must be 0 for a daily STP" : "is not a whole number of transfers");
  }
  if (daily !== (stp.endDate !== null)) throw new BseMappingError("endDate", String(stp.endDate), "is for (and required by) a daily STP only");
  if (action.transType === "CXL" && !/^\d+$/.test(action.registrationNo)) {
    throw new BseMappingError("registrationNo", action.registrationNo, "is not an STP registration number");
  }
  return {
    LoginId: credentials.userId,
    MemberCode: credentials.memberCode,
    Password: credentials.password,
    TransType: action.transType,
    STPType: "EXCH",
    ClientCode: fit("clientCode", stp.clientCode, 10),
    FromBSESchemeCode: fit("fromSchemeCode", stp.fromSchemeCode, 20),
    ToBSESchemeCode: fit("toSchemeCode", stp.toSchemeCode, 20),
    BuySellType: stp.purchaseType === "FRESH" ? "Fresh" : "Additional",
    TransactionMode: "P",
    FolioNo: fit("folioNo", stp.folioNo, 15),
    STPRegNo: action.transType === "CXL" ? action.registrationNo : "",
    IntRefNo: fit("internalRef", stp.internalRef, 10),
    StartDate: bseDate("startDate", stp.startDate),
    FrequencyType: codeIn(STP_FREQUENCY, "frequency", stp.frequency),
    NoOfTransfers: String(stp.transfers),
    InstAmount: stp.amount,
    InstUnit: "",
    FirstOrderToday: stp.firstOrderToday ? "Y" : "N",
    SubBrokerCode: "",
    EUINDeclaration: stp.euinDeclared ? "Y" : "N",
    EUINNumber: fit("euin", stp.euin ?? "", 7),
    Remarks: fit("remarks", stp.remarks ?? "", 100),
    EndDate: stp.endDate ? bseDate("endDate", stp.endDate) : "",
    SubBrokerARN: fit("subBrokerArn", stp.subBrokerArn ?? "", 20),
    Filler1: fit("mobile", stp.mobile ?? "", 10),
    Filler2: fit("email", stp.email ?? "", 50),
    Filler3: "",
    Filler4: "",
    Filler5: "",
  };
}

export type StpOutcome =
  | { ok: true; registrationNo: string | null; remark: string; fromOrderNo: string | null; toOrderNo: string | null; internalRef: string | null }
  | { ok: false; remark: string; internalRef: string | null };

const text = (value: unknown): string | null => {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
};

/** `{TransactionCode, STPRegNo, BSERemarks, SuccessFlag "0"|"1", IntRefNo, FromOrderNo, ToOrderNo, Filler1-5}`. */
export function readStpResponse(body: unknown): StpOutcome {
  if (typeof body !== "object" || body === null) throw new ExchangeUnavailableError("BSE STP registration: the answer is not a JSON object");
  const answer = body as Record<string, unknown>;
  const flag = text(answer.SuccessFlag);
  const remark = text(answer.BSERemarks);
  const internalRef = text(answer.IntRefNo);
  if (flag === "0") {
    const registrationNo = text(answer.STPRegNo);
    return {
      ok: true,
      registrationNo: registrationNo === "0" ? null : registrationNo,
      remark: remark ?? "",
      fromOrderNo: text(answer.FromOrderNo),
      toOrderNo: text(answer.ToOrderNo),
      internalRef,
    };
  }
  if (flag === "1") return { ok: false, remark: remark ?? "STP request rejected without a remark", internalRef };
  throw new ExchangeUnavailableError(`BSE STP registration: unexpected SuccessFlag ${JSON.stringify(answer.SuccessFlag)?.slice(0, 20)}`);
}
