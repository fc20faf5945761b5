import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";

/**
 * SOAP 1.2 envelopes of the exchange's web services (bse-starmf-orders.md §1), built and read with
 * fast-xml-parser: never string concatenation, so a value with `<` or `&` can never change the
 * document's structure.
 */

export const SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";
export const WSA_NS = "http://www.w3.org/2005/08/addressing";

/** One SOAP service of the exchange: where it is posted, its namespace and its wsa:Action pattern. */
export interface SoapService {
  /** Short name, for logs and errors. */
  name: string;
  /** Appended to BSE_BASE_URL; also the wsa:To value (with the base). */
  path: string;
  /** The namespace of the operation and parameter elements. */
  namespace: string;
  /** The prefix the request uses for that namespace. */
  prefix: string;
  /** wsa:Action for an operation. */
  action(operation: string): string;
}

/** Order entry: MFOrder.svc, the HTTPS `/Secure` binding, actions `http://bsestarmf.in/MFOrderEntry/<op>`. */
export const ORDER_ENTRY_SERVICE: SoapService = {
  name: "order-entry",
  path: "/MFOrderEntry/MFOrder.svc/Secure",
  namespace: "http://bsestarmf.in/",
  prefix: "bses",
  action: (operation) => `http://bsestarmf.in/MFOrderEntry/${operation}`,
};

/**
 * The additional services (MFUploadService.svc: getPassword and MFAPI). Its WSDL's namespace and action
 * pattern are the `2016/01` ones every public client of the service uses (the document names neither;
 * confirm against `?singleWsdl` in UAT).
 */
export const UPLOAD_SERVICE: SoapService = {
  name: "upload",
  path: "/MFUploadService/MFUploadService.svc/Secure",
  namespace: "http://bsestarmfdemo.bseindia.com/2016/01/",
  prefix: "ns",
  action: (operation) => `http://bsestarmfdemo.bseindia.com/2016/01/IMFUploadService/${operation}`,
};

/**
 * The report, child order and mandate services (StarMFWebService.svc): operations in
 * `http://www.bsestarmf.in/2016/01/`, each taking one `Param` data contract whose members are in
 * `DATA_CONTRACT_NS`, in alphabetical order (WCF's default); actions `.../IStarMFWebService/<op>`. The
 * document names the operations and contracts only; the member names are those of the service's WSDL as
 * public clients generated it (to confirm against `?singleWsdl` in UAT).
 */
export const WEB_SERVICE: SoapService = {
  name: "web",
  path: "/StarMFWebService/StarMFWebService.svc/Secure",
  namespace: "http://www.bsestarmf.in/2016/01/",
  prefix: "ns",
  action: (operation) => `http://www.bsestarmf.in/2016/01/IStarMFWebService/${operation}`,
};

export const DATA_CONTRACT_NS = "http://schemas.datacontract.org/2004/07/StarMFWebService";

/** A data contract parameter: its members (in order) in their own namespace. */
export interface SoapContract {
  namespace: string;
  prefix: string;
  members: readonly SoapParam[];
}

/** A parameter: its element name and value; an empty or null value is sent as an empty element. */
export type SoapParam = readonly [name: string, value: string | null | SoapContract];

/** A `Param` data contract of the web service, its members in the order given. */
export function contractParam(members: readonly SoapParam[]): SoapParam {
  return ["Param", { namespace: DATA_CONTRACT_NS, prefix: "sch", members }];
}

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: true, processEntities: true });

/**
 * The request envelope of `operation`: wsa:Action and wsa:To in the header, every parameter in the
 * order given (the document's), empty ones as `<bses:X/>`.
 */
export function buildEnvelope(service: SoapService, operation: string, to: string, params: readonly SoapParam[]): string {
  return builder.build({
    "soap:Envelope": {
      "@_xmlns:soap": SOAP12_NS,
      [`@_xmlns:${service.prefix}`]: service.namespace,
      "soap:Header": { "@_xmlns:wsa": WSA_NS, "wsa:Action": service.action(operation), "wsa:To": to },
      "soap:Body": { [`${service.prefix}:${operation}`]: elements(service.prefix, params) },
    },
  }) as string;
}

function elements(prefix: string, params: readonly SoapParam[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of params) {
    const key = `${prefix}:${name}`;
    if (key in body) throw new Error(`SOAP parameter ${name} given twice`);
    body[key] =
      value !== null && typeof value === "object"
        ? { [`@_xmlns:${value.prefix}`]: value.namespace, ...elements(value.prefix, value.members) }
        : (value ?? "");
  }
  return body;
}

/** The answer was not a SOAP envelope holding the operation's result. */
export class SoapFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SoapFormatError";
  }
}

/** The service answered with a SOAP fault (a WCF error page in SOAP form). */
export class SoapFaultError extends Error {
  constructor(readonly reason: string) {
    super(`SOAP fault: ${reason}`);
    this.name = "SoapFaultError";
  }
}

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false, trimValues: false, processEntities: true });

type Node = Record<string, unknown>;
const child = (node: unknown, name: string): unknown => (node && typeof node === "object" ? (node as Node)[name] : undefined);

/**
 * The `<operation>Result` text of a response, matched on local names (the exchange answers with `s:`
 * and a default namespace; requests use `soap:` and `bses:`). A fault is a SoapFaultError; anything else
 * that is not an envelope with that result is a SoapFormatError.
 */
export function readResult(xml: string, operation: string): string {
  const result = readResultNode(xml, operation);
  const text = textOf(result);
  if (text === undefined) throw new SoapFormatError(`the ${operation}Result is not text`);
  return text;
}

/**
 * The `<operation>Result` element of a response as parsed (local names, text values; an element with
 * children is an object, a repeated one an array): the data contract answers of the web service.
 */
export function readResultNode(xml: string, operation: string): unknown {
  if (XMLValidator.validate(xml) !== true) throw new SoapFormatError("the answer is not well-formed XML");
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch {
    throw new SoapFormatError("the answer is not well-formed XML");
  }
  const body = child(child(doc, "Envelope"), "Body");
  if (body === undefined) throw new SoapFormatError("the answer is not a SOAP envelope");
  const fault = child(body, "Fault");
  if (fault !== undefined) throw new SoapFaultError(textOf(child(child(fault, "Reason"), "Text")) ?? "unspecified");
  const result = child(child(body, `${operation}Response`), `${operation}Result`);
  if (result === undefined) throw new SoapFormatError(`the answer holds no ${operation}Result`);
  return result;
}

/** A parsed answer's element as an object of its children, or undefined when it is text, a list or absent. */
export function asNode(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Node) : undefined;
}

/** A parsed answer's element as text: its value (or `#text`), "" when it holds no text. */
export function nodeText(value: unknown): string {
  return textOf(value) ?? "";
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value === "" || value === null) return "";
  const inner = child(value, "#text");
  return typeof inner === "string" ? inner : undefined;
}
