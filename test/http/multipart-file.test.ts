import type { AddressInfo } from "node:net";
import type { HttpBindings, ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lingerOnClose } from "../../src/platform/http/lingering-close.js";
import { MULTIPART_OVERHEAD_BYTES, readMultipartFile, uploadRequestOf, type ReceivedFile } from "../../src/platform/http/multipart-file.js";
import { startHttpServer } from "../../src/platform/http/server.js";
import { describeError } from "../../src/platform/trpc/errors.js";
import {
  BOUNDARY,
  filePart,
  jpegOfSize,
  MULTIPART,
  multipartBody,
  multipartLength,
  multipartPieces,
  pdfOfSize,
  pngOfSize,
  rawRequest,
  repeated,
  sha256,
} from "../helpers/uploads.js";

// The reader on its own, in a tiny app served as main.ts serves the real one (src/platform/http/server.ts),
// with a small limit and short timeouts so the boundaries are quick to reach.
const LIMIT = 64 * 1024;
const rules = { field: "file", maxBytes: LIMIT, types: ["application/pdf", "image/jpeg", "image/png"] as const, typesLabel: "a PDF, JPEG or PNG" };
let baseUrl = "";
let server: ServerType;
let accepted = 0;

beforeAll(async () => {
  const app = new Hono();
  // As the upload route reads: the Node request in place, a lingering close after a refusal.
  app.post("/upload", async (c) => {
    const { incoming } = c.env as HttpBindings;
    try {
      return await answer(await readMultipartFile(uploadRequestOf(c.req.raw, incoming), rules));
    } catch (error) {
      lingerOnClose(incoming);
      throw error;
    }
  });
  // Through the fetch Request's stream (Hono without the Node server).
  app.post("/upload-web", async (c) => answer(await readMultipartFile(c.req.raw, rules)));
  app.onError((error, c) => {
    const { status, code, message, details } = describeError(error);
    return c.json({ code, message, details }, status as 400, { Connection: "close" });
  });
  server = await startHttpServer(app.fetch, { port: 0, hostname: "127.0.0.1", headersTimeoutMs: 500, bodyTimeoutMs: 2000 });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

function answer(file: ReceivedFile<string>): Response {
  accepted += 1;
  return Response.json({ size: file.size, sha256: file.sha256, contentType: file.contentType, bytesSha256: sha256(file.bytes) });
}

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const upload = (body: Buffer, headers: Record<string, string> = { "Content-Type": MULTIPART }) =>
  rawRequest(baseUrl, { path: "/upload", headers, body: [body], contentLength: body.length });

describe("readMultipartFile: the file", () => {
  it.each([
    ["a PDF", pdfOfSize(5000), "application/pdf"],
    ["a PNG declared as a PDF", pngOfSize(300), "image/png"],
    ["a JPEG under the sniffing sample", jpegOfSize(40), "image/jpeg"],
  ])("returns %s with its size, content type by content, and SHA-256 computed while streaming", async (_, file, type) => {
    const answer = await upload(multipartBody([filePart(file)]));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ size: file.length, sha256: sha256(file), contentType: type, bytesSha256: sha256(file) });
  });

  it("takes the file in pieces as small as one byte, and a preamble and epilogue around the form", async () => {
    const file = pdfOfSize(9000);
    const body = Buffer.concat([Buffer.from("preamble\r\n"), multipartBody([filePart(file)]), Buffer.from("epilogue")]);
    const answer = await rawRequest(baseUrl, { path: "/upload", headers: { "Content-Type": MULTIPART }, body: [body.subarray(0, 300), body.subarray(300)], sliceBytes: 1 });
    expect(answer.status).toBe(200);
    expect(answer.body.sha256).toBe(sha256(file));
  });

  it("accepts exactly the limit, declared or chunked", async () => {
    const file = pngOfSize(LIMIT);
    expect((await upload(multipartBody([filePart(file, "scan.png", "image/png")]))).body).toMatchObject({ size: LIMIT, contentType: "image/png" });
    const chunked = await rawRequest(baseUrl, { path: "/upload", headers: { "Content-Type": MULTIPART }, body: multipartPieces([filePart(file)]), sliceBytes: 4096 });
    expect(chunked.body).toMatchObject({ size: LIMIT, sha256: sha256(file) });
  });
});

