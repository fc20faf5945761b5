import { readMfapiResponse, type MfapiResult } from "./mfapi-params.js";
import { BseSessionError, type BseSessions } from "./sessions.js";
import { UPLOAD_SERVICE } from "./soap.js";
import type { BseTransport } from "./transport.js";

/**
 * One MFAPI call on the upload service (bse-starmf-services.md §1.2): `Flag`, `UserId`, the session's
 * `EncryptedPassword` and the flag's pipe-separated `param`, in that order. A `session` failure
 * (PASSWORD EXPIRED, INVALID ENCRYPTED PASSWORD) logs in again and sends the call once more; a second
 * one is "unavailable" (sessions.ts). Every other answer is returned as read.
 */
export async function callMfapi(transport: BseTransport, sessions: BseSessions, userId: string, flag: string, param: string): Promise<MfapiResult> {
  return sessions.withSession("upload", async (session) => {
    const answer = await transport.soap(UPLOAD_SERVICE, "MFAPI", [
      ["Flag", flag],
      ["UserId", userId],
      ["EncryptedPassword", session.encryptedPassword],
      ["param", param],
    ]);
    const result = readMfapiResponse(answer);
    if (!result.ok && result.kind === "session") throw new BseSessionError(result.message);
    return result;
  });
}
