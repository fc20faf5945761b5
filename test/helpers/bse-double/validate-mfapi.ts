/**
 * The MFAPI `Parameters` strings as the exchange checks them (section 2 of bse-starmf-services.md):
 * mandate registration (06), SWP registration (08) and cancellation (10), client order payment status
 * (11); FATCA (01) is validate-fatca.ts. Returns the failure remark of the first broken rule (the
 * document's own texts where it has them: INVALID PARAM STRING FORMAT, CLIENT CODE MANDATORY, INVALID
 * SEGMENT VALUE, INVALID ORDER NUMBER), or null.
 */
import { validateFatcaParam } from "./validate-fatca.js";
import { DECIMAL, EMAIL, IFSC, MOBILE, checkField, isBseDate, type FieldRule } from "./validate-common.js";

const FORMAT = "INVALID PARAM STRING FORMAT";
const YN = ["Y", "N"];
const CLIENT: FieldRule = { name: "CLIENT CODE", max: 10 };

function fields(param: string, count: number): string[] | null {
  const f = param.split("|");
  return f.length === count ? f : null;
}

function clientCode(value: string): string | null {
  if (value === "") return "CLIENT CODE MANDATORY";
  return checkField(CLIENT, value) ? "INVALID CLIENT CODE" : null;
}

export function validateMfapiParam(flag: string, param: string): string | null {
  switch (flag) {
    case "01":
      return validateFatcaParam(param);
    case "06":
      return validateMandateParam(param);
    case "08":
      return validateSwpParam(param);
    case "10":
      return validateSwpCancellationParam(param);
    case "11":
      return validatePaymentStatusParam(param);
    default:
      return "INVALID ACTION CODE";
  }
}

/** Flag 06: 9 fields; everything but the MICR is mandatory; end date after start date. */
export function validateMandateParam(param: string): string | null {
  const f = fields(param, 9);
  if (!f) return FORMAT;
  const [client, amount, type, account, accountType, ifsc, micr, start, end] = f as [string, string, string, string, string, string, string, string, string];
  return (
    clientCode(client) ??
    checkField({ name: "AMOUNT", mandatory: true, pattern: DECIMAL }, amount) ??
    (Number(amount) > 0 ? null : "FAILED: INVALID AMOUNT") ??
    checkField({ name: "MANDATE TYPE", mandatory: true, codes: ["X", "I", "N"] }, type) ??
    checkField({ name: "ACCOUNT NO", mandatory: true, max: 20 }, account) ??
    checkField({ name: "ACCOUNT TYPE", mandatory: true, codes: ["SB", "CB", "NE", "NO"] }, accountType) ??
    checkField({ name: "IFSC CODE", mandatory: true, pattern: IFSC }, ifsc) ??
    checkField({ name: "MICR CODE", pattern: /^\d{9}$/ }, micr) ??
    checkField({ name: "START DATE", mandatory: true, date: true }, start) ??
    checkField({ name: "END DATE", mandatory: true, date: true }, end) ??
    (toIso(end) > toIso(start) ? null : "FAILED: END DATE SHOULD BE GREATER THAN START DATE")
  );
}

/** Flag 08: 19 fields; exactly one of amount and units; mobile, email optional; bank account mandatory. */
export function validateSwpParam(param: string): string | null {
  const f = fields(param, 19);
  if (!f) return FORMAT;
  const at = (n: number) => f[n - 1]!;
  const rules: Array<[number, FieldRule]> = [
    [2, { name: "BSE SCHEME CODE", mandatory: true, max: 20 }],
    [3, { name: "TRANSACTION MODE", mandatory: true, codes: ["D", "P"] }],
    [4, { name: "FOLIO NUMBER", mandatory: true, max: 15 }],
    [5, { name: "INTERNAL REF NUMBER", max: 10 }],
    [6, { name: "START DATE", mandatory: true, date: true }],
    [7, { name: "NUMBER OF WITHDRAWLS", mandatory: true, max: 8, pattern: /^[1-9]\d*$/ }],
    [8, { name: "FREQUENCY TYPE", mandatory: true, codes: ["Weekly", "Monthly", "Quarterly"] }],
    [9, { name: "INSTALLMENT AMOUNT", pattern: /^\d{1,22}(\.\d{1,3})?$/ }],
    [10, { name: "INSTALLMENT UNITS", pattern: /^\d{1,22}(\.\d{1,3})?$/ }],
    [11, { name: "FIRST ORDER TODAY", mandatory: true, codes: YN }],
    [12, { name: "SUB BROKER CODE", max: 15 }],
    [13, { name: "EUIN DECLARATION", mandatory: true, codes: YN }],
    [14, { name: "EUIN NUMBER", pattern: /^E\d{6}$/ }],
    [15, { name: "REMARKS", max: 100 }],
    [16, { name: "SUB BROKER ARN", max: 20 }],
    [17, { name: "MOBILE NO", pattern: MOBILE }],
    [18, { name: "EMAIL ID", max: 50, pattern: EMAIL }],
    [19, { name: "BANK ACCOUNT NO", mandatory: true, max: 20 }],
  ];
  const client = clientCode(at(1));
  if (client) return client;
  for (const [n, rule] of rules) {
    const failure = checkField(rule, at(n));
    if (failure) return failure;
  }
  if ((at(9) === "") === (at(10) === "")) return "FAILED: EITHER INSTALLMENT AMOUNT OR INSTALLMENT UNITS IS MANDATORY";
  return null;
}

/** Flag 10: `SWP registration no|client code|remarks`. */
export function validateSwpCancellationParam(param: string): string | null {
  const f = fields(param, 3);
  if (!f) return FORMAT;
  const [registration, client, remarks] = f as [string, string, string];
  if (!/^\d{1,8}$/.test(registration)) return "FAILED: INVALID STP REGISTRATION NUMBER";
  return clientCode(client) ?? checkField({ name: "REMARKS", max: 100 }, remarks);
}

/** Flag 11: `ClientCode|OrderNo|Segment`. */
export function validatePaymentStatusParam(param: string): string | null {
  const f = fields(param, 3);
  if (!f) return FORMAT;
  const [client, order, segment] = f as [string, string, string];
  return clientCode(client) ?? (/^\d{1,19}$/.test(order) ? null : "INVALID ORDER NUMBER") ?? (segment === "BSEMF" || segment === "SGB" ? null : "INVALID SEGMENT VALUE");
}

function toIso(date: string): string {
  if (!isBseDate(date)) return "";
  const [d, m, y] = date.split("/");
  return `${y}-${m}-${d}`;
}
