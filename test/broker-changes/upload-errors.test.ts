import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, twoFaBody, wetSignatureBody } from "../helpers/broker-changes.js";
import {
  filePart,
  jpegOfSize,
  MULTIPART,
  multipartBody,
  pdfOfSize,
  rawRequest,
  repeated,
  signedFormPath,
  TEN_MB,
  uploadSignedForm,
  type Part,
  type RawAnswer,
} from "../helpers/uploads.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

async function pendingRequest(): Promise<string> {
  const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
  expect(created.status).toBe(201);
  return created.body.id as string;
}

/** The refusal as the client sees it: the envelope with the answer's own request id, and the connection closed. */
function expectRefusal(answer: RawAnswer, status: number, error: Record<string, unknown>): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { success: false, error, request_id: answer.headers["x-request-id"] },
  });
  expect(answer.headers["x-request-id"]).toMatch(/^req_/);
  expect(answer.headers["content-type"]).toBe("application/json");
  expect(answer.headers.connection).toBe("close");
  expect(answer.closedByServer).toBe(true);
}

/** Nothing stored: no document, the request still awaiting its form, no event. */
async function expectUntouched(id: string): Promise<void> {
  expect(await app.prisma.brokerChangeDocument.findUnique({ where: { brokerChangeId: id } })).toBeNull();
  expect((await app.prisma.brokerChange.findUnique({ where: { id } }))?.status).toBe("PENDING_DOCUMENT");
  expect(await app.prisma.event.count({ where: { resourceType: "broker_change", resourceId: id } })).toBe(0);
}

const invalid = (path: string, message: string, reason: string, summary = message) => ({
  code: "VALIDATION_ERROR",
  message: summary,
  details: [{ path, message, reason }],
});

describe("POST /api/broker-changes/v1/{id}/image: the body's refusals, nothing stored", () => {
  it("413 for one byte over 10 MB, while streaming: the rest is not read and the connection is closed", async () => {
    const id = await pendingRequest();
    const form = pdfOfSize(TEN_MB + 1);
    for (const chunked of [false, true]) {
      const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(form)], { chunked });
      expectRefusal(answer, 413, { code: "PAYLOAD_TOO_LARGE", message: "The file is larger than 10 MB (10485760 bytes)" });
    }
    // Far more than the limit, chunked: refused once the limit is passed, long before the end.
    const huge = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(() => repeated(form.subarray(0, 1024 * 1024), 64))]);
    expectRefusal(huge, 413, { code: "PAYLOAD_TOO_LARGE", message: "The file is larger than 10 MB (10485760 bytes)" });
    expect(huge.sentAll).toBe(false);
    await expectUntouched(id);
  });

  it("413 for a declared Content-Length over the limit (10 MB + 16 KB of multipart framing), before reading a byte", async () => {
    const id = await pendingRequest();
    const answer = await rawRequest(app.baseUrl, {
      path: signedFormPath(id),
      headers: { Authorization: `Bearer ${ctx.token}`, "Content-Type": MULTIPART },
      contentLength: TEN_MB + 16 * 1024 + 1,
    });
    expectRefusal(answer, 413, { code: "PAYLOAD_TOO_LARGE", message: "The file is larger than 10 MB (10485760 bytes)" });
    // The answer came while the client had sent no byte of its body.
    expect(answer.bytesSentBeforeAnswer).toBe(0);
    await expectUntouched(id);
  });

  it.each([
    ["application/json", "Content-Type must be multipart/form-data, not application/json"],
    ["application/pdf", "Content-Type must be multipart/form-data, not application/pdf"],
  ])("415 for a body of type %s", async (type, message) => {
    const id = await pendingRequest();
    const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(pdfOfSize(100))], { headers: { "Content-Type": type } });
    expectRefusal(answer, 415, { code: "UNSUPPORTED_MEDIA_TYPE", message });
    await expectUntouched(id);
  });

  it("415 for a file that is not a PDF, JPEG or PNG by its content, whatever its part declares", async () => {
    const id = await pendingRequest();
    const gif = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(5000)]);
    const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(gif, "form.pdf", "application/pdf")]);
    expectRefusal(answer, 415, { code: "UNSUPPORTED_MEDIA_TYPE", message: "The file must be a PDF, JPEG or PNG (judged by its content)" });
    await expectUntouched(id);
  });

  it.each<[string, Part[], ReturnType<typeof invalid>]>([
    ["no file part", [{ name: "note", data: Buffer.from("x") }], invalid("note", "Unknown part; the body carries one file part, `file`", "unknown_field")],
    ["an empty form", [], invalid("file", "A file part named `file` is required", "required")],
    ["two file parts", [filePart(pdfOfSize(100)), filePart(jpegOfSize(100))], invalid("file", "Exactly one `file` part is accepted", "repeated_field")],
    ["a file part named otherwise", [{ ...filePart(pdfOfSize(100)), name: "form" }], invalid("form", "Unknown part; the body carries one file part, `file`", "unknown_field")],
    ["`file` sent as a text field", [{ name: "file", data: pdfOfSize(100) }], invalid("file", "`file` must be a file part (with a filename)", "invalid_type")],
    ["an empty file", [filePart(Buffer.alloc(0))], invalid("file", "The file is empty", "too_small")],
  ])("400 for %s, with its path", async (_, parts, error) => {
    const id = await pendingRequest();
    expectRefusal(await uploadSignedForm(app.baseUrl, ctx.token, id, parts), 400, error);
    await expectUntouched(id);
  });

  it("400 for a form cut short (no closing boundary)", async () => {
    const id = await pendingRequest();
    const whole = multipartBody([filePart(pdfOfSize(6000))]);
    const answer = await rawRequest(app.baseUrl, {
      path: signedFormPath(id),
      headers: { Authorization: `Bearer ${ctx.token}`, "Content-Type": MULTIPART },
      body: [whole.subarray(0, whole.length - 30)],
    });
    expectRefusal(answer, 400, invalid("", "The multipart body ends before its closing boundary", "incomplete_body"));
    await expectUntouched(id);
  });
});

