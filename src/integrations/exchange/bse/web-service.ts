import { ExchangeUnavailableError } from "../port.js";
import { contractParam, WEB_SERVICE } from "./soap.js";
import type { BseTransport } from "./transport.js";

/**
 * How StarMFWebService (bse-starmf-services.md §6-8) is called: the one place to switch it (docs/operations.md, UAT
 * open point "StarMFWebService: SOAP or JSON"). The document supports both readings for §6-7: it names
 * each operation's data contract (WCF's SOAP face, `.svc/Secure`, one `Param` contract whose members go
 * in ordinal order) and, for the mandate services and child orders, gives JSON names and samples with no
 * REST path (a webHttp face: the contract as a JSON object posted to `.svc/<Operation>`). The reports
 * (§8) have contracts only, no JSON names: they are SOAP in either case (reports.ts). The defaults are
 * the readings the document leans to: §6 says "Request (JSON)"; §7's samples are JSON but its names are
 * the contracts'. Either is one word to change here once UAT's `?singleWsdl` / help page answers.
 */
export type WebServiceStyle = "soap" | "json";
export interface WebServiceStyles {
  /** GetAccessToken, MandateDetails, EMandateAuthURL (§6). */
  mandates: WebServiceStyle;
  /** GetPasswordForChildOrder, ChildOrderDetails (§7). */
  childOrders: WebServiceStyle;
}
export const WEB_SERVICE_STYLE: Readonly<WebServiceStyles> = { mandates: "json", childOrders: "soap" };

export const WEB_SERVICE_PATH = "/StarMFWebService/StarMFWebService.svc";

/**
 * Calls a web service operation in `style` with the contract's members, and answers the result as a
 * plain object: members as text, lists through `listOf`. A JSON answer wrapped in `<Operation>Result`
 * (WCF's wrapped body style) is unwrapped.
 */
export async function callWebService(
  transport: BseTransport,
  style: WebServiceStyle,
  operation: string,
  members: Record<string, string | null>,
): Promise<Record<string, unknown>> {
  if (style === "soap") {
    const ordered = Object.entries(members).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const result = await transport.soapNode(WEB_SERVICE, operation, [contractParam(ordered)]);
    if (!isObject(result)) throw new ExchangeUnavailableError(`BSE ${operation}: the answer is not a data contract`);
    return result;
  }
  let answer = await transport.json(`web service ${operation}`, `${WEB_SERVICE_PATH}/${operation}`, members);
  if (isObject(answer) && Object.keys(answer).length === 1 && isObject(answer[`${operation}Result`])) answer = answer[`${operation}Result`];
  if (!isObject(answer)) throw new ExchangeUnavailableError(`BSE ${operation}: the answer is not a JSON object`);
  return answer;
}

/** A list member: a JSON array, or a SOAP list element holding one or more `itemName` elements (empty: none). */
export function listOf(value: unknown, itemName: string): Array<Record<string, unknown>> {
  const items = Array.isArray(value) ? value : isObject(value) ? value[itemName] : undefined;
  return (Array.isArray(items) ? items : items === undefined ? [] : [items]).filter(isObject);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `Status` "100" / "101" of the web service's answers; anything else is malformed. */
export function statusOf(operation: string, answer: Record<string, unknown>): "100" | "101" {
  const status = answer.Status;
  if (status === "100" || status === "101") return status;
  throw new ExchangeUnavailableError(`BSE ${operation}: unexpected Status ${JSON.stringify(status)?.slice(0, 20)}`);
}

export function textOf(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}
