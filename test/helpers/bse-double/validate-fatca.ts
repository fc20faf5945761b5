/**
 * A FATCA record (MFAPI flag 01, section 4 of bse-starmf-services.md) as the exchange checks it: 75
 * fields, the mandatory set for an individual or a non-individual, the code tables. Returns the failure
 * remark of the first broken rule, or null.
 */
import { PAN, checkField, invalid, mandatory, type FieldRule } from "./validate-common.js";

/** Section 4.1: ISO alpha-2 codes of the document's 252 rows (AN, XX and ZZ included). */
const COUNTRIES = new Set(
  (
    "AD AE AF AG AI AL AM AN AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG " +
    "CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM " +
    "GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC " +
    "LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ " +
    "OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC " +
    "TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XX YE YT ZA ZM ZW ZZ"
  ).split(" "),
);
const COUNTRY_LIST = [...COUNTRIES];
/** FATCA tax statuses: the UCC codes with FATCA's differences (14, 15 added; 77 absent). Retail ones are individuals. */
const RETAIL = ["01", "02", "03", "11", "21", "24", "26", "27", "28", "29", "41", "42", "61", "62", "70"];
const CORPORATE = [
  "04", "05", "06", "07", "08", "09", "10", "12", "13", "14", "15", "22", "23", "25", "31", "32", "33", "34", "36", "37", "38", "39",
  "43", "44", "45", "46", "47", "48", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "72", "73", "74", "75", "76",
];
/** FATCA occupation codes (§4.1) and the type each implies: B business, S service, O others. */
const OCCUPATION_TYPE: Record<string, string> = {
  "01": "B", "02": "S", "03": "S", "04": "S", "05": "O", "06": "O", "07": "O", "08": "O", "09": "S", "41": "S", "42": "S", "43": "B", "44": "S", "99": "O",
};
const OCCUPATIONS = Object.keys(OCCUPATION_TYPE);
const ID_TYPES = ["A", "B", "C", "D", "E", "G", "H", "O", "X", "T", "C1", "G1", "E1"];
const YN = ["Y", "N"];
/** `IP#DD-Mon-YY;HH:MM` as in the document's example `196.15.16.107#23-Nov-15;16:4`. */
const LOG_NAME = /^[^#|]+#\d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2};\d{1,2}:\d{1,2}$/;

const FIELDS: Record<number, FieldRule> = {
  1: { name: "PAN_RP", max: 10, pattern: PAN },
  2: { name: "PEKRN", max: 10 },
  3: { name: "INV_NAME", max: 70, mandatory: true },
  4: { name: "DOB", date: true },
  5: { name: "FR_NAME", max: 70 },
  6: { name: "SP_NAME", max: 70 },
  7: { name: "TAX_STATUS", mandatory: true, codes: [...RETAIL, ...CORPORATE] },
  8: { name: "DATA_SRC", mandatory: true, codes: ["E", "P"] },
  9: { name: "ADDR_TYPE", mandatory: true, codes: ["1", "2", "3", "4", "5"] },
  10: { name: "PO_BIR_INC", max: 60, mandatory: true },
  11: { name: "CO_BIR_INC", mandatory: true, codes: COUNTRY_LIST },
  12: { name: "TAX_RES1", mandatory: true, codes: COUNTRY_LIST },
  13: { name: "TPIN1", max: 20, mandatory: true },
  14: { name: "ID1_TYPE", mandatory: true, codes: ID_TYPES },
  15: { name: "TAX_RES2", codes: COUNTRY_LIST },
  16: { name: "TPIN2", max: 20 },
  17: { name: "ID2_TYPE", codes: ID_TYPES },
  18: { name: "TAX_RES3", codes: COUNTRY_LIST },
  19: { name: "TPIN3", max: 20 },
  20: { name: "ID3_TYPE", codes: ID_TYPES },
  21: { name: "TAX_RES4", codes: COUNTRY_LIST },
  22: { name: "TPIN4", max: 20 },
  23: { name: "ID4_TYPE", codes: ID_TYPES },
  24: { name: "SRCE_WEALT", mandatory: true, codes: ["01", "02", "03", "04", "05", "06", "07", "08"] },
  25: { name: "CORP_SERVS", codes: ["01", "02", "03", "04"] },
  26: { name: "INC_SLAB", mandatory: true, codes: ["31", "32", "33", "34", "35", "36"] },
  27: { name: "NET_WORTH", pattern: /^\d{1,17}(\.\d{1,2})?$/ },
  28: { name: "NW_DATE", date: true },
  29: { name: "PEP_FLAG", codes: ["Y", "N", "R"] },
  30: { name: "OCC_CODE", mandatory: true, codes: OCCUPATIONS },
  31: { name: "OCC_TYPE", mandatory: true, codes: ["S", "B", "O", "X"] },
  32: { name: "EXEMP_CODE", codes: "ABCDEFGHIJKLMN".split("") },
  33: { name: "FFI_DRNFE", codes: ["FFI", "DRNFE", "NA"] },
  34: { name: "GIIN_NO", max: 19 },
  35: { name: "SPR_ENTITY", max: 60 },
  36: { name: "GIIN_NA", codes: ["AF", "NR", "NO"] },
  37: { name: "GIIN_EXEMC", codes: Array.from({ length: 14 }, (_, i) => String(i + 1)) },
  38: { name: "NFFE_CATG", codes: ["L", "RL", "A", "P", "NA"] },
  39: { name: "ACT_NFE_SC", codes: ["01", "02", "03", "04", "05", "06", "07"] },
  40: { name: "NATURE_BUS", max: 30 },
  41: { name: "REL_LISTED", max: 70 },
  42: { name: "EXCH_NAME", mandatory: true, codes: ["B", "N", "O"] },
  43: { name: "UBO_APPL", mandatory: true, codes: YN },
  44: { name: "UBO_COUNT", max: 3, pattern: /^\d+$/ },
  45: { name: "UBO_NAME", max: 70 },
  46: { name: "UBO_PAN", pattern: PAN },
  47: { name: "UBO_NATION", codes: COUNTRY_LIST },
  52: { name: "UBO_PIN", max: 6 },
  55: { name: "UBO_ADD_TY", codes: ["1", "2", "3", "4", "5"] },
  60: { name: "UBO_DOB", date: true },
  61: { name: "UBO_GENDER", codes: ["M", "F", "O"] },
  63: { name: "UBO_OCC", codes: OCCUPATIONS },
  64: { name: "UBO_OCC_TY", codes: ["S", "B", "O", "X"] },
  67: { name: "UBO_CODE", codes: Array.from({ length: 14 }, (_, i) => `C${String(i + 1).padStart(2, "0")}`) },
  68: { name: "UBO_HOL_PC", pattern: /^(100|\d{1,2})$/ },
  69: { name: "SDF_FLAG", codes: YN },
  70: { name: "UBO_DF", mandatory: true, codes: YN },
  71: { name: "AADHAAR_RP", max: 30 },
  72: { name: "NEW_CHANGE", codes: ["N", "C"] },
  73: { name: "LOG_NAME", max: 30 },
  74: { name: "FILLER1", max: 30 },
  75: { name: "FILLER2", max: 30 },
};

export function validateFatcaParam(param: string): string | null {
  const f = param.split("|");
  if (f.length !== 75) return "FAILED: INVALID PARAM STRING FORMAT";
  const at = (position: number) => f[position - 1]!;
  for (const [position, rule] of Object.entries(FIELDS)) {
    const failure = checkField(rule, at(Number(position)));
    if (failure) return failure;
  }
  if (at(1) === "" && at(2) === "") return mandatory("PAN_RP");
  if (at(1) === "") {
    for (const [position, name] of [[4, "DOB"], [5, "FR_NAME"], [6, "SP_NAME"]] as const) if (at(position) === "") return mandatory(name);
  }
  // §4.1: each occupation code implies its type; X (not categorised) is the other type allowed.
  if (at(31) !== "X" && at(31) !== OCCUPATION_TYPE[at(30)]) return invalid("OCC_TYPE");
  const individual = RETAIL.includes(at(7));
  if (individual && at(29) === "") return mandatory("PEP_FLAG");
  if (individual && at(69) === "") return mandatory("SDF_FLAG");
  if (!individual) {
    for (const [position, name] of [[25, "CORP_SERVS"], [27, "NET_WORTH"], [28, "NW_DATE"], [32, "EXEMP_CODE"], [33, "FFI_DRNFE"], [38, "NFFE_CATG"], [69, "SDF_FLAG"], [72, "NEW_CHANGE"]] as const) {
      if (at(position) === "") return mandatory(name);
    }
    if ((at(38) === "A" || at(38) === "P") && at(40) === "") return mandatory("NATURE_BUS");
  }
  if (at(43) === "Y") {
    for (const [position, name] of [[44, "UBO_COUNT"], [45, "UBO_NAME"], [47, "UBO_NATION"], [48, "UBO_ADD1"], [51, "UBO_CITY"], [52, "UBO_PIN"], [53, "UBO_STATE"], [54, "UBO_CNTRY"], [55, "UBO_ADD_TY"], [56, "UBO_CTR"], [58, "UBO_ID_TY"], [59, "UBO_COB"], [67, "UBO_CODE"]] as const) {
      if (at(position) === "") return mandatory(name);
    }
    if (at(46) === "" && at(57) === "") return mandatory("UBO_PAN");
  }
  // A second, third or fourth tax residency comes whole: country, TIN and its type together.
  for (const base of [15, 18, 21]) {
    const given = [at(base), at(base + 1), at(base + 2)].filter((v) => v !== "").length;
    if (given !== 0 && given !== 3) return mandatory(FIELDS[at(base) === "" ? base : at(base + 1) === "" ? base + 1 : base + 2]!.name);
  }
  if (at(8) === "E") {
    if (at(73) === "") return mandatory("LOG_NAME");
    if (!LOG_NAME.test(at(73))) return "FAILED: INVALID LOG_NAME";
  }
  return null;
}
