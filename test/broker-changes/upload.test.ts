import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";
import { brokerChangeDistributors, createBrokerChange, wetSignatureBody } from "../helpers/broker-changes.js";
import { filePart, jpegOfSize, pdfOfSize, pngOfSize, sha256, signedFormPath, TEN_MB, uploadSignedForm } from "../helpers/uploads.js";

const app = useTestApp();
let ctx: Awaited<ReturnType<typeof brokerChangeDistributors>>;

beforeAll(async () => {
  ctx = await brokerChangeDistributors(app);
});

async function pendingRequest(): Promise<string> {
  const created = await createBrokerChange(app, ctx.token, wetSignatureBody(ctx.investor));
  expect(created.status).toBe(201);
  expect(created.body.status).toBe("PENDING_DOCUMENT");
  return created.body.id as string;
}

const storedDocument = (id: string) => app.prisma.brokerChangeDocument.findUnique({ where: { brokerChangeId: id } });

describe("POST /api/broker-changes/v1/{id}/image", () => {
  it("stores the signed form with its SHA-256, size and content type, submits the request and answers its record", async () => {
    const id = await pendingRequest();
    const before = await app.http("GET", `/api/broker-changes/v1/${id}`, { token: ctx.token });
    const form = pdfOfSize(150_000);
    const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(form, "signed form.pdf", "application/octet-stream")]);

    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    expect(answer.headers["ratelimit-remaining"]).toMatch(/^\d+$/);
    expect(answer.closedByServer).toBe(false);
    const after = await app.http("GET", `/api/broker-changes/v1/${id}`, { token: ctx.token });
    expect(answer.body).toEqual(after.body);
    expect(answer.body).toEqual({
      ...before.body,
      status: "SUBMITTED",
      updated_at: expect.any(String),
      document: { content_type: "application/pdf", size: form.length, sha256: sha256(form), uploaded_at: expect.any(String) },
    });

    const stored = await storedDocument(id);
    expect(stored).toMatchObject({ contentType: "application/pdf", size: form.length, sha256: sha256(form) });
    expect(Buffer.from(stored!.bytes).equals(form)).toBe(true);
    const events = await app.prisma.event.findMany({ where: { resourceType: "broker_change", resourceId: id } });
    expect(events.map((e) => e.event)).toEqual(["broker_change.submitted"]);
  });

  it("judges the type by content (a PNG sent as a PDF is a PNG) and serves the bytes back from GET .../image", async () => {
    for (const [form, type] of [[pngOfSize(2048), "image/png"], [jpegOfSize(70_000), "image/jpeg"]] as const) {
      const id = await pendingRequest();
      const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(form, "form.pdf", "application/pdf")]);
      expect(answer.status).toBe(200);
      const download = await fetch(`${app.baseUrl}${signedFormPath(id)}`, { headers: { authorization: `Bearer ${ctx.token}` } });
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe(type);
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(sha256(bytes)).toBe(sha256(form));
    }
  });

  it("accepts exactly 10 MB (10,485,760 bytes), declared or chunked", async () => {
    const form = pdfOfSize(TEN_MB);
    for (const chunked of [false, true]) {
      const id = await pendingRequest();
      const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(form)], { chunked });
      expect(answer.status).toBe(200);
      expect(await storedDocument(id)).toMatchObject({ size: TEN_MB, sha256: sha256(form) });
    }
  });

  it("accepts a slow but steady upload (pieces with pauses, within the body timeout)", async () => {
    const id = await pendingRequest();
    const form = pngOfSize(64 * 1024);
    const answer = await uploadSignedForm(app.baseUrl, ctx.token, id, [filePart(form, "scan.png", "image/png")], { sliceBytes: 4096, pauseMs: 100 });
    expect(answer.status).toBe(200);
    expect(await storedDocument(id)).toMatchObject({ size: form.length, sha256: sha256(form), contentType: "image/png" });
  });
});
