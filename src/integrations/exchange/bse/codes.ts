/**
 * Our values -> BSE StAR MF's codes (web-service structure v3.1). The UCC registration and the FATCA
 * upload use different tables (states, countries, tax statuses, occupations), so each has its own.
 * Tables keyed by our closed sets are `Record`s: a value added to the catalog without its exchange code
 * is a compile error. What the port hands us as a code is checked against the exchange's table, and a
 * value with no code throws a BseMappingError naming the field.
 */
import type { CatalogValue } from "../code-tables.js";

/** A value the exchange's tables cannot carry: the registration cannot be sent as it is. */
export class BseMappingError extends Error {
  readonly field: string;
  readonly value: string;

  constructor(field: string, value: string, reason = "has no code in the exchange's table") {
    super(`${field}: ${JSON.stringify(value)} ${reason}`);
    this.name = "BseMappingError";
    this.field = field;
    this.value = value;
  }
}

/** The code of `value` in `table`, or a BseMappingError naming the field. */
export function codeIn<K extends string, C>(table: Readonly<Record<K, C>>, field: string, value: string): C {
  if (!Object.hasOwn(table, value)) throw new BseMappingError(field, value);
  return table[value as K];
}

/** Checks that a code the port hands over is one of the exchange's. */
export function oneOf<const C extends string>(codes: readonly C[], field: string, value: string): C {
  if (!(codes as readonly string[]).includes(value)) throw new BseMappingError(field, value, "is not one of the exchange's codes");
  return value as C;
}

/** Our ISO 3166-2:IN state codes (masters/geography.ts, after the 2023 revision). */
export type IndianStateIso =
  | "AN" | "AP" | "AR" | "AS" | "BR" | "CH" | "CG" | "DH" | "DL" | "GA" | "GJ" | "HR" | "HP" | "JK" | "JH" | "KA" | "KL" | "LA"
  | "LD" | "MP" | "MH" | "MN" | "ML" | "MZ" | "NL" | "OD" | "PY" | "PB" | "RJ" | "SK" | "TN" | "TG" | "TR" | "UP" | "UK" | "WB";

/**
 * UCC field 73 (section 3.4's 37 codes). The table predates three changes: Dadra and Nagar Haveli and
 * Daman and Diu merged (DH -> DN, the first of its two old rows), Ladakh split from Jammu and Kashmir
 * (no row: Others), Telangana is there as TG.
 */
export const UCC_STATE: Readonly<Record<IndianStateIso, string>> = {
  AN: "AN", AP: "AP", AR: "AR", AS: "AS", BR: "BH", CH: "CH", CG: "CG", DH: "DN", DL: "ND", GA: "GO", GJ: "GU", HR: "HA",
  HP: "HP", JK: "JM", JH: "JK", KA: "KA", KL: "KE", LA: "OH", LD: "LD", MP: "MP", MH: "MA", MN: "MN", ML: "ME", MZ: "MI",
  NL: "NA", OD: "OR", PY: "PO", PB: "PU", RJ: "RA", SK: "SI", TN: "TN", TG: "TG", TR: "TR", UP: "UP", UK: "UC", WB: "WB",
};

/** FATCA state codes (section 4.1): no Telangana and no Ladakh row (both Others, XX). */
export const FATCA_STATE: Readonly<Record<IndianStateIso, string>> = {
  AN: "AN", AP: "AP", AR: "AR", AS: "AS", BR: "BR", CH: "CH", CG: "CG", DH: "DN", DL: "DL", GA: "GA", GJ: "GJ", HR: "HR",
  HP: "HP", JK: "JK", JH: "JH", KA: "KA", KL: "KL", LA: "XX", LD: "LD", MP: "MP", MH: "MH", MN: "MN", ML: "ML", MZ: "MZ",
  NL: "NL", OD: "OR", PY: "PY", PB: "PB", RJ: "RJ", SK: "SK", TN: "TN", TG: "XX", TR: "TR", UP: "UP", UK: "UA", WB: "WB",
};

/**
 * UCC country codes (field 88): the document's 3-digit serials (001 Afghanistan ... 243 Zimbabwe) by ISO
 * 3166-1 alpha-2 code. Countries the list predates take their old row (Serbia and Montenegro 193 for RS
 * and ME; Netherlands Antilles 155 for BQ, CW, SX); BL, MF, SS and XK have none.
 */
