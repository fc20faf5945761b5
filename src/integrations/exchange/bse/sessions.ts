import { randomInt } from "node:crypto";
import type { Log } from "../../../platform/lib/logger.js";
import { maskFreeText } from "../../../platform/lib/mask.js";
import { ExchangeUnavailableError } from "../port.js";
import { ORDER_ENTRY_SERVICE, UPLOAD_SERVICE, type SoapParam } from "./soap.js";
import type { BseTransport } from "./transport.js";

/**
 * The exchange's sessions (bse-starmf-orders.md §1-2, bse-starmf-services.md §1.1): getPassword answers
 * `100|<encrypted password>`, which every later call of that service carries, for 1 hour on the order
 * service and 5 minutes on the upload service. One session per service per process: renewed a margin
 * before it lapses, shared by concurrent callers (one login in flight at a time), and renewed once when
 * a call is refused for its session (then the call is retried once). The login password and the
 * encrypted password are never logged, nor put in an error message.
 */

export type SessionService = "order" | "upload";

export interface Session {
  service: SessionService;
  encryptedPassword: string;
  /** The pass key the login used; order calls send the same one (the safe reading of open point 5). */
  passKey: string;
  expiresAt: number;
}

export interface BseCredentials {
  userId: string;
  memberId: string;
  password: string;
  /** Fixed pass key (BSE_PASSKEY); otherwise a fresh random one per login. */
  passKey: string | undefined;
}

/** The exchange refused the login (`101|...`): the message is the exchange's own (masked). Jobs retry. */
export class BseLoginError extends ExchangeUnavailableError {
  constructor(readonly service: SessionService, readonly exchangeMessage: string) {
    super(`BSE ${service} login failed: ${exchangeMessage}`);
    this.name = "BseLoginError";
  }
}

/** A call was refused for its session (thrown by the caller's answer parsing). */
export class BseSessionError extends Error {
  constructor(readonly exchangeMessage: string) {
    super(`BSE session refused: ${exchangeMessage}`);
    this.name = "BseSessionError";
  }
}

/** The answers that mean "log in again" (MFAPI list; PASSWORD EXPIRED also covers a wrong pass key). */
export function isSessionRefusal(text: string): boolean {
  return /INVALID ENCRYPTED PASSWORD|PASSWORD EXPIRED/i.test(text);
}

export interface SessionTiming {
  /** How long a session lives (the document's 1 hour and 5 minutes). */
  lifetimeMs: Record<SessionService, number>;
  /** A session with less than this left is renewed before use. */
  marginMs: Record<SessionService, number>;
}

export const DEFAULT_TIMING: SessionTiming = {
  lifetimeMs: { order: 60 * 60_000, upload: 5 * 60_000 },
  marginMs: { order: 5 * 60_000, upload: 60_000 },
};

const PASSKEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random alphanumeric pass key of 10 characters (the field's length). */
export function randomPassKey(): string {
  let key = "";
  for (let i = 0; i < 10; i += 1) key += PASSKEY_ALPHABET[randomInt(PASSKEY_ALPHABET.length)];
  return key;
}

export class BseSessions {
  private readonly current = new Map<SessionService, Session>();
  private readonly inFlight = new Map<SessionService, Promise<Session>>();

  constructor(
    private readonly transport: BseTransport,
    private readonly credentials: BseCredentials,
    private readonly log: Log,
    private readonly timing: SessionTiming = DEFAULT_TIMING,
    private readonly now: () => number = Date.now,
  ) {}

  /** A live session of `service`: the cached one, or one login shared by every caller waiting for it. */
  async session(service: SessionService): Promise<Session> {
    const cached = this.current.get(service);
    if (cached && cached.expiresAt - this.timing.marginMs[service] > this.now()) return cached;
    let pending = this.inFlight.get(service);
    if (!pending) {
      pending = this.login(service).finally(() => this.inFlight.delete(service));
      this.inFlight.set(service, pending);
    }
    return pending;
  }

  /**
   * Runs `call` with a session; when it throws BseSessionError, the session is dropped, a new one is
   * made and `call` runs once more. A second refusal is ExchangeUnavailableError (jobs retry later).
   */
  async withSession<T>(service: SessionService, call: (session: Session) => Promise<T>): Promise<T> {
    const first = await this.session(service);
    try {
      return await call(first);
    } catch (error) {
      if (!(error instanceof BseSessionError)) throw error;
      this.log.info({ service, exchange_message: error.exchangeMessage }, "BSE session refused; logging in again");
      this.drop(service, first);
    }
    const second = await this.session(service);
    try {
      return await call(second);
    } catch (error) {
      if (error instanceof BseSessionError) {
        this.drop(service, second);
        throw new ExchangeUnavailableError(`BSE ${service} session refused again after a new login: ${error.exchangeMessage}`);
      }
      throw error;
    }
  }

  /** Forgets `session` (unless a newer one already replaced it). */
  drop(service: SessionService, session: Session): void {
    if (this.current.get(service) === session) this.current.delete(service);
  }

  private async login(service: SessionService): Promise<Session> {
    const passKey = this.credentials.passKey ?? randomPassKey();
    const { userId, memberId, password } = this.credentials;
    const params: SoapParam[] =
      service === "order"
        ? [["UserId", userId], ["Password", password], ["PassKey", passKey]]
        : [["UserId", userId], ["MemberId", memberId], ["Password", password], ["PassKey", passKey]];
    const startedAt = this.now();
    const result = await this.transport.soap(service === "order" ? ORDER_ENTRY_SERVICE : UPLOAD_SERVICE, "getPassword", params);
    const bar = result.indexOf("|");
    const code = bar < 0 ? result : result.slice(0, bar);
    const rest = bar < 0 ? "" : result.slice(bar + 1);
    if (code === "100" && rest !== "") {
      const session = { service, encryptedPassword: rest, passKey, expiresAt: startedAt + this.timing.lifetimeMs[service] };
      this.current.set(service, session);
      this.log.info({ service, expires_at: new Date(session.expiresAt).toISOString() }, "BSE session opened");
      return session;
    }
    const message = refusedLoginMessage(code, rest);
    this.log.warn({ service, exchange_message: message }, "BSE login failed");
    throw new BseLoginError(service, message);
  }
}

/**
 * What a refused login is logged and reported with: a `101`'s reason with PANs masked; never an answer of
 * another shape, which could be a session token.
 */
export function refusedLoginMessage(status: string, text: string): string {
  return status === "101" ? maskFreeText(text.trim() || "(no message)") : "unexpected answer";
}
