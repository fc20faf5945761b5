import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../src/app.js";
import { appRouter } from "../../src/router.js";
import { publicProcedure, router } from "../../src/domains/shared/procedures.js";
import { useTestApp } from "../helpers/app.js";

const app = useTestApp();

/**
 * A number schema shared by a query input and a body input, as a schema constant can be: serving
 * the query must not make the body coerce.
 */
const Count = z.number().int();
const probeRouter = router({
  ...appRouter._def.record,
  probe: router({
    read: publicProcedure
      .meta({ openapi: { method: "GET", path: "/api/probe/v1/{id}", tags: ["probe"], summary: "Echoes its query" } })
      .input(z.strictObject({ id: z.string(), count: Count.optional(), flag: z.boolean().optional(), on: z.stringbool().optional(), tags: z.array(z.string()).optional(), note: z.string().optional() }))
      .output(z.unknown())
      .query(({ input }) => input),
    write: publicProcedure
      .meta({ openapi: { method: "POST", path: "/api/probe/v1/{id}", tags: ["probe"], summary: "Echoes its body" } })
      .input(z.strictObject({ id: z.string(), count: Count }))
      .output(z.unknown())
      .mutation(({ input, ctx }) => {
        ctx.response.status = 201;
        ctx.response.headers.Location = `/api/probe/v1/${input.id}`;
        return input;
      }),
  }),
});

let probe: ReturnType<typeof createApp>;
beforeAll(() => {
  probe = createApp(app.services, { readiness: async () => null, router: probeRouter });
});
const send = async (method: string, path: string, body?: unknown) => {
  const res = await probe.request(path, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
};

describe("REST routing", () => {
  it("serves a path with or without its trailing slash", async () => {
    const d = await app.newDistributor();
    const plain = await app.http("GET", "/api/orders/v1", { token: d.token });
    const slashed = await app.http("GET", "/api/orders/v1/", { token: d.token });
    expect(plain.status).toBe(200);
    expect(slashed.status).toBe(200);
    expect(slashed.body).toEqual(plain.body);
  });

  it("hands path parameters over percent-decoded once, never coerced", async () => {
    expect((await send("GET", "/api/probe/v1/0042")).body).toEqual({ id: "0042" });
    expect((await send("GET", "/api/probe/v1/a%20b")).body).toEqual({ id: "a b" });
    expect((await send("GET", "/api/probe/v1/a%2520b")).body).toEqual({ id: "a%20b" });
  });

  it("answers an unknown path or a method a path does not take with the 404 envelope", async () => {
    for (const [method, path] of [["GET", "/api/probe/v2/x"], ["PUT", "/api/probe/v1/x"], ["GET", "/api/probe/v1/x/y"]] as const) {
      const res = await send(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: "NOT_FOUND", message: "Not found" }, request_id: res.headers.get("x-request-id") });
    }
  });

  it("answers HEAD with an empty 204", async () => {
    const res = await send("HEAD", "/api/probe/v1/x");
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
  });

  it("sets the status and headers a procedure chose", async () => {
    const res = await send("POST", "/api/probe/v1/p1", { count: 3 });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/api/probe/v1/p1");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.body).toEqual({ id: "p1", count: 3 });
  });

  it("lets the path parameter win over a body field of the same name", async () => {
    expect((await send("POST", "/api/probe/v1/p1", { id: "other", count: 3 })).body).toEqual({ id: "p1", count: 3 });
  });
});

describe("query parameters", () => {
  it("are coerced to the numbers and booleans the query input declares; a repeated one is a list", async () => {
    const res = await send("GET", "/api/probe/v1/x?count=7&flag=1&tags=a&note=5");
    expect(res.body).toEqual({ id: "x", count: 7, flag: true, tags: ["a"], note: "5" });
    expect((await send("GET", "/api/probe/v1/x?tags=a&tags=b")).body).toEqual({ id: "x", tags: ["a", "b"] });
    // As z.coerce.boolean(): any value is true. A parameter that takes "false" is a z.stringbool().
    expect((await send("GET", "/api/probe/v1/x?flag=false&on=false")).body).toEqual({ id: "x", flag: true, on: false });
  });

  it("are left out when empty", async () => {
    expect((await send("GET", "/api/probe/v1/x?count=&note=")).body).toEqual({ id: "x" });
  });

  it("that are not numbers are a 400 on their name", async () => {
    for (const query of ["count=abc", "count=1&count=2"]) {
      const res = await send("GET", `/api/probe/v1/x?${query}`);
      expect(res.status).toBe(400);
      expect(res.body?.error).toEqual({
        code: "VALIDATION_ERROR",
        message: "The request is not valid",
        details: [{ path: "count", message: "Invalid input: expected number, received NaN", reason: "invalid_type" }],
      });
    }
  });

  it("coerce nothing outside the query: the shared schema is untouched, bodies and /trpc stay strict", async () => {
    expect((await send("GET", "/api/probe/v1/x?count=7")).status).toBe(200);

    const body = await send("POST", "/api/probe/v1/x", { count: "7" });
    expect(body.status).toBe(400);
    expect(body.body?.error).toMatchObject({ details: [{ path: "count", message: "Invalid input: expected number, received string", reason: "invalid_type" }] });

    const trpc = await probe.request(`/trpc/probe.read?input=${encodeURIComponent(JSON.stringify({ id: "x", count: "7" }))}`);
    expect(trpc.status).toBe(400);
    expect(Count._zod.def.coerce).toBeUndefined();
  });
});
