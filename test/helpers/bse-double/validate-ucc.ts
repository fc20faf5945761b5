/**
 * The enhanced UCC registration as the exchange checks it (section 3 of bse-starmf-services.md): the
 * JSON body, then the 131 fields of `Param` with their conditions. Returns the failure remark of the
 * first broken rule, or null.
 */
import { EMAIL, IFSC, MOBILE, PAN, PINCODE, checkField, invalid, mandatory, type FieldRule } from "./validate-common.js";

/** Section 3.4: tax status -> allowed account types. */
const TAX_STATUS_ACCOUNTS: Record<string, string[]> = {
  "01": ["SB", "CB"], "02": ["SB", "CB"], "03": ["SB", "CB"], "04": ["CB"], "05": ["CB"], "06": ["CB"], "07": ["CB"], "08": ["CB"],
  "09": ["CB"], "10": ["CB"], "11": ["NE", "NO"], "12": ["CB"], "13": ["SB", "CB"], "21": ["NE"], "22": ["CB"], "23": ["NE", "NO"],
  "24": ["NO"], "25": ["NE", "NO"], "26": ["NE", "NO"], "27": ["NO"], "28": ["NO"], "29": ["NE"], "31": ["CB"], "32": ["CB"],
  "33": ["CB"], "34": ["CB"], "36": ["CB"], "37": ["CB"], "38": ["NE", "NO"], "39": ["NE", "NO"], "41": ["NE", "NO"],
  "42": ["NE", "NO"], "43": ["CB"], "44": ["CB"], "45": ["CB"], "46": ["CB"], "47": ["CB"], "48": ["CB"], "51": ["CB"],
  "52": ["CB"], "53": ["CB"], "54": ["CB"], "55": ["NE", "NO"], "56": ["NE", "NO"], "57": ["NE", "NO"], "58": ["CB"],
  "59": ["CB"], "60": ["CB"], "61": ["NE"], "62": ["NO"], "70": ["NE", "NO"], "72": ["CB"], "73": ["CB"], "74": ["CB"],
  "75": ["CB"], "76": ["NE"], "77": ["NO"],
};
/** Statuses whose accounts are NRE/NRO only: the non-residents, whose Indian address is optional. */
const NRI_STATUSES = Object.keys(TAX_STATUS_ACCOUNTS).filter((code) => TAX_STATUS_ACCOUNTS[code]!.every((t) => t === "NE" || t === "NO"));
const SEAFARERS = ["76", "77"];
const MINOR_STATUSES = ["02", "26", "28"];
const INDIVIDUAL_STATUSES = ["01", "02", "11", "21", "24", "26", "28", "61", "62", "70", "76", "77"];

const STATES = [
  "AN", "AR", "AP", "AS", "BH", "CH", "CG", "GO", "GU", "HA", "HP", "JM", "JK", "KA", "KE", "MP", "MA", "MN", "ME", "MI", "NA",
  "ND", "OR", "PO", "PU", "RA", "SI", "TG", "TN", "TR", "UP", "UC", "WB", "DN", "DD", "LD", "OH",
];
const YN = ["Y", "N"];
const KYC = ["K", "C", "B", "E"];
const DECLARATIONS = ["SE", "SP", "DC", "DS", "DP", "GD", "PM", "CD", "PO"];
const ACCOUNT_TYPES = ["SB", "CB", "NE", "NO"];
const EXEMPT_CATEGORIES = ["01", "02", "03", "04", "05", "06", "07", "08"];
const NOMINEE_RELATIONS = Array.from({ length: 23 }, (_, i) => String(i + 1).padStart(2, "0"));
const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;
const CKYC = /^\d{14}$/;
const COUNTRY = /^(0\d\d|1\d\d|2[0-3]\d|24[0-3])$/;

