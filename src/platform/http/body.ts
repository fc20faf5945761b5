import { AppError } from "../lib/errors.js";

export const MAX_BODY_BYTES = 1024 * 1024;

export interface BodyOptions {
  /**
   * The request is @hono/node-server's, over a Node request: a body of declared length is then read
   * straight from the Node request (`arrayBuffer`), where its web stream would first build a whole
   * web Request around it (most of a small POST's CPU). Node delivers no more than the declared
   * length, so the limit still holds; a body without one is streamed and counted as it comes.
   */
  fromNode?: boolean;
}

/** Reads a request body, refusing it (413) as soon as it passes the limit, without buffering the rest. */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES, options: BodyOptions = {}): Promise<string> {
  const length = request.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > limit) throw tooLarge(limit);
  if (options.fromNode && length !== null) {
    return Buffer.from(await request.arrayBuffer().catch(incompleteBody)).toString("utf8");
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(incompleteBody);
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The connection ended mid-body: the client went away, or the request timed out (408 sent). */
function incompleteBody(): never {
  throw new AppError("VALIDATION_ERROR", "The request body was not received completely", {
    details: [{ path: "", message: "Incomplete body", reason: "incomplete_body" }],
  });
}

export const tooLarge = (limit = MAX_BODY_BYTES) =>
  new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${limit / 1024 / 1024} MB`);

const mediaType = (request: Request) => request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();

/**
 * Parses a JSON body (or, where allowed, a form-urlencoded one) into an object. An empty body is an
 * empty object, so POSTs that take no input need no content type.
 */
export async function readObjectBody(request: Request, options: { allowForm: boolean } & BodyOptions): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, MAX_BODY_BYTES, options);
  if (text.trim() === "") return {};
  const type = mediaType(request);
  if (type === "application/json" || type?.endsWith("+json")) return parseJsonObject(text);
  if (options.allowForm && type === "application/x-www-form-urlencoded") return parseForm(text);
  const accepted = options.allowForm ? "application/json or application/x-www-form-urlencoded" : "application/json";
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Content-Type must be ${accepted}${type ? `, not ${type}` : ""}`);
}

function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("VALIDATION_ERROR", "The request body is not valid JSON", {
      details: [{ path: "", message: "Malformed JSON", reason: "malformed_json" }],
    });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AppError("VALIDATION_ERROR", "The request body must be a JSON object", {
      details: [{ path: "", message: "Expected a JSON object", reason: "invalid_type" }],
    });
  }
  return value as Record<string, unknown>;
}

/**
 * The fields in a prototype-less object: in a plain one `constructor` or `toString` would look
 * repeated and `__proto__` would vanish, instead of reaching the input checks as unknown fields.
 */
function parseForm(text: string): Record<string, unknown> {
  const params = new URLSearchParams(text);
  const body = Object.create(null) as Record<string, string>;
  for (const [key, value] of params) {
    if (Object.hasOwn(body, key)) {
      throw new AppError("VALIDATION_ERROR", "A form field is repeated", { details: [{ path: key, message: "Repeated field", reason: "repeated_field" }] });
    }
    body[key] = value;
  }
  return body;
}
