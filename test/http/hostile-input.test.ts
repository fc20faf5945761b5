import net from "node:net";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import type { AuthService } from "../../src/domains/auth/auth.service.js";
import { useTestApp, type TestResponse } from "../helpers/app.js";
import { investorBody } from "../helpers/factories.js";
import { dispatchOrder } from "../../src/domains/orders/jobs/dispatch.js";
import { runTask } from "../helpers/jobs.js";
import { orderingInvestor, createOpenScheme } from "../helpers/orders.js";

const app = useTestApp();
const TOKEN = "/api/auth/v1/token";
const NUL = "Must not contain the NUL character (U+0000)";

function expectValidation(res: TestResponse, details: Array<{ path: string; message: string; reason: string }>) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({
    success: false,
    error: { code: "VALIDATION_ERROR", message: "The request is not valid", details },
    request_id: res.headers.get("x-request-id"),
  });
}

const deepJson = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);

describe("prototype-named query parameters", () => {
  it("are a 400 naming the parameter on every kind of route, with or without a token", async () => {
    const d = await app.newDistributor();
    const targets: Array<[string, string]> = [
      ["GET", "/api/masters/v1/countries"],
      ["GET", "/api/orders/v1"],
      ["GET", "/api/investors/v1/inv_missing"],
      ["GET", "/api/simulation/orders/v1/ord_missing/accept"],
      ["DELETE", "/api/webhooks/v1/subscriptions/whs_missing"],
    ];
    for (const [method, path] of targets) {
      for (const key of ["__proto__", "constructor", "prototype"]) {
        for (const token of [d.token, undefined]) {
          const res = await app.http(method, `${path}?${key}=1`, { token });
          expectValidation(res, [{ path: key, message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }]);
        }
      }
    }
  });

  it("are a 400 when repeated, too", async () => {
    const d = await app.newDistributor();
    for (const query of ["__proto__=x", "__proto__=a&__proto__=b", "constructor=1&constructor=2", "toString=1", "hasOwnProperty=1&hasOwnProperty=2"]) {
      const res = await app.http("GET", `/api/orders/v1?${query}`, { token: d.token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details).toEqual([{ path: query.split("=")[0], message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" }]);
    }
  });
});

describe("the NUL character", () => {
  it("in a body string is a 400 on its path, not a database error", async () => {
    const res = await app.http("POST", TOKEN, { json: { grant_type: "client_credentials", client_id: "\u0000", client_secret: "x" } });
    expectValidation(res, [{ path: "client_id", message: NUL, reason: "nul_character" }]);
  });

  it("in a form body or HTTP Basic credentials of the token endpoint too", async () => {
    const form = await app.http("POST", TOKEN, {
      body: "grant_type=client_credentials&client_id=a%00b&client_secret=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expectValidation(form, [{ path: "client_id", message: NUL, reason: "nul_character" }]);
    const basic = await app.http("POST", TOKEN, {
      body: "grant_type=client_credentials",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("mfc_x:%00").toString("base64")}` },
    });
    expectValidation(basic, [{ path: "client_secret", message: NUL, reason: "nul_character" }]);
  });

  it("in a nested field or a key names each place, and changes nothing", async () => {
    const d = await app.newDistributor();
    const body = investorBody();
    body.primary_holder.name = "Asha\u0000Rao";
    (body.address as Record<string, unknown>)["line\u00002"] = "x";
    const before = await app.prisma.investor.count();
    const res = await app.http("POST", "/api/investors/v1", { token: d.token, json: body });
    expectValidation(res, [
      { path: "primary_holder.name", message: NUL, reason: "nul_character" },
      { path: "address.line\u00002", message: NUL, reason: "nul_character" },
    ]);
    expect(await app.prisma.investor.count()).toBe(before);
  });

  it("in an order's remarks is a 400 and no order exists", async () => {
    const { token, account } = await orderingInvestor(app);
    await createOpenScheme(app, "NULTEST1");
    const before = await app.prisma.order.count();
    const res = await app.http("POST", "/api/orders/v1/", {
      token,
      json: { investment_account_id: account, order_type: "LUMPSUM_PURCHASE", scheme_code: "NULTEST1", amount: 1000, remarks: "a\u0000b", euin: { declaration: true } },
    });
    expectValidation(res, [{ path: "remarks", message: NUL, reason: "nul_character" }]);
    expect(await app.prisma.order.count()).toBe(before);
  });

  it("in a query value or key is a 400 on that parameter, before the token is checked", async () => {
    const d = await app.newDistributor();
    for (const token of [d.token, undefined]) {
      expectValidation(await app.http("GET", "/api/masters/v1/schemes?q=%00", { token }), [{ path: "q", message: NUL, reason: "nul_character" }]);
      expectValidation(await app.http("GET", "/api/masters/v1/schemes?q%00=1", { token }), [{ path: "q\u0000", message: NUL, reason: "nul_character" }]);
    }
  });

  it("in a path id never reaches the database", async () => {
    const d = await app.newDistributor();
    // The REST adapter decodes path parameters once: `%00` is the NUL character, refused as in a body.
    const rest = await app.http("GET", "/api/orders/v1/%00", { token: d.token });
    expect(rest.status).toBe(400);
    expect(rest.body.error).toEqual({ code: "VALIDATION_ERROR", message: "The request is not valid", details: [{ path: "id", message: NUL, reason: "nul_character" }] });
    const trpc = await app.http("GET", `/trpc/orders.get?input=${encodeURIComponent(JSON.stringify({ id: "ord_\u0000" }))}`, { token: d.token });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.data).toMatchObject({ appCode: "VALIDATION_ERROR", details: [{ path: "id", message: NUL, reason: "nul_character" }] });
  });
});

describe("hostile bodies", () => {
  it("prototype-named keys on creating POSTs are a 400 naming them, with or without a token", async () => {
    const d = await app.newDistributor();
    for (const path of ["/api/investors/v1", "/api/orders/v1/", "/api/mandates/v1", "/api/webhooks/v1/subscriptions", TOKEN]) {
      for (const token of [d.token, undefined]) {
        const proto = await app.http("POST", path, { token, body: '{"__proto__": {"admin": true}}', headers: { "content-type": "application/json" } });
        expect(proto.status, path).toBe(400);
        expect(proto.body.error.details).toContainEqual({ path: "__proto__", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" });
        const ctor = await app.http("POST", path, { token, json: { constructor: { prototype: {} } } });
        expect(ctor.status, path).toBe(400);
        expect(ctor.body.error.details).toContainEqual({ path: "constructor", message: "Unknown field: remove it, or check its spelling", reason: "unknown_field" });
      }
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("10,000 levels of nesting are a 400, not a stack overflow", async () => {
    const d = await app.newDistributor();
    for (const path of ["/api/investors/v1", "/api/orders/v1/", TOKEN, "/trpc/investors.create"]) {
      const res = await app.http("POST", path, { token: d.token, body: deepJson(10_000), headers: { "content-type": "application/json" } });
      expect(res.status, path).toBe(400);
      expect(res.text).not.toMatch(/stack|RangeError/i);
    }
    const nested = await app.http("POST", "/api/investors/v1", {
      token: d.token,
      json: { ...investorBody(), nominees: JSON.parse(`[${deepJson(100)}]`) },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.error.details).toContainEqual({ path: `nominees[0]${".a".repeat(62)}`, message: "Nested too deeply (at most 64 levels)", reason: "too_deep" });
  });
});

describe("extreme values", () => {
  it("a simulated allotment whose numbers do not fit is a 400 and allots nothing", async () => {
    const { token, account } = await orderingInvestor(app);
    await createOpenScheme(app, "EXTREME1");
    const accepted = async () => {
      const res = await app.http("POST", "/api/orders/v1/", {
        token,
        json: { investment_account_id: account, order_type: "LUMPSUM_PURCHASE", purchase_type: "FRESH", scheme_code: "EXTREME1", amount: 1000 },
      });
      await runTask(app, dispatchOrder, { order_id: res.body.id });
      return res.body.id as string;
    };
    const cases: Array<[string, string, string, string]> = [
      ["units=1e15", "units", "Too big: expected number to be <=1000000000000", "too_big"],
      ["units=0.0001", "units", "Too small: expected number to be >=0.001", "too_small"],
      ["nav=0.00001", "nav", "Too small: expected number to be >=0.0001", "too_small"],
      ["units=1000000000000&nav=1000000000", "units", "units x NAV must be below 10,000,000,000,000,000", "too_big"],
      ["allotment_date=0000-01-01", "allotment_date", "must be a real calendar date", "invalid_date"],
    ];
    for (const [query, path, message, reason] of cases) {
      const id = await accepted();
      const res = await app.http("GET", `/api/simulation/orders/v1/${id}/allot?${query}`, { token });
      expectValidation(res, [{ path, message, reason }]);
      expect((await app.prisma.order.findUniqueOrThrow({ where: { id } })).status).toBe("ACCEPTED");
    }
  });
});

describe("/trpc errors", () => {
  it("carry the REST codes, messages and details, and no internal text", async () => {
    const res = await app.http("POST", "/trpc/auth.token", { json: { grant_type: "client_credentials", client_id: "\u0000", client_secret: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("The request is not valid");
    expect(res.body.error.data).toEqual({
      code: "BAD_REQUEST",
      httpStatus: 400,
      appCode: "VALIDATION_ERROR",
      details: [{ path: "client_id", message: NUL, reason: "nul_character" }],
      request_id: res.headers.get("x-request-id"),
    });
    expect(res.text).not.toMatch(/prisma|\/work\/|\.ts:\d|invocation/i);
  });

  it("report zod issues as REST does", async () => {
    const d = await app.newDistributor();
    const body = { ...investorBody(), extra: 1 };
    delete (body as Record<string, unknown>).tax_status;
    const rest = await app.http("POST", "/api/investors/v1", { token: d.token, json: body });
    const trpc = await app.http("POST", "/trpc/investors.create", { token: d.token, json: body });
    expect(rest.status).toBe(400);
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.message).toBe(rest.body.error.message);
    expect(trpc.body.error.data.appCode).toBe("VALIDATION_ERROR");
    expect(trpc.body.error.data.details).toEqual(rest.body.error.details);
  });

  it("answer malformed JSON as REST does, not with the parser's words", async () => {
    const body = await app.http("POST", "/trpc/auth.token", { body: '{"grant_type":', headers: { "content-type": "application/json" } });
    const query = await app.http("GET", "/trpc/masters.countries?input=%7B");
    for (const res of [body, query]) {
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe("The request body is not valid JSON");
      expect(res.body.error.data).toMatchObject({ appCode: "VALIDATION_ERROR", details: [{ path: "", message: "Malformed JSON", reason: "malformed_json" }] });
    }
  });

  it("answer an unexpected failure with 'Internal error' and the request id, and log it", async () => {
    const failing = {
      authenticate: async () => {
        throw new Error('relation "secret_table" does not exist at /work/src/db.ts:42');
      },
    } as unknown as AuthService;
    const broken = createApp({ ...app.services, auth: failing }, { readiness: async () => null });
    const res = await broken.request("/trpc/masters.countries?input=%7B%7D", { headers: { authorization: "Bearer x", "x-request-id": "trpc-internal-1" } });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(res.headers.get("x-request-id")).toBe("trpc-internal-1");
    const body = JSON.parse(text) as { error: { message: string; data: Record<string, unknown> } };
    expect(body.error.message).toBe("Internal error");
    expect(body.error.data).toEqual({ code: "INTERNAL_SERVER_ERROR", httpStatus: 500, appCode: "INTERNAL", request_id: "trpc-internal-1" });
    expect(text).not.toMatch(/secret_table|stack|\.ts:|\/work\//);
    const logged = app.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.request_id === "trpc-internal-1" && l.msg === "unhandled error");
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(logged[0])).toContain("secret_table");
  });

  it("answer an exhausted pool with 503 UNAVAILABLE, as REST does", async () => {
    const busy = {
      authenticate: async () => {
        throw Object.assign(new Error("Transaction API error: Unable to start a transaction in the given time."), { code: "P2028" });
      },
    } as unknown as AuthService;
    const res = await createApp({ ...app.services, auth: busy }, { readiness: async () => null }).request("/trpc/masters.countries?input=%7B%7D", {
      headers: { authorization: "Bearer x" },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    const body = (await res.json()) as { error: { message: string; data: { appCode: string } } };
    expect(body.error.data.appCode).toBe("UNAVAILABLE");
    expect(body.error.message).toBe("The service is busy; retry shortly");
  });
});

describe("requests Node cannot parse", () => {
  /** Sends raw bytes and answers everything the server wrote before closing. */
  function raw(bytes: string): Promise<string> {
    const { port } = new URL(app.baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => socket.end(bytes));
      const chunks: Buffer[] = [];
      socket.on("data", (c: Buffer) => chunks.push(c));
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
      socket.on("error", reject);
    });
  }

  function parse(answer: string) {
    const [head, body] = answer.split("\r\n\r\n", 2) as [string, string];
    const [statusLine, ...headerLines] = head.split("\r\n");
    const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
    return { statusLine, headers, body: JSON.parse(body) as unknown };
  }

  it("answers a request line and headers over 16 KB with 431 and the envelope", async () => {
    const answer = parse(await raw(`GET /api/masters/v1/schemes?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(answer.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(answer.headers).toMatchObject({ "content-type": "application/json; charset=utf-8", connection: "close", "x-request-id": expect.stringMatching(/^req_/) });
    expect(answer.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "The request line and headers are larger than 16 KB" },
      request_id: answer.headers["x-request-id"],
    });
  });

  it("answers a malformed request with 400 and the envelope", async () => {
    const answer = parse(await raw("NOT AN HTTP REQUEST\r\n\r\n"));
    expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(answer.body).toEqual({
      success: false,
      error: { code: "VALIDATION_ERROR", message: "Malformed HTTP request" },
      request_id: answer.headers["x-request-id"],
    });
  });

  it("keeps serving afterwards", async () => {
    await raw("\u0000\u0000\r\n\r\n");
    expect((await app.http("GET", "/healthz")).status).toBe(200);
  });
});