/** Field rules by position (1-based); conditions are checked afterwards. */
const FIELDS: Record<number, FieldRule> = {
  1: { name: "CLIENT CODE", max: 10, mandatory: true },
  2: { name: "PRIMARY HOLDER FIRST NAME", max: 70, mandatory: true },
  3: { name: "PRIMARY HOLDER MIDDLE NAME", max: 70 },
  4: { name: "PRIMARY HOLDER LAST NAME", max: 70 },
  5: { name: "TAX STATUS", mandatory: true, codes: Object.keys(TAX_STATUS_ACCOUNTS) },
  6: { name: "GENDER", codes: ["M", "F", "O"] },
  7: { name: "PRIMARY HOLDER DOB", mandatory: true, date: true },
  8: { name: "OCCUPATION CODE", mandatory: true, codes: ["01", "02", "03", "04", "05", "06", "07", "08"] },
  9: { name: "HOLDING NATURE", mandatory: true, codes: ["SI", "JO", "AS"] },
  10: { name: "SECOND HOLDER FIRST NAME", max: 70 },
  11: { name: "SECOND HOLDER MIDDLE NAME", max: 70 },
  12: { name: "SECOND HOLDER LAST NAME", max: 70 },
  13: { name: "THIRD HOLDER FIRST NAME", max: 70 },
  14: { name: "THIRD HOLDER MIDDLE NAME", max: 70 },
  15: { name: "THIRD HOLDER LAST NAME", max: 70 },
  16: { name: "SECOND HOLDER DOB", date: true },
  17: { name: "THIRD HOLDER DOB", date: true },
  18: { name: "GUARDIAN FIRST NAME", max: 120 },
  19: { name: "GUARDIAN MIDDLE NAME", max: 120 },
  20: { name: "GUARDIAN LAST NAME", max: 120 },
  21: { name: "GUARDIAN DOB", date: true },
  22: { name: "PRIMARY HOLDER PAN EXEMPT", mandatory: true, codes: YN },
  23: { name: "SECOND HOLDER PAN EXEMPT", codes: YN },
  24: { name: "THIRD HOLDER PAN EXEMPT", codes: YN },
  25: { name: "GUARDIAN PAN EXEMPT", codes: YN },
  26: { name: "PRIMARY HOLDER PAN", pattern: PAN },
  27: { name: "SECOND HOLDER PAN", pattern: PAN },
  28: { name: "THIRD HOLDER PAN", pattern: PAN },
  29: { name: "GUARDIAN PAN", pattern: PAN },
  30: { name: "PRIMARY HOLDER EXEMPT CATEGORY", codes: EXEMPT_CATEGORIES },
  31: { name: "SECOND HOLDER EXEMPT CATEGORY", codes: EXEMPT_CATEGORIES },
  32: { name: "THIRD HOLDER EXEMPT CATEGORY", codes: EXEMPT_CATEGORIES },
  33: { name: "GUARDIAN EXEMPT CATEGORY", codes: EXEMPT_CATEGORIES },
  34: { name: "CLIENT TYPE", mandatory: true, codes: ["P", "D"] },
  35: { name: "PMS", codes: YN },
  36: { name: "DEFAULT DP", codes: ["CDSL", "NSDL"] },
  37: { name: "CDSL DPID", max: 8, pattern: /^\d{8}$/ },
  38: { name: "CDSLCLTID", max: 16, pattern: /^\d{16}$/ },
  39: { name: "CMBP ID", max: 16 },
  40: { name: "NSDLDPID", max: 8, pattern: /^IN[A-Z0-9]{6}$/ },
  41: { name: "NSDLCLTID", max: 8, pattern: /^\d{8}$/ },
  67: { name: "CHEQUE NAME", max: 35 },
  68: { name: "DIV PAY MODE", mandatory: true, codes: ["01", "02", "03", "04", "05"] },
  69: { name: "ADDRESS 1", max: 40 },
  70: { name: "ADDRESS 2", max: 40 },
  71: { name: "ADDRESS 3", max: 40 },
  72: { name: "CITY", max: 35 },
  73: { name: "STATE", codes: STATES },
  74: { name: "PINCODE", pattern: PINCODE },
  75: { name: "COUNTRY", max: 35 },
  76: { name: "RESI PHONE", max: 15 },
  77: { name: "RESI FAX", max: 15 },
  78: { name: "OFFICE PHONE", max: 15 },
  79: { name: "OFFICE FAX", max: 15 },
  80: { name: "EMAIL", max: 50, mandatory: true, pattern: EMAIL },
  81: { name: "COMMUNICATION MODE", mandatory: true, codes: ["P", "E", "M"] },
  82: { name: "FOREIGN ADDRESS 1", max: 40 },
  83: { name: "FOREIGN ADDRESS 2", max: 40 },
  84: { name: "FOREIGN ADDRESS 3", max: 40 },
  85: { name: "FOREIGN ADDRESS CITY", max: 35 },
  86: { name: "FOREIGN ADDRESS PINCODE", max: 10 },
  87: { name: "FOREIGN ADDRESS STATE", max: 35 },
  88: { name: "FOREIGN ADDRESS COUNTRY", pattern: COUNTRY },
  89: { name: "FOREIGN ADDRESS RESI PHONE", max: 15 },
  90: { name: "FOREIGN ADDRESS FAX", max: 15 },
  91: { name: "FOREIGN ADDRESS OFF. PHONE", max: 15 },
  92: { name: "FOREIGN ADDRESS OFF. FAX", max: 15 },
  93: { name: "INDIAN MOBILE NO", mandatory: true, pattern: MOBILE },
  112: { name: "PRIMARY HOLDER KYC TYPE", mandatory: true, codes: KYC },
  113: { name: "PRIMARY HOLDER CKYC NUMBER", pattern: CKYC },
  114: { name: "SECOND HOLDER KYC TYPE", codes: KYC },
  115: { name: "SECOND HOLDER CKYC NUMBER", pattern: CKYC },
  116: { name: "THIRD HOLDER KYC TYPE", codes: KYC },
  117: { name: "THIRD HOLDER CKYC NUMBER", pattern: CKYC },
  118: { name: "GUARDIAN KYC TYPE", codes: KYC },
  119: { name: "GUARDIAN CKYC NUMBER", pattern: CKYC },
  120: { name: "PRIMARY HOLDER KRA EXEMPT REF NO", max: 10 },
  121: { name: "SECOND HOLDER KRA EXEMPT REF NO", max: 10 },
  122: { name: "THIRD HOLDER KRA EXEMPT REF NO", max: 10 },
  123: { name: "GUARDIAN EXEMPT REF NO", max: 10 },
  124: { name: "AADHAAR UPDATED", codes: YN },
  125: { name: "MAPIN ID", max: 16 },
  126: { name: "PAPERLESS FLAG", mandatory: true, codes: ["P", "Z"] },
  127: { name: "LEI NO", max: 20 },
  128: { name: "LEI VALIDITY", date: true },
  129: { name: "MOBILE DECLARATION FLAG", codes: DECLARATIONS },
  130: { name: "EMAIL DECLARATION FLAG", codes: DECLARATIONS },
};
for (let account = 1; account <= 5; account++) {
  const base = 42 + 5 * (account - 1);
  FIELDS[base] = { name: `ACCOUNT TYPE ${account}`, codes: ACCOUNT_TYPES, mandatory: account === 1 };
  FIELDS[base + 1] = { name: `ACCOUNT NO ${account}`, max: 40, mandatory: account === 1 };
  FIELDS[base + 2] = { name: `MICR NO ${account}`, pattern: /^\d{9}$/ };
  FIELDS[base + 3] = { name: `IFSC CODE ${account}`, pattern: IFSC, mandatory: account === 1 };
  FIELDS[base + 4] = { name: `DEFAULT BANK FLAG ${account}`, codes: YN, mandatory: account === 1 };
}
/** Nominee n's positions: nominee 1 has the minor flag before the date of birth, 2 and 3 after. */
const NOMINEES = [
  { n: 1, name: 94, relation: 95, share: 96, minor: 97, dob: 98, guardian: 99 },
  { n: 2, name: 100, relation: 101, share: 102, dob: 103, minor: 104, guardian: 105 },
  { n: 3, name: 106, relation: 107, share: 108, dob: 109, minor: 110, guardian: 111 },
];
for (const p of NOMINEES) {
  FIELDS[p.name] = { name: `NOMINEE ${p.n} NAME`, max: 40 };
  FIELDS[p.relation] = { name: `NOMINEE ${p.n} RELATIONSHIP`, codes: NOMINEE_RELATIONS };
  FIELDS[p.share] = { name: `NOMINEE ${p.n} APPLICABLE(%)`, pattern: PERCENT };
  FIELDS[p.minor] = { name: `NOMINEE ${p.n} MINOR FLAG`, codes: YN };
  FIELDS[p.dob] = { name: `NOMINEE ${p.n} DOB`, date: true };
  FIELDS[p.guardian] = { name: `NOMINEE ${p.n} GUARDIAN`, max: 35 };
}

