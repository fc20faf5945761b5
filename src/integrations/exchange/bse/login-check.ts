import type { Log } from "../../../platform/lib/logger.js";
import { ExchangeUnavailableError } from "../port.js";
import type { BseConfig } from "./bse-config.js";
import { BseLoginError, BseSessions, type SessionService } from "./sessions.js";
import { BseTransport } from "./transport.js";

/** The adapter's sessions from its settings, and the login check (bse:check, the start-up self-check). */

/** What a login check found (bse:check, the start-up self-check); never the password or the session itself. */
export type LoginCheck =
  | { ok: true; service: SessionService; userId: string; memberId: string; baseUrl: string; expiresAt: string; passKey: "BSE_PASSKEY" | "generated" }
  | { ok: false; service: SessionService; userId: string; memberId: string; baseUrl: string; message: string };

export function sessionsFor(transport: BseTransport, config: BseConfig, log: Log, now?: () => number): BseSessions {
  return new BseSessions(transport, { userId: config.userId, memberId: config.memberId, password: config.password, passKey: config.passKey }, log, undefined, now);
}

/** Sessions of their own (bse:check, which needs no database). */
export function standaloneSessions(config: BseConfig, log: Log): BseSessions {
  return sessionsFor(new BseTransport({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, log }), config, log);
}

/** Logs in to `service` (unless a live session exists) and says how it went; never the password or the session. */
export async function checkLogin(sessions: BseSessions, config: BseConfig, service: SessionService): Promise<LoginCheck> {
  const who = { service, userId: config.userId, memberId: config.memberId, baseUrl: config.baseUrl };
  try {
    const session = await sessions.session(service);
    return { ok: true, ...who, expiresAt: new Date(session.expiresAt).toISOString(), passKey: config.passKey ? "BSE_PASSKEY" : "generated" };
  } catch (error) {
    if (error instanceof BseLoginError) return { ok: false, ...who, message: error.exchangeMessage };
    if (error instanceof ExchangeUnavailableError) return { ok: false, ...who, message: error.message };
    throw error;
  }
}
