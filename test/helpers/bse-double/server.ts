import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";

/**
 * The exchange's HTTP face for tests: a real node:http server on 127.0.0.1 (a random port) speaking
 * SOAP 1.2 at the services' paths and JSON where the exchange takes JSON. Handlers are registered per
 * path and wsa:Action (`soap`) or per path (`json`), so later slices add services without touching this
 * file. It checks what every SOAP request must have (POST, the SOAP 1.2 content type whose action
 * matches wsa:Action, wsa:To naming the endpoint, one operation element), and answers a request it
 * cannot route the way WCF does: HTTP 500 with a SOAP fault.
 *
 * Scripted transport outcomes (`failNext`) apply to the next call of an operation: a timeout (the
 * operation runs, then no answer is ever sent), a malformed answer, an HTTP 5xx, or a forced session
 * expiry just before the call is handled.
 */

const SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";
const WSA_NS = "http://www.w3.org/2005/08/addressing";

export interface SoapRequest {
  path: string;
  action: string;
  to: string;
  /** The local name of the operation element. */
  operation: string;
  /** Its namespace URI, as declared in the request. */
  namespace: string;
  /** The parameters in the order they came, with their local names and text (an empty element is ""). */
  params: Array<[name: string, value: string]>;
  /** Parameters that are data contracts (elements with children): their members in order, and their namespace. */
  contracts: Map<string, { namespace: string; members: Array<[name: string, value: string]> }>;
}

/** A data contract answer: elements in order, each text or nested elements (a list repeats an element name). */
export type ResultTree = Array<[name: string, value: string | ResultTree]>;

/** The namespace of the web service's data contracts. */
export const DATA_CONTRACT_NS = "http://schemas.datacontract.org/2004/07/StarMFWebService";

/** A handler answers the operation's Result text (or a data contract tree), or throws a SoapFault. */
export type SoapHandler = (request: SoapRequest) => string | ResultTree | Promise<string | ResultTree>;
export type JsonHandler = (body: unknown, request: { path: string; headers: IncomingMessage["headers"] }) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

/** Raised by a handler for a request the service cannot deserialize: answered as HTTP 500 with a SOAP fault. */
export class SoapFault extends Error {}

export type ScriptedOutcome =
  | "timeout" // the operation runs (and books), then no answer is sent
  | "timeout-before" // no answer, and the operation never runs
  | "malformed" // HTTP 200 with a broken envelope (after the operation ran)
  | "http-500" // HTTP 500 HTML page, operation not run
  | "http-503"
  | "expire-session"; // every session lapses just before the call is handled

export interface RecordedCall {
  path: string;
  operation: string;
  params: Array<[string, string]>;
}

export interface DoubleServer {
  baseUrl: string;
  soap(path: string, action: string, handler: SoapHandler): void;
  json(path: string, handler: JsonHandler): void;
  /** Scripts the next call(s) of `operation` (a SOAP operation name or a JSON path), in order. */
  failNext(operation: string, ...outcomes: ScriptedOutcome[]): void;
  /**
   * Holds the next call of `operation` before it runs, until `release()`: `arrived` resolves when it has come
   * (a test acts while the caller waits for the exchange's answer, then lets it go on).
   */
  gateNext(operation: string): { arrived: Promise<void>; release: () => void };
  /** Called for `expire-session`. */
  onExpireSessions(callback: () => void): void;
  /** Every SOAP call received, in order. */
  calls: RecordedCall[];
  close(): Promise<void>;
}

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, trimValues: false });
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false, processEntities: true });

type Ordered = Array<Record<string, unknown>>;