export function validateUccRequest(body: unknown): string | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "FAILED: INVALID REQUEST FORMAT";
  const b = body as Record<string, unknown>;
  for (const [key, name, max] of [["UserId", "USER ID", 20], ["MemberCode", "MEMBER CODE", 20], ["Password", "PASSWORD", 50]] as const) {
    const value = b[key];
    if (typeof value !== "string" || value.trim() === "") return mandatory(name);
    if (value.length > max) return invalid(name);
  }
  if (b.RegnType !== "NEW" && b.RegnType !== "MOD") return invalid("REGISTRATION TYPE");
  for (const key of ["Filler1", "Filler2"] as const) {
    if (b[key] !== undefined && (typeof b[key] !== "string" || (b[key] as string).length > 50)) return invalid(key);
  }
  if (typeof b.Param !== "string" || b.Param === "") return mandatory("PARAM");
  return validateUccParam(b.Param);
}

export function validateUccParam(param: string): string | null {
  const f = param.split("|");
  if (f.length !== 131) return "FAILED: INVALID PARAM STRING FORMAT";
  const at = (position: number) => f[position - 1]!;
  for (const [position, rule] of Object.entries(FIELDS)) {
    const failure = checkField(rule, at(Number(position)));
    if (failure) return failure;
  }
  const taxStatus = at(5);
  const nri = NRI_STATUSES.includes(taxStatus);
  if (INDIVIDUAL_STATUSES.includes(taxStatus) && at(6) === "") return mandatory("GENDER");

  // Holders: PAN or exemption per flag; joint holders for JO/AS; a guardian for minors.
  const holders = [
    { who: "PRIMARY HOLDER", present: true, exempt: 22, pan: 26, category: 30, ref: 120, kyc: 112, ckyc: 113 },
    { who: "SECOND HOLDER", present: at(10) !== "", exempt: 23, pan: 27, category: 31, ref: 121, kyc: 114, ckyc: 115 },
    { who: "THIRD HOLDER", present: at(13) !== "", exempt: 24, pan: 28, category: 32, ref: 122, kyc: 116, ckyc: 117 },
    { who: "GUARDIAN", present: at(18) !== "", exempt: 25, pan: 29, category: 33, ref: 123, kyc: 118, ckyc: 119 },
  ];
  if ((at(9) === "JO" || at(9) === "AS") && at(10) === "") return mandatory("SECOND HOLDER FIRST NAME");
  if (at(13) !== "" && at(10) === "") return mandatory("SECOND HOLDER FIRST NAME");
  if (MINOR_STATUSES.includes(taxStatus) && at(18) === "") return mandatory("GUARDIAN FIRST NAME");
  for (const h of holders) {
    if (!h.present) continue;
    if (at(h.exempt) === "") return mandatory(`${h.who} PAN EXEMPT`);
    if (at(h.exempt) === "N" && at(h.pan) === "") return mandatory(`${h.who} PAN`);
    if (at(h.exempt) === "Y" && at(h.category) === "") return mandatory(`${h.who} EXEMPT CATEGORY`);
    if (at(h.exempt) === "Y" && at(h.ref) === "") return mandatory(`${h.who} KRA EXEMPT REF NO`);
    if (at(h.kyc) === "C" && at(h.ckyc) === "") return mandatory(`${h.who} CKYC NUMBER`);
  }

  // Demat.
  if (at(34) === "D") {
    if (at(35) === "") return mandatory("PMS");
    if (at(36) === "") return mandatory("DEFAULT DP");
    if (at(36) === "CDSL" && at(37) === "") return mandatory("CDSL DPID");
    if (at(36) === "CDSL" && at(38) === "") return mandatory("CDSLCLTID");
    if (at(36) === "NSDL" && at(40) === "") return mandatory("NSDLDPID");
    if (at(36) === "NSDL" && at(41) === "") return mandatory("NSDLCLTID");
    if (at(36) === "NSDL" && at(35) === "Y" && at(39) === "") return mandatory("CMBP ID");
  }

  // Bank accounts: each given one complete, its type allowed for the tax status.
  for (let account = 1; account <= 5; account++) {
    const base = 42 + 5 * (account - 1);
    const type = at(base);
    if (type === "") continue;
    if (at(base + 1) === "") return mandatory(`ACCOUNT NO ${account}`);
    if (at(base + 3) === "" && at(base + 2) === "") return mandatory(`IFSC CODE ${account}`);
    if (at(base + 4) === "") return mandatory(`DEFAULT BANK FLAG ${account}`);
    if (!TAX_STATUS_ACCOUNTS[taxStatus]!.includes(type)) return `FAILED: ACCOUNT TYPE ${account} NOT ALLOWED FOR TAX STATUS ${taxStatus}`;
  }

  // Addresses: Indian for residents, foreign for non-residents.
  if (!nri) {
    for (const [position, name] of [[69, "ADDRESS 1"], [72, "CITY"], [73, "STATE"], [74, "PINCODE"], [75, "COUNTRY"]] as const) {
      if (at(position) === "") return mandatory(name);
    }
  } else {
    if (!SEAFARERS.includes(taxStatus) && at(82) === "") return mandatory("FOREIGN ADDRESS 1");
    for (const [position, name] of [[85, "FOREIGN ADDRESS CITY"], [86, "FOREIGN ADDRESS PINCODE"], [87, "FOREIGN ADDRESS STATE"], [88, "FOREIGN ADDRESS COUNTRY"]] as const) {
      if (at(position) === "") return mandatory(name);
    }
  }

  // Nominees: a named nominee needs relationship, share and minor flag; a minor one a date of birth and guardian.
  for (const p of NOMINEES) {
    if (at(p.name) === "") continue;
    if (at(p.relation) === "") return mandatory(`NOMINEE ${p.n} RELATIONSHIP`);
    if (at(p.share) === "") return mandatory(`NOMINEE ${p.n} APPLICABLE(%)`);
    if (at(p.minor) === "") return mandatory(`NOMINEE ${p.n} MINOR FLAG`);
    if (at(p.minor) === "Y" && at(p.dob) === "") return mandatory(`NOMINEE ${p.n} DOB`);
    if (at(p.minor) === "Y" && at(p.guardian) === "") return mandatory(`NOMINEE ${p.n} GUARDIAN`);
  }

  if (at(127) !== "" && at(128) === "") return mandatory("LEI VALIDITY");
  if (at(93) !== "" && at(129) === "") return mandatory("MOBILE DECLARATION FLAG");
  if (at(80) !== "" && at(130) === "") return mandatory("EMAIL DECLARATION FLAG");
  return null;
}

