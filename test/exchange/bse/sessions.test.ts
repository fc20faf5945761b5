import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ExchangeUnavailableError } from "../../../src/integrations/exchange/port.js";
import { BseLoginError, BseSessionError, BseSessions, DEFAULT_TIMING, isSessionRefusal, type Session } from "../../../src/integrations/exchange/bse/sessions.js";
import { ORDER_ENTRY_SERVICE } from "../../../src/integrations/exchange/bse/soap.js";
import { BseTransport } from "../../../src/integrations/exchange/bse/transport.js";
import { startBseDouble, type BseDouble } from "../../helpers/bse-double/double.js";
import { ORDER_ACTION, ORDER_PATH } from "../../helpers/bse-double/sessions.js";
import { capturingLogger } from "../../helpers/logs.js";

let double: BseDouble;
let clock = 0;
const now = () => Date.now() + clock;

beforeAll(async () => {
  double = await startBseDouble({ now });
  // A small operation of the order service that only checks its session, to drive the renewals.
  double.soap(ORDER_PATH, ORDER_ACTION("ping"), ({ params }) => {
    const values = new Map(params);
    return double.sessions.check("order", values.get("Password") ?? "", values.get("PassKey")) ?? "pong";
  });
});
afterAll(() => double.close());

let capture: ReturnType<typeof capturingLogger>;
beforeEach(() => {
  clock = 0;
  capture = capturingLogger("debug");
});

function sessions(passKey?: string) {
  const transport = new BseTransport({ baseUrl: double.baseUrl, timeoutMs: 2000, log: capture.logger });
  const { userId, memberId, password } = double.credentials;
  return new BseSessions(transport, { userId, memberId, password, passKey }, capture.logger, DEFAULT_TIMING, now);
}

/** The ping call: a session refusal becomes BseSessionError, as the adapter's answer readers do. */
function ping(s: BseSessions) {
  return s.withSession("order", async (session: Session) => {
    const result = await new BseTransport({ baseUrl: double.baseUrl, timeoutMs: 2000, log: capture.logger }).soap(ORDER_ENTRY_SERVICE, "ping", [
      ["Password", session.encryptedPassword],
      ["PassKey", session.passKey],
    ]);
    if (isSessionRefusal(result)) throw new BseSessionError(result);
    return result;
  });
}

describe("BSE sessions", () => {
  it("logs in once and reuses the session until a margin before it lapses, then renews it", async () => {
    const s = sessions();
    const before = double.sessions.logins.order;
    const first = await s.session("order");
    expect(await s.session("order")).toBe(first);
    expect(await ping(s)).toBe("pong");
    expect(double.sessions.logins.order - before).toBe(1);
    expect(first.passKey).toMatch(/^[A-Za-z0-9]{10}$/);

    clock = DEFAULT_TIMING.lifetimeMs.order - DEFAULT_TIMING.marginMs.order - 1_000;
    expect(await s.session("order")).toBe(first);
    clock += 2_000; // inside the margin: renewed before it lapses
    const second = await s.session("order");
    expect(second).not.toBe(first);
    expect(second.encryptedPassword).not.toBe(first.encryptedPassword);
    expect(second.passKey).not.toBe(first.passKey);
    expect(double.sessions.logins.order - before).toBe(2);
  });

  it("the upload service has its own 5-minute session, with the member id in its login", async () => {
    const s = sessions();
    const before = double.sessions.logins.upload;
    const upload = await s.session("upload");
    expect(upload.service).toBe("upload");
    expect(upload.expiresAt - now()).toBeLessThanOrEqual(5 * 60_000);
    expect(await s.session("upload")).toBe(upload);
    clock = 4 * 60_000 + 1;
    expect(await s.session("upload")).not.toBe(upload);
    expect(double.sessions.logins.upload - before).toBe(2);
  });

  it("renews once when a call is refused for its session (expired mid-use), and the call succeeds", async () => {
    const s = sessions();
    await s.session("order");
    const before = double.sessions.logins.order;
    double.failNext("ping", "expire-session");
    expect(await ping(s)).toBe("pong");
    expect(double.sessions.logins.order - before).toBe(1);
  });

  it("a second refusal after the new login is the port's unavailable error (jobs retry)", async () => {
    const s = sessions();
    double.failNext("ping", "expire-session", "expire-session");
    const error = await ping(s).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as Error).message).toBe("BSE order session refused again after a new login: PASSWORD EXPIRED");
  });

  it("ten concurrent callers share one login", async () => {
    const s = sessions();
    const before = double.sessions.logins.order;
    const all = await Promise.all(Array.from({ length: 10 }, () => s.session("order")));
    expect(new Set(all).size).toBe(1);
    expect(double.sessions.logins.order - before).toBe(1);
    expect(await Promise.all(Array.from({ length: 10 }, () => ping(s)))).toEqual(Array(10).fill("pong"));
    expect(double.sessions.logins.order - before).toBe(1);
  });

  it("a refused login is surfaced with the exchange's message, and the next caller tries again", async () => {
    const s = sessions();
    double.sessions.failNextLogin("USER IS DISABLED. CONTACT ADMIN");
    const error = await s.session("order").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BseLoginError);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as Error).message).toBe("BSE order login failed: USER IS DISABLED. CONTACT ADMIN");
    expect((await s.session("order")).encryptedPassword).toBeTruthy();

    const transport = new BseTransport({ baseUrl: double.baseUrl, timeoutMs: 2000, log: capture.logger });
    const wrong = new BseSessions(transport, { ...double.credentials, password: "wrong", passKey: undefined }, capture.logger);
    await expect(wrong.session("order")).rejects.toThrow("BSE order login failed: INVALID ACCOUNT INFORMATION");
  });

  it("uses BSE_PASSKEY when it is set, on the login and on the calls", async () => {
    const s = sessions("Fixed12345");
    const session = await s.session("order");
    expect(session.passKey).toBe("Fixed12345");
    expect(await ping(s)).toBe("pong"); // the double requires the login's pass key on calls
  });

  it("never logs the login password or an encrypted password", async () => {
    const s = sessions();
    await s.session("order");
    await s.session("upload");
    double.failNext("ping", "expire-session");
    await ping(s);
    double.sessions.failNextLogin("INVALID ACCOUNT INFORMATION");
    clock = 3_600_000;
    await s.session("order").catch(() => undefined);
    const text = capture.lines.join("\n");
    expect(capture.lines.length).toBeGreaterThan(3);
    expect(text).toContain("BSE session opened");
    expect(text).toContain("BSE login failed");
    expect(text).not.toContain(double.credentials.password);
    for (const issued of double.sessions.issued) expect(text).not.toContain(issued);
  });
});
