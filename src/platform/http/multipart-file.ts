import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import busboy from "busboy";
import { fileTypeFromBuffer } from "file-type";
import { AppError, validationError, type DetailReason } from "../lib/errors.js";

/** What a multipart upload must be: one file part, at most `maxBytes`, of one of `types` by its content. */
export interface FileRules<T extends string> {
  /** The name of the one part the body carries. */
  field: string;
  maxBytes: number;
  /** Media types accepted, judged by the file's first bytes (the part's declared type is not trusted). */
  types: readonly T[];
  /** How the types read in a refusal ("a PDF, JPEG or PNG"). */
  typesLabel: string;
}

/**
 * A request as the reader sees it. `body` may be a fetch Request's stream, or an async iterable such as
 * a Node request's `iterator({ destroyOnReturn: false })`: stopping early then leaves the request (and
 * its connection) alive, so the refusal can still be answered.
 */
export interface UploadRequest {
  headers: Headers;
  body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null;
}

/**
 * The request to read: under @hono/node-server, its Node request, read in place (its fetch stream
 * would read ahead through a second stream, and stopping it would leave that one attached).
 */
export function uploadRequestOf(request: Request, incoming: IncomingMessage | undefined): UploadRequest {
  return { headers: request.headers, body: incoming ? incoming.iterator({ destroyOnReturn: false }) : request.body };
}

export interface ReceivedFile<T extends string> {
  bytes: Buffer;
  size: number;
  /** Hex SHA-256 of the bytes, computed as they arrived. */
  sha256: string;
  contentType: T;
}

/**
 * What a declared Content-Length may add to the file's own limit: the boundaries, the part's
 * headers (a long file name included) and the form's framing. A body that declares more is refused
 * before a byte of it is read; one that streams more (chunked) is refused as soon as it passes.
 */
export const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/** file-type's sample: enough of the head for every format it knows. */
const SNIFF_BYTES = 4100;

export const payloadTooLarge = (maxBytes: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `The file is larger than ${formatBytes(maxBytes)} (${maxBytes} bytes)`);

