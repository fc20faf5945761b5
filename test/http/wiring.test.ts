import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import type { AuthService } from "../../src/domains/auth/auth.service.js";
import { useTestApp } from "../helpers/app.js";

const app = useTestApp();
const TOKEN = "/api/auth/v1/token";

describe("one error model", () => {
  it("answers malformed JSON with 400 VALIDATION_ERROR and changes nothing", async () => {
    const before = await app.prisma.accessToken.count();
    const res = await app.http("POST", TOKEN, { body: '{"grant_type": "client_credentials",', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "The request body is not valid JSON", details: [{ path: "", message: "Malformed JSON", reason: "malformed_json" }] },
      request_id: res.headers.get("x-request-id"),
    });
    expect(await app.prisma.accessToken.count()).toBe(before);
  });

  it("refuses a JSON body that is not an object", async () => {
    const res = await app.http("POST", TOKEN, { body: "[1,2]", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });

  it("names unknown fields", async () => {
    const res = await app.http("POST", TOKEN, {
      json: { grant_type: "client_credentials", client_id: "a", client_secret: "b", extra_one: 1, extra_two: 2 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { path: "extra_one", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" },
      { path: "extra_two", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" },
    ]);
  });

  it("does not coerce JSON types (a string is not a number or a boolean)", async () => {
    const res = await app.http("POST", TOKEN, { json: { grant_type: "client_credentials", client_id: 12345678, client_secret: true } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["client_id", "client_secret"]);
  });

  it("answers a body over 1 MB with 413, declared or streamed", async () => {
    const big = JSON.stringify({ grant_type: "client_credentials", client_id: "x".repeat(1024 * 1024), client_secret: "y" });
    const declared = await app.http("POST", TOKEN, { body: big, headers: { "content-type": "application/json" } });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe("PAYLOAD_TOO_LARGE");

    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const streamed = await fetch(`${app.baseUrl}${TOKEN}`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("reads a body alike with a declared length and streamed: a BOM is not JSON, bytes that are not UTF-8 become U+FFFD", async () => {
    const send = (bytes: Uint8Array, streamed: boolean) =>
      fetch(`${app.baseUrl}${TOKEN}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: streamed ? new ReadableStream({ start: (c) => (c.enqueue(bytes), c.close()) }) : bytes,
        duplex: "half",
      } as RequestInit).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: { message: string; details?: unknown } } }));
    const fields = '"grant_type":"client_credentials","client_id":"a","client_secret":"b"';
    const withBom = Buffer.from(`\uFEFF{${fields}}`, "utf8");
    const notUtf8 = Buffer.concat([Buffer.from(`{${fields},"x`), Buffer.from([0xff, 0xc3]), Buffer.from('":1}')]);
    for (const streamed of [false, true]) {
      const bom = await send(withBom, streamed);
      expect(bom.status).toBe(400);
      expect(bom.body.error.message).toBe("The request body is not valid JSON");
      const replaced = await send(notUtf8, streamed);
      expect(replaced.status).toBe(400);
      expect(replaced.body.error.details).toEqual([{ path: "x\uFFFD\uFFFD", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }]);
    }
  });

  it("answers a wrong content type with 415", async () => {
    const d = await app.newDistributor();
    const res = await app.http("POST", TOKEN, { body: "<xml/>", headers: { "content-type": "application/xml" } });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    // Form bodies are only for the token endpoint.
    const form = await app.http("POST", "/api/masters/v1/countries", {
      token: d.token,
      body: "a=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
  });

  it("answers unknown paths and methods with 404, inside and outside /api", async () => {
    const d = await app.newDistributor();
    for (const [method, path] of [
      ["GET", "/api/nothing/v1/here"],
      ["DELETE", "/api/masters/v1/investor-options"],
      ["GET", "/nowhere"],
    ] as const) {
      const res = await app.http(method, path, { token: d.token });
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe("NOT_FOUND");
      expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
    }
  });

  it("echoes a well-formed incoming X-Request-Id and replaces a malformed one", async () => {
    const ok = await app.http("GET", "/healthz", { headers: { "x-request-id": "trace-123.abc" } });
    expect(ok.headers.get("x-request-id")).toBe("trace-123.abc");
    const bad = await app.http("GET", "/healthz", { headers: { "x-request-id": "bad id with spaces" } });
    expect(bad.headers.get("x-request-id")).toMatch(/^req_[0-9a-f-]{36}$/);
  });

  it("turns an unexpected failure into a bare 500 and logs it with the request id", async () => {
    const failing = {
      authenticate: async () => {
        throw new Error('relation "secret_table" does not exist at db.ts:42');
      },
    } as unknown as AuthService;
    const broken = createApp({ ...app.services, auth: failing }, { readiness: async () => null });
    const res = await broken.request("/api/masters/v1/countries", { headers: { authorization: "Bearer x" } });
    const body = (await res.json()) as { error: { code: string; message: string }; request_id: string };
    expect(res.status).toBe(500);
    expect(body).toEqual({ success: false, error: { code: "INTERNAL", message: "Internal error" }, request_id: body.request_id });
    expect(JSON.stringify(body)).not.toMatch(/secret_table|stack|\.ts:/);
    const logged = app.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "unhandled error");
    expect(logged?.request_id).toBe(body.request_id);
  });
});

describe("the log of an unexpected failure", () => {
  it("carries the error's type, code, message and stack, never its other properties (a pg client's settings)", async () => {
    class PoolError extends Error {
      override name = "PoolError";
    }
    // A server-side fault (XX000 internal_error): a lost connection (57P01) would be a 503 (database-unavailable.test.ts).
    const failure = Object.assign(new PoolError("could not read block 7 of relation base/1/2\nsecond line"), {
      code: "XX000",
      client: { connectionParameters: { user: "mf", database: "mf", settings: { password: "pw-hunter2-leak" } } },
    });
    const failing = {
      authenticate: async () => {
        throw failure;
      },
    } as unknown as AuthService;
    const broken = createApp({ ...app.services, auth: failing }, { readiness: async () => null });
    for (const path of ["/api/masters/v1/countries", "/trpc/masters.countries?input=%7B%7D"]) {
      const requestId = `log-props-${path.length}`;
      const res = await broken.request(path, { headers: { authorization: "Bearer x", "x-request-id": requestId } });
      expect(res.status).toBe(500);
      const lines = app.logs.filter((l) => l.includes(requestId) && l.includes("unhandled error"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toContain("pw-hunter2-leak");
      expect(lines[0]).not.toContain("connectionParameters");
      const logged = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(logged.error).toEqual({ type: "PoolError", code: "XX000", message: "could not read block 7 of relation base/1/2" });
      expect(logged.stack).toBe(failure.stack);
      expect(logged.err).toBeUndefined();
    }
  });
});

describe("an exhausted connection pool", () => {
  it("is a 503 UNAVAILABLE with Retry-After, not a 500", async () => {
    const busy = {
      authenticate: async () => {
        throw Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028" });
      },
    } as unknown as AuthService;
    const res = await createApp({ ...app.services, auth: busy }, { readiness: async () => null }).request("/api/masters/v1/countries", {
      headers: { authorization: "Bearer x" },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("UNAVAILABLE");
  });
});

describe("logs", () => {
  it("are JSON lines with the request id, and never carry tokens, secrets or PANs", async () => {
    const d = await app.newDistributor();
    await app.http("GET", "/api/masters/v1/countries", { token: d.token, headers: { "x-request-id": "log-check-1" } });
    const line = app.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.request_id === "log-check-1");
    expect(line).toMatchObject({ msg: "request", method: "GET", path: "/api/masters/v1/countries", status: 200 });

    app.services.logger.info({ pan: "ABCDE1234F", nested: { note: "pan ABCDE1234F seen" }, client_secret: "s3cret" }, "investor ABCDE1234F");
    const last = app.logs.at(-1)!;
    expect(last).not.toContain("ABCDE1234F");
    expect(last).not.toContain("s3cret");
    expect(last).toContain("ABXXXXX34F");
    const all = app.logs.join("\n");
    expect(all).not.toContain(d.token);
    expect(all).not.toContain(d.client_secret);
  });
});

describe("health", () => {
  it("/healthz says the process is up and /readyz that the database is migrated", async () => {
    expect((await app.http("GET", "/healthz")).body).toEqual({ status: "ok" });
    const ready = await app.http("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ready" });
  });

  it("/readyz answers 503 while a migration is pending", async () => {
    const [row] = await app.prisma.$queryRawUnsafe<Array<{ id: string; migration_name: string }>>(
      "SELECT id, migration_name FROM _prisma_migrations ORDER BY migration_name LIMIT 1",
    );
    await app.prisma.$executeRawUnsafe("UPDATE _prisma_migrations SET finished_at = NULL WHERE id = $1", row!.id);
    try {
      const res = await app.http("GET", "/readyz");
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("UNAVAILABLE");
    } finally {
      await app.prisma.$executeRawUnsafe("UPDATE _prisma_migrations SET finished_at = now() WHERE id = $1", row!.id);
    }
  });
});
