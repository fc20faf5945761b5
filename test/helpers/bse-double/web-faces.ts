import { DATA_CONTRACT_NS, SoapFault, type JsonHandler, type ResultTree, type SoapHandler, type SoapRequest } from "./server.js";

/**
 * StarMFWebService's two faces (bse-starmf-services.md §6-7 support both readings: web-service.ts): a WCF
 * service answers the same operation over SOAP (one `Param` data contract, members in ordinal order, a
 * data contract result) and over JSON (the contract as an object at `.svc/<Operation>`). The double
 * writes each operation once and serves it on the other face through these adapters.
 */

/** The members of the operation's one `Param` data contract, refused the way WCF's formatter refuses them. */
export function contractMembers(request: SoapRequest): Array<[string, string]> {
  if (request.params.map(([name]) => name).join(",") !== "Param") throw new SoapFault("The operation takes one Param element.");
  const contract = request.contracts.get("Param");
  if (!contract || contract.namespace !== DATA_CONTRACT_NS) throw new SoapFault("Param is not a StarMFWebService data contract.");
  return contract.members;
}

const ordinal = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** A JSON operation on the SOAP face: the contract's members (in ordinal order, as WCF reads them) as the body; the answer as a data contract. */
export function soapFace(handler: JsonHandler): SoapHandler {
  return async (request) => {
    const members = contractMembers(request);
    const sorted = [...members].sort(ordinal);
    if (members.some(([name], i) => sorted[i]![0] !== name)) throw new SoapFault("The formatter threw an exception: the members of Param are not in order.");
    const answer = await handler(Object.fromEntries(members), { path: request.path, headers: {} });
    return treeOf(answer.body as Record<string, unknown>);
  };
}

function treeOf(value: Record<string, unknown>): ResultTree {
  return Object.entries(value).map(([name, member]): [string, string | ResultTree] => {
    if (Array.isArray(member)) return [name, member.map((item): [string, ResultTree] => [name, treeOf(item as Record<string, unknown>)])];
    if (member !== null && typeof member === "object") return [name, treeOf(member as Record<string, unknown>)];
    return [name, member === null || member === undefined ? "" : String(member)];
  });
}

/** A SOAP (data contract) operation on the JSON face: the body's members as its `Param` contract; the result as JSON (a list element as an array). */
export function jsonFace(operation: string, handler: SoapHandler): JsonHandler {
  return async (body, { path }) => {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return { status: 400, body: { Message: "The request body is not a JSON object." } };
    const members = Object.entries(body as Record<string, unknown>)
      .map(([name, value]): [string, string] => [name, value === null || value === undefined ? "" : String(value)])
      .sort(ordinal);
    const request: SoapRequest = {
      path, action: operation, to: path, operation, namespace: "", params: [["Param", ""]],
      contracts: new Map([["Param", { namespace: DATA_CONTRACT_NS, members }]]),
    };
    try {
      const result = await handler(request);
      return { body: typeof result === "string" ? result : objectOf(result) };
    } catch (error) {
      if (error instanceof SoapFault) return { status: 400, body: { Message: error.message } };
      throw error;
    }
  };
}

function objectOf(tree: ResultTree): Record<string, unknown> {
  return Object.fromEntries(
    tree.map(([name, value]) => {
      if (typeof value === "string") return [name, value];
      const isList = value.length === 0 || value.every(([item]) => item === name);
      return [name, isList ? value.map(([, item]) => (typeof item === "string" ? item : objectOf(item))) : objectOf(value)];
    }),
  );
}