export async function startDoubleServer(): Promise<DoubleServer> {
  const soapRoutes = new Map<string, SoapHandler>();
  const jsonRoutes = new Map<string, JsonHandler>();
  const scripts = new Map<string, ScriptedOutcome[]>();
  const expireCallbacks: Array<() => void> = [];
  const calls: RecordedCall[] = [];
  const hanging = new Set<ServerResponse>();
  let baseUrl = "";

  const nextScript = (operation: string): ScriptedOutcome | undefined => scripts.get(operation)?.shift();
  const gates = new Map<string, Array<{ arrive: () => void; released: Promise<void> }>>();
  const passGate = async (operation: string): Promise<void> => {
    const gate = gates.get(operation)?.shift();
    if (!gate) return;
    gate.arrive();
    await gate.released;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = (req.url ?? "/").split("?")[0]!;
    if (req.method !== "POST") return send(res, 405, "text/plain", "Method not allowed");
    const contentType = req.headers["content-type"] ?? "";
    if (jsonRoutes.has(path)) {
      let parsed: unknown;
      let unreadable: string | null = contentType.startsWith("application/json") ? null : "media";
      try {
        parsed = JSON.parse(body);
      } catch {
        unreadable ??= "json";
      }
      // A scripted "timeout" runs the operation (it books what it books), then never answers.
      const run = async () => (unreadable ? undefined : jsonRoutes.get(path)!(parsed, { path, headers: req.headers }));
      const script = nextScript(path);
      if (script && (await scripted(res, script, run))) return;
      if (unreadable === "media") return send(res, 415, "text/plain", "Unsupported media type");
      if (unreadable === "json") return send(res, 400, "application/json", JSON.stringify({ Status: "101", Message: "INVALID JSON" }));
      const answer = (await run())!;
      return send(res, answer.status ?? 200, "application/json; charset=utf-8", JSON.stringify(answer.body));
    }
    const request = readSoapRequest(path, body, contentType, baseUrl);
    if (typeof request === "string") return sendFault(res, request);
    const handler = soapRoutes.get(`${path} ${request.action}`);
    if (!handler) {
      return sendFault(res, `The message with Action '${request.action}' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher.`);
    }
    if (!request.action.endsWith(`/${request.operation}`)) return sendFault(res, `The operation element ${request.operation} does not match the action ${request.action}.`);
    calls.push({ path, operation: request.operation, params: request.params });
    await passGate(request.operation);
    const run = async () => handler(request);
    const script = nextScript(request.operation);
    if (script && (await scripted(res, script, run))) return;
    let result: string | ResultTree;
    try {
      result = await run();
    } catch (error) {
      if (error instanceof SoapFault) return sendFault(res, error.message);
      throw error;
    }
    send(res, 200, "application/soap+xml; charset=utf-8", responseEnvelope(request, result));
  }

  /** Applies a scripted outcome; true when it has answered (or chosen never to). */
  async function scripted(res: ServerResponse, outcome: ScriptedOutcome, run: () => Promise<unknown>): Promise<boolean> {
    switch (outcome) {
      case "expire-session":
        for (const callback of expireCallbacks) callback();
        return false;
      case "timeout":
        await run().catch(() => undefined);
        hanging.add(res);
        return true;
      case "timeout-before":
        hanging.add(res);
        return true;
      case "malformed":
        await run().catch(() => undefined);
        send(res, 200, "application/soap+xml; charset=utf-8", `<s:Envelope xmlns:s="${SOAP12_NS}"><s:Body><broken`);
        return true;
      case "http-500":
        send(res, 500, "text/html", "<html><body>Runtime Error</body></html>");
        return true;
      case "http-503":
        send(res, 503, "text/html", "<html><body>Service Unavailable</body></html>");
        return true;
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, "text/plain", `double error: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    calls,
    soap: (path, action, handler) => void soapRoutes.set(`${path} ${action}`, handler),
    json: (path, handler) => void jsonRoutes.set(path, handler),
    failNext: (operation, ...outcomes) => void scripts.set(operation, [...(scripts.get(operation) ?? []), ...outcomes]),
    gateNext: (operation) => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      gates.set(operation, [...(gates.get(operation) ?? []), { arrive, released }]);
      return { arrived, release };
    },
    onExpireSessions: (callback) => void expireCallbacks.push(callback),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, contentType: string, text: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": contentType });
  res.end(text);
}

function sendFault(res: ServerResponse, reason: string): void {
  const xml = builder.build({
    "s:Envelope": {
      "@_xmlns:s": SOAP12_NS,
      "s:Body": { "s:Fault": { "s:Code": { "s:Value": "s:Sender" }, "s:Reason": { "s:Text": { "@_xml:lang": "en-US", "#text": reason } } } },
    },
  }) as string;
  send(res, 500, "application/soap+xml; charset=utf-8", xml);
}

const orderedBuilder = new XMLBuilder({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: true, processEntities: true });

function contractNodes(tree: ResultTree): Ordered {
  return tree.map(([name, value]) => ({ [`a:${name}`]: typeof value === "string" ? (value === "" ? [] : [{ "#text": value }]) : contractNodes(value) }));
}

/**
 * The answer as the exchange sends it: `s:` envelope, `a:Action` header, default namespace on the response
 * element; a data contract result with its members under the `a:` prefix, as WCF writes them.
 */
function responseEnvelope(request: SoapRequest, result: string | ResultTree): string {
  const op = request.operation;
  if (typeof result !== "string") {
    return orderedBuilder.build([
      {
        "s:Envelope": [
          { "s:Header": [{ "a:Action": [{ "#text": `${request.action}Response` }], ":@": { "@_s:mustUnderstand": "1" } }] },
          {
            "s:Body": [
              {
                [`${op}Response`]: [{ [`${op}Result`]: contractNodes(result), ":@": { "@_xmlns:a": DATA_CONTRACT_NS, "@_xmlns:i": "http://www.w3.org/2001/XMLSchema-instance" } }],
                ":@": { "@_xmlns": request.namespace },
              },
            ],
          },
        ],
        ":@": { "@_xmlns:s": SOAP12_NS, "@_xmlns:a": WSA_NS },
      },
    ]) as string;
  }
  return builder.build({
    "s:Envelope": {
      "@_xmlns:s": SOAP12_NS,
      "@_xmlns:a": WSA_NS,
      "s:Header": { "a:Action": { "@_s:mustUnderstand": "1", "#text": `${request.action}Response` } },
      "s:Body": { [`${op}Response`]: { "@_xmlns": request.namespace, [`${op}Result`]: result } },
    },
  }) as string;
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(":") + 1);
const prefixOf = (qualified: string) => (qualified.includes(":") ? qualified.slice(0, qualified.indexOf(":")) : "");
const elementName = (node: Record<string, unknown>) => Object.keys(node).find((key) => key !== ":@")!;

/** Reads a SOAP 1.2 request, or answers why it is not one (the fault reason). */
function readSoapRequest(path: string, body: string, contentType: string, baseUrl: string): SoapRequest | string {
  if (!/^application\/soap\+xml\s*;/.test(contentType) && contentType !== "application/soap+xml") {
    return `Cannot process the message because the content type '${contentType}' was not the expected type 'application/soap+xml; charset=utf-8'.`;
  }
  if (XMLValidator.validate(body) !== true) return "The request is not well-formed XML.";
  const doc = parser.parse(body) as Ordered;
  const envelope = doc.find((node) => localName(elementName(node)) === "Envelope");
  if (!envelope) return "The request is not a SOAP envelope.";
  const envName = elementName(envelope);
  const envAttrs = (envelope[":@"] ?? {}) as Record<string, string>;
  const namespaces = new Map<string, string>();
  const declare = (attrs: Record<string, string>) => {
    for (const [key, value] of Object.entries(attrs)) if (key.startsWith("@_xmlns:")) namespaces.set(key.slice(8), value);
  };
  declare(envAttrs);
  if (namespaces.get(prefixOf(envName)) !== SOAP12_NS) return "The envelope is not in the SOAP 1.2 namespace.";
  const parts = envelope[envName] as Ordered;
  const header = parts.find((node) => localName(elementName(node)) === "Header");
  const bodyNode = parts.find((node) => localName(elementName(node)) === "Body");
  if (!header || !bodyNode) return "The envelope needs a Header (wsa:Action, wsa:To) and a Body.";
  declare((header[":@"] ?? {}) as Record<string, string>);
  const headerItems = header[elementName(header)] as Ordered;
  const headerText = (name: string) => {
    const item = headerItems.find((node) => localName(elementName(node)) === name && namespaces.get(prefixOf(elementName(node))) === WSA_NS);
    return item ? textOf(item[elementName(item)] as Ordered) : undefined;
  };
  const action = headerText("Action");
  const to = headerText("To");
  if (!action) return "The message has no WS-Addressing Action header.";
  const actionParam = /action="([^"]*)"/.exec(contentType)?.[1];
  if (actionParam !== undefined && actionParam !== action) return `The SOAP action '${actionParam}' of the content type does not match the WS-Addressing Action '${action}'.`;
  if (to !== `${baseUrl}${path}`) return `The message's wsa:To '${to ?? ""}' is not this endpoint.`;
  const operations = (bodyNode[elementName(bodyNode)] as Ordered).filter((node) => elementName(node) !== "#text");
  if (operations.length !== 1) return "The Body must hold exactly one operation element.";
  const opNode = operations[0]!;
  const opName = elementName(opNode);
  declare((opNode[":@"] ?? {}) as Record<string, string>);
  const namespace = namespaces.get(prefixOf(opName)) ?? "";
  const params: Array<[string, string]> = [];
  const contracts: SoapRequest["contracts"] = new Map();
  for (const node of (opNode[opName] as Ordered).filter((n) => elementName(n) !== "#text")) {
    const name = elementName(node);
    if (namespaces.get(prefixOf(name)) !== namespace) return `The parameter ${name} is not in the operation's namespace.`;
    const text = textOf(node[name] as Ordered);
    params.push([localName(name), text ?? ""]);
    if (text !== undefined) continue;
    declare((node[":@"] ?? {}) as Record<string, string>);
    const memberNodes = (node[name] as Ordered).filter((n) => elementName(n) !== "#text");
    const memberNs = new Set(memberNodes.map((n) => namespaces.get(prefixOf(elementName(n)))));
    if (memberNs.size > 1) return `The members of ${name} are not in one namespace.`;
    const members: Array<[string, string]> = [];
    for (const member of memberNodes) {
      const value = textOf(member[elementName(member)] as Ordered);
      if (value === undefined) return `The member ${elementName(member)} of ${name} is not text.`;
      members.push([localName(elementName(member)), value]);
    }
    contracts.set(localName(name), { namespace: [...memberNs][0] ?? "", members });
  }
  return { path, action, to, operation: localName(opName), namespace, params, contracts };
}

function textOf(children: Ordered): string | undefined {
  if (children.length === 0) return "";
  if (children.length === 1 && "#text" in children[0]!) return String(children[0]!["#text"]);
  return undefined;
}