export const UCC_COUNTRY: Readonly<Record<string, string>> = {
  AD: "006", AE: "228", AF: "001", AG: "010", AI: "008", AL: "003", AM: "012", AO: "007", AQ: "009", AR: "011",
  AS: "005", AT: "015", AU: "014", AW: "013", AX: "002", AZ: "016", BA: "028", BB: "020", BD: "019", BE: "022",
  BF: "035", BG: "034", BH: "018", BI: "036", BJ: "024", BM: "025", BN: "033", BO: "027", BQ: "155", BR: "031",
  BS: "017", BT: "026", BV: "030", BW: "029", BY: "021", BZ: "023", CA: "039", CC: "047", CD: "051", CF: "042",
  CG: "050", CH: "210", CI: "054", CK: "052", CL: "044", CM: "038", CN: "045", CO: "048", CR: "053", CU: "056",
  CV: "040", CW: "155", CX: "046", CY: "057", CZ: "058", DE: "081", DJ: "060", DK: "059", DM: "061", DO: "062",
  DZ: "004", EC: "063", EE: "068", EG: "064", EH: "240", ER: "067", ES: "203", ET: "069", FI: "073", FJ: "072",
  FK: "070", FM: "143", FO: "071", FR: "074", GA: "078", GB: "229", GD: "086", GE: "080", GF: "075", GG: "090",
  GH: "082", GI: "083", GL: "085", GM: "079", GN: "091", GP: "087", GQ: "066", GR: "084", GS: "202", GT: "089",
  GU: "088", GW: "092", GY: "093", HK: "098", HM: "095", HN: "097", HR: "055", HT: "094", HU: "099", ID: "102",
  IE: "105", IL: "107", IM: "106", IN: "101", IO: "032", IQ: "104", IR: "103", IS: "100", IT: "108", JE: "111",
  JM: "109", JO: "112", JP: "110", KE: "114", KG: "119", KH: "037", KI: "115", KM: "049", KN: "184", KP: "116",
  KR: "117", KW: "118", KY: "041", KZ: "113", LA: "120", LB: "122", LC: "185", LI: "126", LK: "204", LR: "124",
  LS: "123", LT: "127", LU: "128", LV: "121", LY: "125", MA: "148", MC: "145", MD: "144", ME: "193", MG: "131",
  MH: "137", MK: "130", ML: "135", MM: "150", MN: "146", MO: "129", MP: "163", MQ: "138", MR: "139", MS: "147",
  MT: "136", MU: "140", MV: "134", MW: "132", MX: "142", MY: "133", MZ: "149", NA: "151", NC: "156", NE: "159",
  NF: "162", NG: "160", NI: "158", NL: "154", NO: "164", NP: "153", NR: "152", NU: "161", NZ: "157", OM: "165",
  PA: "169", PE: "172", PF: "076", PG: "170", PH: "173", PK: "166", PL: "175", PM: "186", PN: "174", PR: "177",
  PS: "168", PT: "176", PW: "167", PY: "171", QA: "178", RE: "179", RO: "180", RS: "193", RU: "181", RW: "182",
  SA: "191", SB: "199", SC: "194", SD: "205", SE: "209", SG: "196", SH: "183", SI: "198", SJ: "207", SK: "197",
  SL: "195", SM: "189", SN: "192", SO: "200", SR: "206", ST: "190", SV: "065", SX: "155", SY: "211", SZ: "208",
  TC: "224", TD: "043", TF: "077", TG: "217", TH: "215", TJ: "213", TK: "218", TL: "216", TM: "223", TN: "221",
  TO: "219", TR: "222", TT: "220", TV: "225", TW: "212", TZ: "214", UA: "227", UG: "226", UM: "231", US: "230",
  UY: "232", UZ: "233", VA: "096", VC: "187", VE: "235", VG: "237", VI: "238", VN: "236", VU: "234", WF: "239",
  WS: "188", YE: "241", YT: "141", ZA: "201", ZM: "242", ZW: "243",
};

/**
 * FATCA country codes (CO_BIR_INC, TAX_RES1..4, UBO_NATION...): ISO alpha-2 as the document's 252 rows
 * list them (with AN Netherlands Antilles, XX Not categorised and ZZ Others).
 */
export const FATCA_COUNTRIES = [
  "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AN", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ", "BA", "BB", "BD",
  "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS", "BT", "BV", "BW", "BY", "BZ", "CA", "CC",
  "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK",
  "DM", "DO", "DZ", "EC", "EE", "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE",
  "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT",
  "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM",
  "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD",
  "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ",
  "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL",
  "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC", "SD", "SE", "SG", "SH",
  "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ",
  "TK", "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG",
  "VI", "VN", "VU", "WF", "WS", "XX", "YE", "YT", "ZA", "ZM", "ZW", "ZZ",
] as const;