describe("readMultipartFile: a fetch Request's stream", () => {
  it("reads it as well: the file, and a refusal one byte over the limit", async () => {
    const file = jpegOfSize(LIMIT);
    const ok = await rawRequest(baseUrl, { path: "/upload-web", headers: { "Content-Type": MULTIPART }, body: multipartPieces([filePart(file)]), sliceBytes: 8192 });
    expect(ok.body).toMatchObject({ size: LIMIT, sha256: sha256(file), contentType: "image/jpeg" });
    const over = await rawRequest(baseUrl, { path: "/upload-web", headers: { "Content-Type": MULTIPART }, body: [multipartBody([filePart(jpegOfSize(LIMIT + 1))])] });
    expect(over.status).toBe(413);
  });
});

describe("readMultipartFile: refusals", () => {
  const refused = (answer: { status: number; body: unknown }) => ({ status: answer.status, body: answer.body });

  it("refuses one byte over the limit while streaming (413), before the body is all sent, and the connection is closed", async () => {
    const before = accepted;
    // 4 MB more than the limit follows the first byte over it: the answer comes first.
    const file = () => repeated(pdfOfSize(LIMIT + 1).subarray(0, 16 * 1024), 256);
    for (const contentLength of [undefined, multipartLength([{ name: "file", filename: "f.pdf", contentType: "application/pdf", size: 4 * 1024 * 1024 }])]) {
      const answer = await rawRequest(baseUrl, {
        path: "/upload",
        headers: { "Content-Type": MULTIPART },
        body: multipartPieces([filePart(file)]),
        ...(contentLength === undefined ? {} : { contentLength: contentLength - 1 }),
      });
      // A declared length over limit + allowance would be refused before reading; this one is chunked.
      expect(refused(answer)).toEqual({ status: 413, body: { code: "PAYLOAD_TOO_LARGE", message: "The file is larger than 65536 bytes (65536 bytes)" } });
      if (contentLength !== undefined) break;
      expect(answer.headers.connection).toBe("close");
      expect(answer.closedByServer).toBe(true);
      expect(answer.sentAll).toBe(false);
    }
    const exactlyOneOver = await upload(multipartBody([filePart(pdfOfSize(LIMIT + 1))]));
    expect(exactlyOneOver.status).toBe(413);
    expect(exactlyOneOver.closedByServer).toBe(true);
    expect(accepted).toBe(before);
  });

  it("refuses a declared Content-Length over the limit and the allowance before reading a byte of the body", async () => {
    const answer = await rawRequest(baseUrl, { path: "/upload", headers: { "Content-Type": MULTIPART }, contentLength: LIMIT + MULTIPART_OVERHEAD_BYTES + 1 });
    expect(answer.status).toBe(413);
    expect(answer.bytesSentBeforeAnswer).toBe(0);
    expect(answer.closedByServer).toBe(true);
  });

  it("refuses a body streamed past the limit and the allowance, whatever its parts (a huge text field)", async () => {
    const field = { name: "note", data: () => repeated(Buffer.alloc(16 * 1024, 0x61), 4096) };
    const answer = await rawRequest(baseUrl, { path: "/upload", headers: { "Content-Type": MULTIPART }, body: multipartPieces([field]) });
    expect(answer.status).toBe(413);
    expect(answer.sentAll).toBe(false);
  });

  it.each([
    ["application/json", "Content-Type must be multipart/form-data, not application/json"],
    ["multipart/mixed; boundary=x", "Content-Type must be multipart/form-data, not multipart/mixed"],
    ["", "Content-Type must be multipart/form-data"],
  ])("refuses Content-Type %j with 415", async (type, message) => {
    const answer = await upload(multipartBody([filePart(pdfOfSize(100))]), type ? { "Content-Type": type } : {});
    expect(refused(answer)).toEqual({ status: 415, body: { code: "UNSUPPORTED_MEDIA_TYPE", message } });
  });

  it("refuses content that is not a PDF, JPEG or PNG whatever it declares (415), as soon as its head has arrived", async () => {
    const zip = Buffer.concat([Buffer.from("504b030414000000", "hex"), Buffer.alloc(200)]);
    for (const file of [Buffer.from("%PD not quite"), zip, Buffer.from("GIF89a" + "x".repeat(100))]) {
      const answer = await upload(multipartBody([filePart(file)]));
      expect(refused(answer)).toEqual({ status: 415, body: { code: "UNSUPPORTED_MEDIA_TYPE", message: "The file must be a PDF, JPEG or PNG (judged by its content)" } });
    }
    const text = () => repeated(Buffer.alloc(8 * 1024, 0x41), 512);
    const early = await rawRequest(baseUrl, { path: "/upload", headers: { "Content-Type": MULTIPART }, body: multipartPieces([filePart(text)]) });
    expect(early.status).toBe(415);
    expect(early.sentAll).toBe(false);
  });

  const detail = (path: string, message: string, reason: string) => ({
    status: 400,
    body: { code: "VALIDATION_ERROR", message, details: [{ path, message, reason }] },
  });

  it.each([
    ["no part at all", [], detail("file", "A file part named `file` is required", "required")],
    ["two file parts", [filePart(pdfOfSize(10)), filePart(pdfOfSize(10))], detail("file", "Exactly one `file` part is accepted", "repeated_field")],
    ["a file part of another name", [{ ...filePart(pdfOfSize(10)), name: "document" }], detail("document", "Unknown part; the body carries one file part, `file`", "unknown_field")],
    ["a text field beside the file", [{ name: "note", data: Buffer.from("hi") }, filePart(pdfOfSize(10))], detail("note", "Unknown part; the body carries one file part, `file`", "unknown_field")],
    ["`file` as a text field", [{ name: "file", data: pdfOfSize(10) }], detail("file", "`file` must be a file part (with a filename)", "invalid_type")],
    ["an empty file", [filePart(Buffer.alloc(0))], detail("file", "The file is empty", "too_small")],
  ])("refuses %s with 400 and its path", async (_, parts, expected) => {
    expect(refused(await upload(multipartBody(parts)))).toEqual(expected);
  });

  it("refuses a form without a boundary, with a malformed part header, or cut short (400)", async () => {
    const noBoundary = await upload(multipartBody([filePart(pdfOfSize(10))]), { "Content-Type": "multipart/form-data" });
    expect(refused(noBoundary)).toEqual(detailOf("", "The multipart Content-Type has no boundary", "invalid_format"));
    const badHeader = await upload(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`));
    expect(refused(badHeader)).toEqual(detailOf("", "The multipart body is malformed", "invalid_format"));
    const whole = multipartBody([filePart(pdfOfSize(5000))]);
    const cut = await upload(whole.subarray(0, whole.length - 20));
    expect(refused(cut)).toEqual(detailOf("", "The multipart body ends before its closing boundary", "incomplete_body"));
  });

  function detailOf(path: string, message: string, reason: string) {
    return { status: 400, body: { code: "VALIDATION_ERROR", message, details: [{ path, message, reason }] } };
  }
});

describe("readMultipartFile: slow clients (body timeout 2 s here)", () => {
  it("accepts a slow but steady upload within the timeout", async () => {
    const file = pdfOfSize(40 * 1024);
    const answer = await rawRequest(baseUrl, { path: "/upload", headers: { "Content-Type": MULTIPART }, body: multipartPieces([filePart(file)]), sliceBytes: 4096, pauseMs: 80 });
    expect(answer.status).toBe(200);
    expect(answer.body.sha256).toBe(sha256(file));
  });

  it("cuts a stalled upload at the timeout: 408, connection closed, nothing accepted", async () => {
    const before = accepted;
    const whole = multipartBody([filePart(pdfOfSize(20 * 1024))]);
    const started = performance.now();
    const answer = await rawRequest(baseUrl, { path: "/upload", headers: { "Content-Type": MULTIPART }, contentLength: whole.length, body: [whole.subarray(0, 10 * 1024)] });
    expect(answer.status).toBe(408);
    expect(answer.closedByServer).toBe(true);
    expect(performance.now() - started).toBeGreaterThan(1900);
    expect(accepted).toBe(before);
  });
});
