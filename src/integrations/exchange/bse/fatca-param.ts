/**
 * The FATCA upload (MFAPI flag 01, section 4 of bse-starmf-services.md): one record of 75 pipe-separated
 * fields for an individual, in FATCA's own codes (ISO countries, its tax statuses and occupations).
 */
import { INDIA_OFFSET_MS } from "../../../platform/lib/india-date.js";
import type { UccRegistration } from "../port.js";
import {
  BseMappingError,
  FATCA_ADDRESS_TYPE,
  FATCA_ID_TYPE_PAN,
  FATCA_INCOME_SLABS,
  FATCA_OCCUPATION_TYPES,
  FATCA_OCCUPATION_TYPE_OF_CODE,
  FATCA_PEPS,
  FATCA_TAX_STATUS_OF_UCC,
  FATCA_WEALTH_SOURCES,
  codeIn,
  fatcaCountryCode,
  oneOf,
} from "./codes.js";
import { fit, MONTHS, pipeSafe } from "./format.js";

const titleCase = (word: string) => word[0] + word.slice(1).toLowerCase();

export const FATCA_FIELDS = 75;

export interface FatcaUploadContext {
  /** `N` for the first upload of this PAN, `C` for a change of what was uploaded. */
  newOrChange: "N" | "C";
  /** Where and when the investor made the declaration: LOG_NAME is `IP#DD-Mon-YY;HH:MM`. */
  declaredFromIp: string;
  declaredAt: Date;
}


/** The document's example `196.15.16.107#23-Nov-15;16:4` (IP#date;time), in India's time. */
export function fatcaLogName(ip: string, at: Date): string {
  const india = new Date(at.getTime() + INDIA_OFFSET_MS);
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${pad(india.getUTCDate())}-${titleCase(MONTHS[india.getUTCMonth()]!)}-${pad(india.getUTCFullYear() % 100)}`;
  return `${ip}#${date};${pad(india.getUTCHours())}:${pad(india.getUTCMinutes())}`;
}

/**
 * The record. The reporting person is the investor, or the guardian for a minor (PAN_RP, INV_NAME); the
 * only tax residency is India with the PAN as its TIN: an investor who declares another residency
 * cannot be uploaded, since the record does not hold that country's TIN.
 */
export function fatcaParam(ucc: UccRegistration, context: FatcaUploadContext): string {
  const fields: string[] = new Array<string>(FATCA_FIELDS).fill("");
  const put = (position: number, field: string, value: string, max?: number) => {
    fields[position - 1] = pipeSafe(field, max === undefined ? value : fit(field, value, max));
  };
  if (ucc.fatca.taxResidentOtherCountry) {
    throw new BseMappingError("fatca.taxResidentOtherCountry", "true", "needs the other country's TIN and its type, which the investor record does not carry");
  }
  const reporting = ucc.guardian ?? ucc.primaryHolder;
  const reportingPath = ucc.guardian ? "guardian" : "primaryHolder";

  put(1, `${reportingPath}.pan`, reporting.pan, 10);
  put(3, `${reportingPath}.name`, reporting.name, 70);
  put(7, "taxStatus", codeIn(FATCA_TAX_STATUS_OF_UCC, "taxStatus", ucc.taxStatus));
  put(8, "dataSource", "E");
  put(9, "addressType", FATCA_ADDRESS_TYPE.residentialOrBusiness);
  put(10, "fatca.placeOfBirth", ucc.fatca.placeOfBirth, 60);
  put(11, "fatca.countryOfBirth", fatcaCountryCode("fatca.countryOfBirth", ucc.fatca.countryOfBirth));
  put(12, "taxResidency", "IN");
  put(13, `${reportingPath}.pan`, reporting.pan, 20);
  put(14, "idType", FATCA_ID_TYPE_PAN);
  put(24, "fatca.sourceOfWealth", oneOf(FATCA_WEALTH_SOURCES, "fatca.sourceOfWealth", ucc.fatca.sourceOfWealth));
  put(26, "fatca.incomeSlab", oneOf(FATCA_INCOME_SLABS, "fatca.incomeSlab", ucc.fatca.incomeSlab));
  put(29, "fatca.pep", oneOf(FATCA_PEPS, "fatca.pep", ucc.fatca.pep));
  const occupation = ucc.fatca.occupationCode;
  const impliedType = codeIn(FATCA_OCCUPATION_TYPE_OF_CODE, "fatca.occupationCode", occupation);
  put(30, "fatca.occupationCode", occupation);
  // §4.1 gives each occupation code its type; X (not categorised) is the one other type a declaration may give.
  const occupationType = oneOf(FATCA_OCCUPATION_TYPES, "fatca.occupationType", ucc.fatca.occupationType);
  if (occupationType !== impliedType && occupationType !== "X") {
    throw new BseMappingError("fatca.occupationType", occupationType, `is not the type of occupation ${occupation} (${impliedType}) or X`);
  }
  put(31, "fatca.occupationType", occupationType);
  put(42, "exchangeName", "O");
  put(43, "uboApplicable", "N");
  put(69, "selfDeclaration", "Y");
  put(70, "uboDeclaration", "N");
  put(72, "newOrChange", context.newOrChange);
  put(73, "logName", fatcaLogName(context.declaredFromIp, context.declaredAt), 30);
  return fields.join("|");
}