const formatBytes = (bytes: number) => (bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MB` : `${bytes} bytes`);

const partError = (path: string, message: string, reason: DetailReason) => validationError([{ path, message, reason }], message);

/**
 * Reads a `multipart/form-data` body as a stream (busboy) and returns its one file. Nothing beyond
 * the limit is ever held: the file's chunks are kept up to `maxBytes` and the read stops at the first
 * byte more (413), at a second part, or as soon as the file's first bytes are of another type (415).
 * The caller answers at once and closes the connection (lingering-close.ts); the rest is never parsed.
 *
 * Refusals: not multipart/form-data 415; declared or streamed body over the limit 413; a text field
 * or a file part of another name 400 with its name as the path; no file part, a repeated one or an
 * empty one 400 at `field`; a malformed or truncated form 400.
 */
export async function readMultipartFile<T extends string>(request: UploadRequest, rules: FileRules<T>): Promise<ReceivedFile<T>> {
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "multipart/form-data") {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", `Content-Type must be multipart/form-data${mediaType ? `, not ${mediaType}` : ""}`);
  }
  const maxBodyBytes = rules.maxBytes + MULTIPART_OVERHEAD_BYTES;
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBodyBytes) throw payloadTooLarge(rules.maxBytes);

  const upload = new FilePart(rules);
  let parser: busboy.Busboy;
  try {
    // Text fields are refused at their end, so none of their bytes needs keeping (fieldSize 0).
    parser = busboy({ headers: { "content-type": contentType }, limits: { fieldSize: 0, headerPairs: 32 } });
  } catch {
    throw partError("", "The multipart Content-Type has no boundary", "invalid_format");
  }
  upload.listen(parser);
  const closed = new Promise<void>((resolve) => parser.once("close", resolve));
  const chunks = chunksOf(request.body);
  try {
    let bodyBytes = 0;
    for (;;) {
      upload.check();
      const { done, value } = await chunks.next().catch(incompleteBody);
      if (done) break;
      bodyBytes += value.byteLength;
      if (bodyBytes > maxBodyBytes) throw payloadTooLarge(rules.maxBytes);
      if (!parser.write(value)) await drained(parser, closed);
      await upload.sniffed();
    }
    parser.end();
    await closed;
    return await upload.result();
  } catch (error) {
    parser.destroy();
    await chunks.return?.().catch(() => {});
    throw error;
  }
}

/** Busboy holds a chunk back while the file stream's buffer is full; it asks for more with "drain". */
async function drained(parser: busboy.Busboy, closed: Promise<void>): Promise<void> {
  let onDrain: () => void = () => {};
  await Promise.race([new Promise<void>((resolve) => parser.once("drain", (onDrain = resolve))), closed]);
  parser.off("drain", onDrain);
}

function chunksOf(body: UploadRequest["body"]): AsyncIterator<Uint8Array> {
  if (body === null) return { next: async () => ({ done: true, value: undefined }) };
  if ("getReader" in body) {
    const reader = body.getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await reader.cancel();
        return { done: true, value: undefined };
      },
    };
  }
  return body[Symbol.asyncIterator]();
}

function incompleteBody(): never {
  // The connection ended mid-body: the client went away, or the request timed out (408 sent).
  throw partError("", "The request body was not received completely", "incomplete_body");
}

/** The state of one upload as busboy reports its parts: the file's chunks, hash and size, or the refusal. */
class FilePart<T extends string> {
  private readonly chunks: Buffer[] = [];
  private readonly hash = createHash("sha256");
  private size = 0;
  private seen = false;
  private ended = false;
  private contentType: T | undefined;
  private sniffing: Promise<void> | undefined;
  private failure: Error | undefined;

  constructor(private readonly rules: FileRules<T>) {}

  listen(parser: busboy.Busboy): void {
    const { field } = this.rules;
    parser.on("file", (name, stream) => {
      stream.on("error", () => {}); // a destroyed parser ends its file with an error; the refusal is already known
      if (name !== field) return this.fail(partError(name, `Unknown part; the body carries one file part, \`${field}\``, "unknown_field"));
      if (this.seen) return this.fail(partError(field, `Exactly one \`${field}\` part is accepted`, "repeated_field"));
      this.seen = true;
      stream.on("data", (chunk: Buffer) => this.take(chunk));
      stream.on("end", () => (this.ended = true));
    });
    parser.on("field", (name) => {
      if (name === field) this.fail(partError(field, `\`${field}\` must be a file part (with a filename)`, "invalid_type"));
      else this.fail(partError(name, `Unknown part; the body carries one file part, \`${field}\``, "unknown_field"));
    });
    parser.on("error", (error: Error) =>
      this.fail(
        /Unexpected end/.test(error.message)
          ? partError("", "The multipart body ends before its closing boundary", "incomplete_body")
          : partError("", "The multipart body is malformed", "invalid_format"),
      ),
    );
  }

  /** Throws the refusal found so far, if any. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /** Waits for a type check under way, then throws its refusal, if any. */
  async sniffed(): Promise<void> {
    await this.sniffing;
    this.check();
  }

  async result(): Promise<ReceivedFile<T>> {
    this.check();
    const { field } = this.rules;
    if (!this.seen) throw partError(field, `A file part named \`${field}\` is required`, "required");
    if (!this.ended) throw partError("", "The multipart body ends before its closing boundary", "incomplete_body");
    if (this.size === 0) throw partError(field, "The file is empty", "too_small");
    this.sniffing ??= this.sniff();
    await this.sniffed();
    return { bytes: Buffer.concat(this.chunks, this.size), size: this.size, sha256: this.hash.digest("hex"), contentType: this.contentType! };
  }

  private take(chunk: Buffer): void {
    if (this.failure) return;
    this.size += chunk.byteLength;
    if (this.size > this.rules.maxBytes) return this.fail(payloadTooLarge(this.rules.maxBytes));
    this.chunks.push(chunk);
    this.hash.update(chunk);
    if (this.sniffing === undefined && this.size >= SNIFF_BYTES) this.sniffing = this.sniff();
  }

  /** Judges the type by the head of the file, once: as soon as enough has arrived, or at its end. */
  private async sniff(): Promise<void> {
    const head = Buffer.concat(this.chunks).subarray(0, SNIFF_BYTES);
    const found = await fileTypeFromBuffer(head).catch(() => undefined);
    const type = this.rules.types.find((t) => t === found?.mime);
    if (type === undefined) {
      this.fail(new AppError("UNSUPPORTED_MEDIA_TYPE", `The file must be ${this.rules.typesLabel} (judged by its content)`));
    }
    this.contentType = type;
  }

  private fail(error: Error): void {
    this.failure ??= error;
  }
}
