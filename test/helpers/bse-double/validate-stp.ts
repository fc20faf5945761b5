/**
 * The enhanced STP body as the exchange checks it (section 5 of bse-starmf-services.md). The document has
 * no mandatory column; the double takes as mandatory what an STP cannot run without. Returns the failure
 * remark of the first broken rule, or null.
 */
import { EMAIL, MOBILE, checkField, invalid, mandatory, type FieldRule } from "./validate-common.js";

const YN = ["Y", "N"];
const AMOUNT = /^\d{1,22}(\.\d{1,3})?$/;

const RULES: Array<[key: string, rule: FieldRule]> = [
  ["LoginId", { name: "LOGIN ID", mandatory: true, max: 20 }],
  ["MemberCode", { name: "MEMBER CODE", mandatory: true, max: 20 }],
  ["Password", { name: "PASSWORD", mandatory: true, max: 20 }],
  ["TransType", { name: "TRANSACTION TYPE", mandatory: true, codes: ["NEW", "CXL"] }],
  ["STPType", { name: "STP TYPE", mandatory: true, codes: ["EXCH", "AMC"] }],
  ["ClientCode", { name: "CLIENT CODE", mandatory: true, max: 10 }],
  ["FromBSESchemeCode", { name: "FROM BSE SCHEME CODE", mandatory: true, max: 20 }],
  ["ToBSESchemeCode", { name: "TO BSE SCHEME CODE", mandatory: true, max: 20 }],
  ["BuySellType", { name: "BUY SELL TYPE", mandatory: true, codes: ["Fresh", "Additional"] }],
  ["TransactionMode", { name: "TRANSACTION MODE", mandatory: true, codes: ["P", "C", "N"] }],
  ["FolioNo", { name: "FOLIO NUMBER", mandatory: true, max: 15 }],
  ["STPRegNo", { name: "STP REGISTRATION NO", pattern: /^\d+$/ }],
  ["IntRefNo", { name: "INTERNAL REF NUMBER", max: 10 }],
  ["StartDate", { name: "START DATE", mandatory: true, date: true }],
  ["FrequencyType", { name: "FREQUENCY TYPE", mandatory: true }],
  ["NoOfTransfers", { name: "NO OF TRANSFERS", mandatory: true, max: 8, pattern: /^\d+$/ }],
  ["InstAmount", { name: "INSTALLMENT AMOUNT", pattern: AMOUNT }],
  ["InstUnit", { name: "UNITS", pattern: AMOUNT }],
  ["FirstOrderToday", { name: "FIRST ORDER TODAY", mandatory: true, codes: YN }],
  ["SubBrokerCode", { name: "SUB BROKER CODE", max: 15 }],
  ["EUINDeclaration", { name: "EUIN DECLARATION", mandatory: true, codes: YN }],
  ["EUINNumber", { name: "EUIN NUMBER", pattern: /^E\d{6}$/ }],
  ["Remarks", { name: "REMARKS", max: 100 }],
  ["EndDate", { name: "END DATE", date: true }],
  ["SubBrokerARN", { name: "SUB BROKER ARN", max: 20 }],
  ["Filler1", { name: "MOBILE NO", pattern: MOBILE }],
  ["Filler2", { name: "EMAIL ID", max: 50, pattern: EMAIL }],
  ["Filler3", { name: "FILLER3", max: 100 }],
  ["Filler4", { name: "FILLER4", max: 100 }],
  ["Filler5", { name: "FILLER5", max: 100 }],
];
const FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY", "QUARTERLY"];

export function validateStpRequest(body: unknown): string | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "FAILED: INVALID REQUEST FORMAT";
  const b = body as Record<string, unknown>;
  const known = new Set(RULES.map(([key]) => key));
  const unknown = Object.keys(b).find((key) => !known.has(key));
  if (unknown) return `FAILED: UNKNOWN FIELD ${unknown.toUpperCase()}`;
  const value = (key: string) => (b[key] === undefined || b[key] === null ? "" : typeof b[key] === "number" ? String(b[key]) : b[key]);
  for (const [key, rule] of RULES) {
    const v = value(key);
    if (typeof v !== "string") return invalid(rule.name);
    const failure = checkField(rule, v);
    if (failure) return failure;
  }
  const frequency = (value("FrequencyType") as string).toUpperCase();
  if (!FREQUENCIES.includes(frequency)) return invalid("FREQUENCY TYPE");
  if (value("InstAmount") === "" && value("InstUnit") === "") return mandatory("INSTALLMENT AMOUNT");
  if (frequency === "DAILY") {
    if (value("NoOfTransfers") !== "0") return invalid("NO OF TRANSFERS");
    if (value("EndDate") === "") return mandatory("END DATE");
  } else if (value("NoOfTransfers") === "0") {
    return invalid("NO OF TRANSFERS");
  }
  if (value("TransType") === "CXL" && value("STPRegNo") === "") return mandatory("STP REGISTRATION NO");
  if (value("STPType") === "EXCH" && value("TransactionMode") !== "P") return invalid("TRANSACTION MODE");
  return null;
}
