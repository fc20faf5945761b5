import { createHash } from "node:crypto";
import net from "node:net";

/** One part of a multipart/form-data body: a file part when it has a filename. */
export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  /** The part's bytes: a buffer, or pieces produced as they are sent (so a huge part is never held). */
  data: Buffer | (() => Iterable<Buffer>);
}

export const BOUNDARY = "----mf-test-boundary-7d1f";
export const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
export const TEN_MB = 10 * 1024 * 1024;

const PDF_HEAD = Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", "latin1");
const PNG_HEAD = Buffer.from(
  // Signature, then an IHDR chunk of a 1x1 RGBA image.
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c489",
  "hex",
);
const JPEG_HEAD = Buffer.from("ffd8ffe000104a46494600010100000100010000", "hex");

/** A file of exactly `size` bytes that file-type judges to be a PDF (a PDF head, then padding). */
export const pdfOfSize = (size: number) => padded(PDF_HEAD, size, 0x20);
export const pngOfSize = (size: number) => padded(PNG_HEAD, size, 0);
export const jpegOfSize = (size: number) => padded(JPEG_HEAD, size, 0);

function padded(head: Buffer, size: number, fill: number): Buffer {
  const out = Buffer.alloc(size, fill);
  head.copy(out, 0, 0, Math.min(head.length, size));
  return out;
}

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** `count` pieces of `piece` (the same buffer each time: a huge body costs the sender no memory). */
export function* repeated(piece: Buffer, count: number): Generator<Buffer> {
  for (let i = 0; i < count; i++) yield piece;
}

/** The body of `parts`, as pieces: each part's head, its data, and the closing boundary. */
export function* multipartPieces(parts: Part[], boundary = BOUNDARY): Generator<Buffer> {
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? "" : `; filename="${part.filename}"`}`;
    const type = part.contentType ? `Content-Type: ${part.contentType}\r\n` : "";
    yield Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`);
    if (Buffer.isBuffer(part.data)) yield part.data;
    else yield* part.data();
    yield Buffer.from("\r\n");
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

export const multipartBody = (parts: Part[], boundary = BOUNDARY) => Buffer.concat([...multipartPieces(parts, boundary)]);

/** The byte length of `parts` without producing them (for a Content-Length). */
export function multipartLength(parts: Array<Omit<Part, "data"> & { size: number }>, boundary = BOUNDARY): number {
  const head = multipartBody(parts.map((p) => ({ ...p, data: Buffer.alloc(0) })), boundary).length;
  return head + parts.reduce((sum, p) => sum + p.size, 0);
}

export const filePart = (data: Part["data"], filename = "form.pdf", contentType = "application/pdf"): Part => ({
  name: "file",
  filename,
  contentType,
  data,
});

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** The body as pieces, sent in order (with backpressure) until the server answers or closes. */
  body?: Iterable<Buffer>;
  /** Declares this Content-Length (the default: chunked transfer encoding, no length declared). */
  contentLength?: number;
  /** Wait this long before each piece after the first (a slow client). */
  pauseMs?: number;
  /** Split pieces into slices of at most this many bytes. */
  sliceBytes?: number;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary shapes
  body: any;
  /** Body bytes written before the answer arrived (framing excluded). */
  bytesSentBeforeAnswer: number;
  /** Whether the whole body was written before the answer arrived. */
  sentAll: boolean;
  /** Whether the server closed the connection after answering (within 300 ms). */
  closedByServer: boolean;
}

