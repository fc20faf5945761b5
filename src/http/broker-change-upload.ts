import type { Context, Hono } from "hono";
import type { Caller } from "../core/caller.js";
import { spendBudget } from "../core/request-budget.js";
import type { Services } from "../core/services.js";
import { validationError } from "../lib/errors.js";
import { assertSafeInput } from "../lib/hostile-input.js";
import { readMultipartFile, type ReceivedFile } from "./multipart-file.js";

/** Where a broker change request's signed form is uploaded (multipart, one `file` part). */
export const SIGNED_FORM_UPLOAD_PATH = "/api/broker-changes/v1/:id/image";

export const SIGNED_FORM_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type SignedFormType = (typeof SIGNED_FORM_TYPES)[number];

/** 10 MB: one byte more is refused while streaming. */
export const SIGNED_FORM_MAX_BYTES = 10 * 1024 * 1024;

const SIGNED_FORM_RULES = { field: "file", maxBytes: SIGNED_FORM_MAX_BYTES, types: SIGNED_FORM_TYPES, typesLabel: "a PDF, JPEG or PNG" };

/** The broker change domain's side of the upload. */
export interface SignedFormIntake {
  /** 404 unless the request is the caller's, 409 INVALID_STATE unless it awaits its form; writes nothing. */
  assertAwaitingSignedForm(services: Services, caller: Caller, id: string): Promise<void>;
  /** Stores the form and submits the request in one transaction; the updated record. */
  attachSignedForm(services: Services, caller: Caller, id: string, file: ReceivedFile<SignedFormType>): Promise<unknown>;
}

/**
 * `POST /api/broker-changes/v1/{id}/image`: mounted on Hono beside the REST adapter, which parses JSON
 * bodies only. The caller and the request's state are checked before a byte of the body is read (a
 * 404 or 409 costs the client no upload); the body is then streamed (multipart-file.ts) and handed to
 * the domain. Every refusal closes the connection, since the rest of the body is never read; its
 * envelope is rendered by app.onError, with the budget's headers.
 */
export function mountSignedFormUpload<E extends object>(app: Hono<E>, services: Services, intake: SignedFormIntake): void {
  app.post(SIGNED_FORM_UPLOAD_PATH, async (c) => {
    const headers: Record<string, string> = {};
    try {
      const caller = await services.auth.authenticate(c.req.header("authorization"));
      spendBudget(services.budget, caller.clientId, headers);
      const id = c.req.param("id");
      assertSafeInput({ id });
      if (id.length > 64) throw validationError([{ path: "id", message: "Too big: expected string to have <=64 characters", reason: "too_big" }]);
      await intake.assertAwaitingSignedForm(services, caller, id);
      const file = await readMultipartFile(c.req.raw, SIGNED_FORM_RULES);
      const record = await intake.attachSignedForm(services, caller, id, file);
      return c.json(record, 200, headers);
    } catch (error) {
      setHeaders(c, { ...headers, Connection: "close" });
      throw error;
    }
  });
}

/** Headers set now reach the answer app.onError builds from this context. */
function setHeaders(c: Context, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
}
