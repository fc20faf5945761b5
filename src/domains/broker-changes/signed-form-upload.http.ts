import type { IncomingMessage } from "node:http";
import type { Context, Hono } from "hono";
import { DOCUMENT_CONTENT_TYPES } from "../../integrations/registrars/port.js";
import { assertAwaitingSignedForm, attachSignedForm } from "./broker-changes.service.js";
import type { Services } from "../shared/services.js";
import { signedFormRequest, SIGNED_FORM_PATH } from "./signed-form.http.js";
import { lingerOnClose } from "../../platform/http/lingering-close.js";
import { readMultipartFile, uploadRequestOf } from "../../platform/http/multipart-file.js";

/** 10 MB: one byte more is refused while streaming. */
export const SIGNED_FORM_MAX_BYTES = 10 * 1024 * 1024;

const SIGNED_FORM_RULES = { field: "file", maxBytes: SIGNED_FORM_MAX_BYTES, types: DOCUMENT_CONTENT_TYPES, typesLabel: "a PDF, JPEG or PNG" };

/**
 * `POST /api/broker-changes/v1/{id}/image`: mounted on Hono beside the REST adapter, which parses JSON
 * bodies only. The caller and the request's state are checked before a byte of the body is read (a
 * 404 or 409 costs the client no upload); the body is then streamed (multipart-file.ts) and handed to
 * the domain. Every refusal closes the connection, since the rest of the body is never read (a
 * lingering close, so that the client gets the answer); its envelope is rendered by app.onError,
 * with the budget's headers.
 */
export function mountSignedFormUpload<E extends object>(app: Hono<E>, services: Services): void {
  app.post(SIGNED_FORM_PATH, async (c) => {
    const headers: Record<string, string> = {};
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    try {
      const { caller, id } = await signedFormRequest(c, services, headers);
      await assertAwaitingSignedForm(services, caller, id);
      const file = await readMultipartFile(uploadRequestOf(c.req.raw, incoming), SIGNED_FORM_RULES);
      return c.json(await attachSignedForm(services, caller, id, file), 200, headers);
    } catch (error) {
      setHeaders(c, { ...headers, Connection: "close" });
      if (incoming) lingerOnClose(incoming);
      throw error;
    }
  });
}

/** Headers set now reach the answer app.onError builds from this context. */
function setHeaders(c: Context, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}