/**
 * One request over a raw socket, so the test sees what a careful client sees: the answer as soon as
 * the server sends it (even mid-body, as fetch does not show), how much of the body was sent by
 * then, and whether the server then closed the connection. A raw answer without a readable status
 * (the server closed without answering) rejects.
 */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<RawAnswer>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let bytesSent = 0;
    let sentAll = false;
    let answer: Omit<RawAnswer, "closedByServer"> | undefined;
    let closed = false;
    let settled = false;

    const finish = () => {
      if (settled || !answer) return;
      settled = true;
      const result = answer;
      if (closed) return resolve({ ...result, closedByServer: true });
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ ...result, closedByServer: false });
      }, 300);
      socket.once("close", () => {
        clearTimeout(timer);
        resolve({ ...result, closedByServer: true });
      });
    };

    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      answer ??= parseAnswer(Buffer.concat(received), bytesSent, sentAll);
      finish();
    });
    socket.on("error", () => {}); // a reset while writing is expected when the server refuses mid-body
    socket.on("close", () => {
      closed = true;
      if (!answer) {
        settled = true;
        reject(new Error(`connection closed without an answer: ${Buffer.concat(received).toString("latin1").slice(0, 200)}`));
      }
    });

    socket.once("connect", async () => {
      const method = request.method ?? "POST";
      const headers: Record<string, string> = { Host: `${hostname}:${port}`, ...request.headers };
      const chunked = request.contentLength === undefined && request.body !== undefined;
      if (chunked) headers["Transfer-Encoding"] = "chunked";
      else if (request.contentLength !== undefined) headers["Content-Length"] = String(request.contentLength);
      const head = `${method} ${request.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`;
      if (!(await write(Buffer.from(head, "latin1")))) return;
      let first = true;
      for (const piece of request.body ?? []) {
        for (const slice of slices(piece, request.sliceBytes)) {
          if (!first && request.pauseMs) await new Promise((r) => setTimeout(r, request.pauseMs));
          first = false;
          if (answer || closed) return;
          const framed = chunked ? Buffer.concat([Buffer.from(`${slice.length.toString(16)}\r\n`), slice, Buffer.from("\r\n")]) : slice;
          if (!(await write(framed))) return;
          bytesSent += slice.length;
        }
      }
      if (chunked && !(await write(Buffer.from("0\r\n\r\n")))) return;
      sentAll = true;
    });

    /** Writes with backpressure; false once the server has answered or the socket is gone. */
    async function write(bytes: Buffer): Promise<boolean> {
      if (answer || closed || socket.destroyed) return false;
      if (!socket.write(bytes)) {
        await new Promise<void>((r) => {
          const done = () => {
            socket.off("drain", done);
            socket.off("close", done);
            r();
          };
          socket.on("drain", done);
          socket.on("close", done);
        });
      }
      return !(answer || closed || socket.destroyed);
    }
  });
}

function* slices(piece: Buffer, size: number | undefined): Generator<Buffer> {
  if (!size || piece.length <= size) {
    yield piece;
    return;
  }
  for (let at = 0; at < piece.length; at += size) yield piece.subarray(at, at + size);
}

/** The answer, once its head and its Content-Length of body have arrived. */
function parseAnswer(bytes: Buffer, bytesSent: number, sentAll: boolean): Omit<RawAnswer, "closedByServer"> | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers["content-length"] ?? "0");
  if (bytes.length - end - 4 < length) return undefined;
  const text = bytes.subarray(end + 4, end + 4 + length).toString("utf8");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, text, body, bytesSentBeforeAnswer: bytesSent, sentAll };
}

export const signedFormPath = (id: string) => `/api/broker-changes/v1/${encodeURIComponent(id)}/image`;

/**
 * POSTs `parts` to a broker change request's upload over a raw socket (see rawRequest), with the
 * bearer token; by default with its exact Content-Length, or chunked (`chunked: true`).
 */
export function uploadSignedForm(
  baseUrl: string,
  token: string | undefined,
  id: string,
  parts: Part[],
  options: { chunked?: boolean; headers?: Record<string, string>; pauseMs?: number; sliceBytes?: number } = {},
): Promise<RawAnswer> {
  const sized = parts.every((p) => Buffer.isBuffer(p.data));
  const contentLength = options.chunked || !sized ? undefined : multipartBody(parts).length;
  return rawRequest(baseUrl, {
    path: signedFormPath(id),
    headers: { "Content-Type": MULTIPART, ...(token ? { Authorization: `Bearer ${token}` } : {}), ...options.headers },
    body: multipartPieces(parts),
    ...(contentLength === undefined ? {} : { contentLength }),
    ...(options.pauseMs ? { pauseMs: options.pauseMs } : {}),
    ...(options.sliceBytes ? { sliceBytes: options.sliceBytes } : {}),
  });
}
