import type { HandWrittenOperation } from "../../platform/openapi/docs.js";
import { BROKER_CHANGES_TAG } from "./broker-changes.router.js";
import { BrokerChangeView } from "./broker-changes.schemas.js";

/**
 * The signed form's download and upload (signed-form.http.ts, signed-form-upload.http.ts): binary, so
 * mounted on Hono outside the procedures and documented here by hand.
 */
const PATH = "/api/broker-changes/v1/{id}/image";
const ID = {
  in: "path",
  name: "id",
  required: true,
  schema: { type: "string", minLength: 1, maxLength: 64 },
  description: "The resource's id, as its creation answered it.",
};

export const SIGNED_FORM_OPERATIONS: HandWrittenOperation[] = [
  {
    method: "get",
    path: PATH,
    operationId: "brokerChanges-getImage",
    docs: {
      tag: BROKER_CHANGES_TAG,
      summary: "The signed form of a broker change request, as uploaded (beta)",
      description:
        "The stored bytes with their content type (judged from the bytes at upload), `Content-Length`, " +
        "`Content-Disposition: attachment`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`. " +
        "404 for another distributor's request, and before a form is uploaded.",
      notFound: "No signed form was uploaded yet (NOT_FOUND): upload it with POST .../{id}/image first.",
    },
    parameters: [ID],
    success: {
      description: "The signed form (PDF, JPEG or PNG).",
      content: Object.fromEntries(
        ["application/pdf", "image/jpeg", "image/png"].map((type) => [type, { schema: { type: "string", format: "binary" } }]),
      ),
    },
  },
  {
    method: "post",
    path: PATH,
    operationId: "brokerChanges-uploadImage",
    docs: {
      tag: BROKER_CHANGES_TAG,
      summary: "Upload the signed form of a WET_SIGNATURE broker change request (beta)",
      description:
        "`multipart/form-data` with exactly one file part, `file`: a PDF, JPEG or PNG judged by its bytes (the part's " +
        "declared type is ignored), at most 10 MB (10,485,760 bytes). Streamed: a body over the limit is refused " +
        "(413) as soon as it passes it, and one whose Content-Length declares more than 10 MB plus 16 KB of " +
        "multipart framing before a byte is read. The request must be yours and PENDING_DOCUMENT (checked before " +
        "the body is read). Stores the file with its SHA-256, size and content type and moves the request to " +
        "SUBMITTED (event `broker_change.submitted`) in one transaction; of two concurrent uploads one wins, the " +
        "other is 409. Every refusal closes the connection (`Connection: close`). Example: " +
        "`curl -H \"Authorization: Bearer $TOKEN\" -F file=@form.pdf .../api/broker-changes/v1/{id}/image`.",
      conflict:
        "The request does not await a signed form (INVALID_STATE): only a WET_SIGNATURE request in PENDING_DOCUMENT " +
        "takes one (a TWO_FA request needs none; an uploaded one is SUBMITTED).",
      responses: {
        "400": {
          description:
            "The form is not one `file` part (missing, repeated, another part beside it, empty, malformed), or the id is not " +
            "valid (VALIDATION_ERROR, with the part's name as the path): send exactly one part named `file`.",
        },
        "413": {
          description:
            "The file is over 10 MB, or the declared Content-Length over 10 MB plus 16 KB (PAYLOAD_TOO_LARGE; the connection " +
            "is closed): scan the form at a lower resolution, or send a PDF.",
        },
        "415": {
          description:
            "The body is not multipart/form-data, or the file is not a PDF, JPEG or PNG by its content " +
            "(UNSUPPORTED_MEDIA_TYPE): send the form as a PDF, JPEG or PNG in a multipart/form-data body.",
        },
      },
      // The part is a file; its curl command is in the description.
      examples: { "multipart/form-data": { file: "(the bytes of the signed form: a PDF, JPEG or PNG)" } },
    },
    parameters: [ID],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file"],
            additionalProperties: false,
            properties: { file: { type: "string", format: "binary", description: "The signed form: PDF, JPEG or PNG, at most 10 MB." } },
          },
          encoding: { file: { contentType: "application/pdf, image/jpeg, image/png" } },
        },
      },
    },
    success: {
      description: "The updated request: SUBMITTED, with its `document`.",
      content: { "application/json": { schema: BrokerChangeView } },
    },
  },
];