export type FatcaCountry = (typeof FATCA_COUNTRIES)[number];

/** UCC tax statuses (section 3.4) with the bank account types each allows. */
export const UCC_TAX_STATUS_ACCOUNT_TYPES: Readonly<Record<string, readonly UccAccountType[]>> = {
  "01": ["SB", "CB"], "02": ["SB", "CB"], "03": ["SB", "CB"], "11": ["NE", "NO"], "13": ["SB", "CB"], "21": ["NE"], "24": ["NO"],
  "26": ["NE", "NO"], "27": ["NO"], "28": ["NO"], "29": ["NE"], "61": ["NE"], "62": ["NO"], "76": ["NE"], "77": ["NO"],
};

/** Our tax statuses in UCC and in FATCA: the codes happen to agree for the three we offer, the tables do not. */
export const UCC_TAX_STATUS: Readonly<Record<CatalogValue<"tax_statuses">, string>> = { INDIVIDUAL: "01", MINOR: "02", NRI: "11" };
export const FATCA_TAX_STATUS_OF_UCC: Readonly<Record<string, string>> = { "01": "01", "02": "02", "11": "11" };

export const UCC_ACCOUNT_TYPES = ["SB", "CB", "NE", "NO"] as const;
export type UccAccountType = (typeof UCC_ACCOUNT_TYPES)[number];
export const UCC_ACCOUNT_TYPE: Readonly<Record<CatalogValue<"bank_account_types">, UccAccountType>> = { SB: "SB", CB: "CB", NE: "NE", NO: "NO" };

export const UCC_HOLDING: Readonly<Record<CatalogValue<"holding_types">, string>> = { SINGLE: "SI", JOINT: "JO", ANYONE_OR_SURVIVOR: "AS" };
export const UCC_HOLDINGS = ["SI", "JO", "AS"] as const;

export const UCC_GENDERS = ["M", "F", "O"] as const;

/** UCC field 8 takes 01-08: the service sub-types and doctors are Services (02), forex dealers Business (01). */
export const UCC_OCCUPATION: Readonly<Record<CatalogValue<"occupations">, string>> = {
  BUSINESS: "01", SERVICE: "02", PROFESSIONAL: "03", AGRICULTURIST: "04", RETIRED: "05", HOUSEWIFE: "06", STUDENT: "07", OTHERS: "08",
  DOCTOR: "02", PRIVATE_SECTOR_SERVICE: "02", PUBLIC_SECTOR_SERVICE: "02", FOREX_DEALER: "01", GOVERNMENT_SERVICE: "02",
};
export const UCC_OCCUPATIONS = ["01", "02", "03", "04", "05", "06", "07", "08"] as const;

/** FATCA OCC_CODE keeps the full list, each with the OCC_TYPE the document says it implies. */
export const FATCA_OCCUPATION: Readonly<Record<CatalogValue<"occupations">, string>> = {
  BUSINESS: "01", SERVICE: "02", PROFESSIONAL: "03", AGRICULTURIST: "04", RETIRED: "05", HOUSEWIFE: "06", STUDENT: "07", OTHERS: "08",
  DOCTOR: "09", PRIVATE_SECTOR_SERVICE: "41", PUBLIC_SECTOR_SERVICE: "42", FOREX_DEALER: "43", GOVERNMENT_SERVICE: "44",
};
export const FATCA_OCCUPATION_TYPE_OF_CODE: Readonly<Record<string, "S" | "B" | "O">> = {
  "01": "B", "02": "S", "03": "S", "04": "S", "05": "O", "06": "O", "07": "O", "08": "O", "09": "S", "41": "S", "42": "S", "43": "B", "44": "S", "99": "O",
};
export const FATCA_OCCUPATION_TYPE: Readonly<Record<CatalogValue<"fatca_occupation_types">, string>> = { SERVICE: "S", BUSINESS: "B", OTHERS: "O", NOT_CATEGORISED: "X" };
export const FATCA_OCCUPATION_TYPES = ["S", "B", "O", "X"] as const;

/** UCC fields 112-118: K KRA, C CKYC, B biometric, E Aadhaar eKYC. */
export const UCC_KYC_TYPE: Readonly<Record<CatalogValue<"kyc_types">, string>> = { KRA: "K", CKYC: "C", EKYC: "E" };
export const UCC_KYC_TYPES = ["K", "C", "B", "E"] as const;

