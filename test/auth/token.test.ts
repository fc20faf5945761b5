import { describe, expect, it, vi } from "vitest";
import { AuthService } from "../../src/domains/auth/auth.service.js";
import type { Db } from "../../src/platform/db/client.js";
import { sha256Hex } from "../../src/platform/lib/crypto.js";
import { useTestApp } from "../helpers/app.js";

const app = useTestApp();
const TOKEN = "/api/auth/v1/token";

describe("POST /api/auth/v1/token", () => {
  it("issues a bearer token for a JSON client-credentials request", async () => {
    const d = await app.newDistributor();
    const res = await app.http("POST", TOKEN, {
      json: { grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    expect(res.body.token_type).toBe("Bearer");
    expect(res.body.expires_in).toBe(3600);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("accepts a form-urlencoded body", async () => {
    const d = await app.newDistributor();
    const res = await app.http("POST", TOKEN, {
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("Bearer");
  });

  it("answers prototype-named form fields as it does JSON ones: Unknown field, and a real repeat as repeated", async () => {
    const d = await app.newDistributor();
    const valid = `grant_type=client_credentials&client_id=${d.client_id}&client_secret=${d.client_secret}`;
    const form = (body: string, headers: Record<string, string> = {}) =>
      app.http("POST", TOKEN, { body, headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const res = await form(`${valid}&${key}=x`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: { code: "VALIDATION_ERROR", message: "The request is not valid", details: [{ path: key, message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }] },
        request_id: res.headers.get("x-request-id"),
      });
      const json = await app.http("POST", TOKEN, { body: `{"grant_type":"client_credentials","${key}":"x"}`, headers: { "content-type": "application/json" } });
      expect(json.body.error.details).toEqual(res.body.error.details);
    }
    // With HTTP Basic the credentials join the form: the field is still refused.
    const basic = Buffer.from(`${d.client_id}:${d.client_secret}`).toString("base64");
    const withBasic = await form("grant_type=client_credentials&__proto__=x", { authorization: `Basic ${basic}` });
    expect(withBasic.status).toBe(400);
    expect(withBasic.body.error.details).toEqual([{ path: "__proto__", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }]);

    for (const key of ["toString", "hasOwnProperty"]) {
      const res = await form(`${valid}&${key}=x`);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: key, message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }]);
    }
    const repeated = await form(`${valid}&client_id=again`);
    expect(repeated.status).toBe(400);
    expect(repeated.body.error).toEqual({ code: "VALIDATION_ERROR", message: "A form field is repeated", details: [{ path: "client_id", message: "Repeated field", reason: "repeated_field" }] });
    expect(await app.prisma.accessToken.count({ where: { apiClient: { clientId: d.client_id } } })).toBe(1);
  });

  it("accepts HTTP Basic client authentication", async () => {
    const d = await app.newDistributor();
    const basic = Buffer.from(`${d.client_id}:${d.client_secret}`).toString("base64");
    const res = await app.http("POST", TOKEN, {
      body: "grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${basic}` },
    });
    expect(res.status).toBe(200);
  });

  it("answers 401 {error: invalid_client} for a wrong secret or an unknown client", async () => {
    const d = await app.newDistributor();
    for (const credentials of [
      { client_id: d.client_id, client_secret: `${d.client_secret}x` },
      { client_id: "mfc_unknown", client_secret: d.client_secret },
    ]) {
      const res = await app.http("POST", TOKEN, { json: { grant_type: "client_credentials", ...credentials } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "invalid_client" });
    }
    const form = await app.http("POST", TOKEN, {
      body: `grant_type=client_credentials&client_id=${d.client_id}&client_secret=wrong`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(401);
    expect(form.body).toEqual({ error: "invalid_client" });
  });

  it("refuses a missing or wrong grant_type, missing fields and unknown fields with field paths", async () => {
    const d = await app.newDistributor();
    const missing = await app.http("POST", TOKEN, { json: { client_id: d.client_id } });
    expect(missing.status).toBe(400);
    expect(missing.body.success).toBe(false);
    expect(missing.body.error.code).toBe("VALIDATION_ERROR");
    expect(missing.body.error.details.map((x: { path: string }) => x.path).sort()).toEqual(["client_secret", "grant_type"]);
    expect(missing.body.request_id).toBe(missing.headers.get("x-request-id"));

    const wrongGrant = await app.http("POST", TOKEN, {
      json: { grant_type: "password", client_id: d.client_id, client_secret: d.client_secret },
    });
    expect(wrongGrant.status).toBe(400);
    expect(wrongGrant.body.error.details[0].path).toBe("grant_type");

    const unknown = await app.http("POST", TOKEN, {
      json: { grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret, admin: true },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([{ path: "admin", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }]);
  });

  it("marks every answer, token or error, as not to be stored (RFC 6749 5.1)", async () => {
    const d = await app.newDistributor();
    const good = { grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret };
    const answers = [
      await app.http("POST", TOKEN, { json: good }),
      await app.http("POST", TOKEN, { json: { ...good, client_secret: "wrong-secret" } }),
      await app.http("POST", TOKEN, { json: { grant_type: "client_credentials" } }),
      await app.http("POST", TOKEN, { body: "<xml/>", headers: { "content-type": "application/xml" } }),
      await app.http("GET", TOKEN),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 401, 400, 415, 404]);
    for (const res of answers) {
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("pragma")).toBe("no-cache");
    }
    const trpc = await fetch(`${app.baseUrl}/trpc/auth.token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(good),
    });
    expect(trpc.status).toBe(200);
    expect(trpc.headers.get("cache-control")).toBe("no-store");
    expect(trpc.headers.get("pragma")).toBe("no-cache");
    // Other answers keep their own caching.
    expect((await app.http("GET", "/healthz")).headers.get("cache-control")).toBeNull();
  });

  it("stores only hashes of secrets and tokens, with a 3600 s lifetime", async () => {
    const d = await app.newDistributor();
    const client = await app.prisma.apiClient.findUniqueOrThrow({ where: { clientId: d.client_id } });
    expect(client.secretHash).toBe(sha256Hex(d.client_secret));
    const token = await app.prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(d.token) } });
    expect(token.distributorId).toBe(d.distributor_id);
    expect(token.expiresAt.getTime() - token.createdAt.getTime()).toBeGreaterThanOrEqual(3_599_000);
    expect(token.expiresAt.getTime() - token.createdAt.getTime()).toBeLessThanOrEqual(3_601_000);
    expect(JSON.stringify(await app.prisma.apiClient.findMany())).not.toContain(d.client_secret);
    expect(JSON.stringify(await app.prisma.accessToken.findMany())).not.toContain(d.token);
    expect(app.logs.join("\n")).not.toContain(d.client_secret);
    expect(app.logs.join("\n")).not.toContain(d.token);
  });
});

describe("bearer authentication on /api paths", () => {
  const PATH = "/api/masters/v1/investor-options";

  it("accepts a valid token", async () => {
    const d = await app.newDistributor();
    const res = await app.http("GET", PATH, { token: d.token });
    expect(res.status).toBe(200);
  });

  it("answers 401 with the envelope without a token, with a malformed header and with an unknown token", async () => {
    for (const headers of [{}, { authorization: "Token abc" }, { authorization: "Bearer mfat_not-a-real-token" }] as Array<Record<string, string>>) {
      const res = await app.http("GET", PATH, { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        error: { code: "UNAUTHORIZED", message: expect.any(String) },
        request_id: res.headers.get("x-request-id"),
      });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });

  it("refuses an expired token", async () => {
    const d = await app.newDistributor();
    await app.prisma.accessToken.update({
      where: { tokenHash: sha256Hex(d.token) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await app.http("GET", PATH, { token: d.token });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe("The access token is invalid or has expired: get a new one from POST /api/auth/v1/token");
  });

  it("refuses tokens of a revoked client", async () => {
    const d = await app.newDistributor();
    await app.prisma.apiClient.update({ where: { clientId: d.client_id }, data: { revokedAt: new Date() } });
    expect((await app.http("GET", PATH, { token: d.token })).status).toBe(401);
    const again = await app.http("POST", TOKEN, {
      json: { grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret },
    });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ error: "invalid_client" });
  });
});

describe("the token check", () => {
  it("asks the database once for requests that miss the cache together, and each gets the caller", async () => {
    const d = await app.newDistributor();
    let lookups = 0;
    const counted = app.prisma.$extends({
      query: {
        accessToken: {
          findFirst({ args, query }) {
            lookups++;
            return query(args);
          },
        },
      },
    }) as unknown as Db;
    const auth = new AuthService(counted);
    const callers = await Promise.all(Array.from({ length: 20 }, () => auth.authenticate(`Bearer ${d.token}`)));
    expect(lookups).toBe(1);
    expect(new Set(callers.map((c) => `${c.distributorId}/${c.clientId}`))).toEqual(new Set([`${d.distributor_id}/${d.client_id}`]));

    const unknown = await Promise.all(Array.from({ length: 5 }, () => auth.authenticate("Bearer mfat_unknown").catch((e: unknown) => e)));
    expect(lookups).toBe(2);
    for (const error of unknown) expect((error as Error).message).toBe("The access token is invalid or has expired: get a new one from POST /api/auth/v1/token");
    // An unknown token is remembered for 60 s (issue 25: a repeated made-up token costs no query).
    await auth.authenticate("Bearer mfat_unknown").catch(() => undefined);
    expect(lookups).toBe(2);
  });
});

describe("the token check's cache by header", () => {
  it("trusts a token for 30 s after its look-up, whichever way it is found, and keeps no header longer than that", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      const d = await app.newDistributor();
      let lookups = 0;
      const counted = app.prisma.$extends({
        query: { accessToken: { findFirst: ({ args, query }) => (lookups++, query(args)) } },
      }) as unknown as Db;
      let now = Date.now();
      const auth = new AuthService(counted, { now: () => now });
      const byHeader = (auth as unknown as { byHeader: Map<string, unknown> }).byHeader;
      const header = `Bearer ${d.token}`;
      for (let i = 0; i < 3; i++) expect((await auth.authenticate(header)).clientId).toBe(d.client_id);
      expect(lookups).toBe(1);
      expect([...byHeader.keys()]).toEqual([header]);

      now += 29_999;
      await auth.authenticate(header);
      expect(lookups).toBe(1);
      now += 1;
      await auth.authenticate(header);
      expect(lookups).toBe(2);

      vi.advanceTimersByTime(30_000);
      expect(byHeader.size).toBe(0);
      await app.prisma.accessToken.update({ where: { tokenHash: sha256Hex(d.token) }, data: { expiresAt: new Date(now - 1) } });
      await auth.authenticate(header);
      expect(lookups).toBe(2);
      now += 30_000;
      await expect(auth.authenticate(header)).rejects.toThrow("The access token is invalid or has expired");
      await expect(auth.authenticate(header)).rejects.toThrow("The access token is invalid or has expired");
      // The expired token is then remembered as unknown: the repeat asks nothing.
      expect(lookups).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