describe("POST /api/broker-changes/v1/{id}/image: refusals before the body is read", () => {
  /** A 5 MB upload sent slowly: an answer that arrives while it is still being sent did not wait for it. */
  const slowUpload = (id: string, token: string | undefined) =>
    uploadSignedForm(app.baseUrl, token, id, [filePart(pdfOfSize(5 * 1024 * 1024))], { sliceBytes: 64 * 1024, pauseMs: 20 });

  it("401 without a valid token", async () => {
    const id = await pendingRequest();
    for (const token of [undefined, "not-a-token"]) {
      const answer = await slowUpload(id, token);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe("UNAUTHORIZED");
      expect(answer.sentAll).toBe(false);
      expect(answer.closedByServer).toBe(true);
    }
    await expectUntouched(id);
  });

  it("409 INVALID_STATE for a TWO_FA request and for one already SUBMITTED, checked before the body is read", async () => {
    const twoFa = await createBrokerChange(app, ctx.token, twoFaBody(ctx.investor));
    expect(twoFa.body.status).toBe("SUBMITTED");
    const id = await pendingRequest();
    expect((await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(pdfOfSize(1000))])).status).toBe(200);
    for (const target of [twoFa.body.id as string, id]) {
      const answer = await slowUpload(target, ctx.token);
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe("INVALID_STATE");
      expect(answer.body.request_id).toBe(answer.headers["x-request-id"]);
      expect(answer.headers.connection).toBe("close");
      expect(answer.sentAll).toBe(false);
      expect(answer.bytesSentBeforeAnswer).toBeLessThan(5 * 1024 * 1024);
    }
    const stored = await app.prisma.brokerChangeDocument.findMany({ where: { brokerChangeId: { in: [id, twoFa.body.id] } } });
    expect(stored.map((d) => [d.brokerChangeId, d.size])).toEqual([[id, 1000]]);
  });

  it("404 for an unknown id, and 400 for an id no request can have", async () => {
    const unknown = await slowUpload("bcr_00000000000000000000000000", ctx.token);
    expectRefusal(unknown, 404, { code: "NOT_FOUND", message: unknown.body.error.message });
    expect(unknown.sentAll).toBe(false);
    const nul = await uploadSignedForm(app.baseUrl, ctx.token, "bcr_\u0000", [filePart(pdfOfSize(10))]);
    expectRefusal(nul, 400, invalid("id", "Must not contain the NUL character (U+0000)", "nul_character", "The request is not valid"));
    const long = await uploadSignedForm(app.baseUrl, ctx.token, "b".repeat(65), [filePart(pdfOfSize(10))]);
    expectRefusal(long, 400, invalid("id", "Too big: expected string to have <=64 characters", "too_big", "The request is not valid"));
  });
});