/** UCC fields 129-130, the mobile and email declarations (the document's list also has PM, CD, PO). */
export const UCC_DECLARATION: Readonly<Record<CatalogValue<"contact_relations">, string>> = {
  SELF: "SE", SPOUSE: "SP", DEPENDENT_CHILD: "DC", DEPENDENT_SIBLING: "DS", DEPENDENT_PARENT: "DP", GUARDIAN: "GD",
};
export const UCC_DECLARATIONS = ["SE", "SP", "DC", "DS", "DP", "GD", "PM", "CD", "PO"] as const;

/** Nominee relationships (UCC 95, 101, 107), the catalog's 01-23. */
export const UCC_NOMINEE_RELATION: Readonly<Record<CatalogValue<"nominee_relationships">, string>> = {
  AUNT: "01", BROTHER_IN_LAW: "02", BROTHER: "03", DAUGHTER: "04", DAUGHTER_IN_LAW: "05", FATHER: "06", FATHER_IN_LAW: "07",
  GRANDDAUGHTER: "08", GRANDFATHER: "09", GRANDMOTHER: "10", GRANDSON: "11", MOTHER_IN_LAW: "12", MOTHER: "13", NEPHEW: "14",
  NIECE: "15", SISTER: "16", SISTER_IN_LAW: "17", SON: "18", SON_IN_LAW: "19", SPOUSE: "20", UNCLE: "21", OTHERS: "22",
  COURT_APPOINTED_LEGAL_GUARDIAN: "23",
};
export const UCC_NOMINEE_RELATIONS = Object.values(UCC_NOMINEE_RELATION);

export const FATCA_INCOME_SLAB: Readonly<Record<CatalogValue<"income_slabs">, string>> = { "31": "31", "32": "32", "33": "33", "34": "34", "35": "35", "36": "36" };
export const FATCA_INCOME_SLABS = ["31", "32", "33", "34", "35", "36"] as const;

export const FATCA_PEP: Readonly<Record<CatalogValue<"pep_options">, string>> = { YES: "Y", NO: "N", RELATED: "R" };
export const FATCA_PEPS = ["Y", "N", "R"] as const;

export const FATCA_WEALTH_SOURCE: Readonly<Record<CatalogValue<"wealth_sources">, string>> = {
  SALARY: "01", BUSINESS_INCOME: "02", GIFT: "03", ANCESTRAL_PROPERTY: "04", RENTAL_INCOME: "05", PRIZE_MONEY: "06", ROYALTY: "07", OTHERS: "08",
};
export const FATCA_WEALTH_SOURCES = ["01", "02", "03", "04", "05", "06", "07", "08"] as const;

/** FATCA ADDR_TYPE: 1 residential or business, 2 residential, 3 business, 4 registered office, 5 unspecified. */
export const FATCA_ADDRESS_TYPE = { residentialOrBusiness: "1", residential: "2", business: "3", registeredOffice: "4", unspecified: "5" } as const;

/** FATCA ID1..4_TYPE: C is the PAN card. */
export const FATCA_ID_TYPE_PAN = "C";

/** MFAPI flag 06 mandate types: X XSIP (physical), I ISIP, N net banking (e-mandate). */
export const MANDATE_TYPE: Readonly<Record<"ENACH" | "PHYSICAL", "N" | "X">> = { ENACH: "N", PHYSICAL: "X" };

/** SWP (flag 08) and STP frequencies as the document writes them. */
export const SWP_FREQUENCY: Readonly<Record<"WEEKLY" | "MONTHLY" | "QUARTERLY", string>> = { WEEKLY: "Weekly", MONTHLY: "Monthly", QUARTERLY: "Quarterly" };
export const STP_FREQUENCY: Readonly<Record<"DAILY" | "WEEKLY" | "MONTHLY" | "QUARTERLY", string>> = { DAILY: "Daily", WEEKLY: "Weekly", MONTHLY: "Monthly", QUARTERLY: "Quarterly" };

/** The UCC's Indian state code for one of ours. */
export function uccStateCode(field: string, iso: string): string {
  return codeIn(UCC_STATE, field, iso);
}

export function fatcaStateCode(field: string, iso: string): string {
  return codeIn(FATCA_STATE, field, iso);
}

export function uccCountryCode(field: string, iso: string): string {
  return codeIn(UCC_COUNTRY, field, iso);
}

export function fatcaCountryCode(field: string, iso: string): FatcaCountry {
  return oneOf(FATCA_COUNTRIES, field, iso);
}
