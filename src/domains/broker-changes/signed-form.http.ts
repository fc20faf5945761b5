import type { Context, Hono } from "hono";
import { getSignedForm } from "./broker-changes.service.js";
import type { DocumentContentType } from "../../integrations/registrars/port.js";
import type { Caller } from "../shared/caller.js";
import { admitCaller } from "../shared/authenticator.js";
import type { Services } from "../shared/services.js";
import { requestClientAddress } from "../../platform/http/client-ip.js";
import { validationError } from "../../platform/lib/errors.js";
import { assertSafeInput } from "../../platform/lib/hostile-input.js";

/** Where a broker change request's signed form is read back (the upload is POSTed to the same path). */
export const SIGNED_FORM_PATH = "/api/broker-changes/v1/:id/image";

const EXTENSION: Record<DocumentContentType, string> = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png" };

/**
 * `GET /api/broker-changes/v1/{id}/image`: the stored bytes, as they were uploaded. Binary, so mounted on
 * Hono beside the REST adapter (tRPC answers JSON only), with the same bearer check and request budget.
 * Served as an attachment that no cache keeps and no browser sniffs. Errors: the envelope (app.onError).
 */
export function mountSignedFormDownload<E extends object>(app: Hono<E>, services: Services): void {
  app.get(SIGNED_FORM_PATH, async (c) => {
    const headers: Record<string, string> = {};
    const { caller, id } = await signedFormRequest(c, services, headers);
    const form = await getSignedForm(services, caller, id);
    return c.body(form.bytes as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      "Content-Type": form.contentType,
      "Content-Length": String(form.size),
      "Content-Disposition": `attachment; filename="${id.replace(/[^A-Za-z0-9_-]/g, "_")}.${EXTENSION[form.contentType]}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      ETag: `"${form.sha256}"`,
    });
  });
}

/**
 * The caller (bearer token, one request of its budget: the RateLimit-* headers go into `headers`) and
 * the checked `{id}` of a signed form route, as the REST adapter would check them.
 */
export async function signedFormRequest(c: Context, services: Services, headers: Record<string, string>): Promise<{ caller: Caller; id: string }> {
  const request = { authorization: c.req.header("authorization"), clientIp: requestClientAddress(c, services.config.trustProxyHops) };
  const caller = await admitCaller(services, request, headers);
  const id = c.req.param("id") ?? "";
  assertSafeInput({ id });
  if (id.length > 64) throw validationError([{ path: "id", message: "Too big: expected string to have <=64 characters", reason: "too_big" }]);
  return { caller, id };
}
