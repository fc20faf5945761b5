import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import { z } from "zod";
import { buildOpenApiDocument, OPENAPI_FILE, openApiText } from "../src/openapi.js";
import { useTestApp } from "./helpers/app.js";

const app = useTestApp();

describe("openapi.json", () => {
  it("is up to date with the routers (run `npm run mf -- openapi` after changing a procedure)", async () => {
    expect(await readFile(OPENAPI_FILE, "utf8")).toBe(openApiText());
  });

  it("is a valid OpenAPI document with the bearer scheme and the error envelope", async () => {
    const document = JSON.parse(openApiText());
    await SwaggerParser.validate(structuredClone(document));
    expect(document.openapi).toMatch(/^3\./);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.schemas.ErrorEnvelope.properties).toHaveProperty("request_id");
    const token = document.paths["/api/auth/v1/token"].post;
    expect(token.security).toEqual([]);
    expect(Object.keys(token.requestBody.content)).toEqual(["application/json", "application/x-www-form-urlencoded"]);
    const options = document.paths["/api/masters/v1/investor-options"].get;
    expect(options.security).toEqual([{ bearerAuth: [] }]);
    expect(options.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
    expect(document.components.responses.Unauthorized.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/api/auth/v1/token",
        "/api/masters/v1/investor-options",
        "/api/masters/v1/countries",
        "/api/masters/v1/countries/{code}/states",
        "/api/masters/v1/schemes",
      ]),
    );
  });

  it("writes the spec's exact path where it keeps a trailing slash", () => {
    const t = initTRPC.meta<OpenApiMeta>().create();
    const probe = t.router({
      place: t.procedure.meta({ openapi: { method: "POST", path: "/api/orders/v1/" } }).input(z.object({ a: z.string() })).output(z.object({})).mutation(() => ({})),
      list: t.procedure.meta({ openapi: { method: "GET", path: "/api/orders/v1" } }).input(z.object({})).output(z.object({})).query(() => ({})),
    });
    const document = buildOpenApiDocument(probe);
    expect(Object.keys(document.paths!["/api/orders/v1/"]!)).toEqual(["post"]);
    expect(Object.keys(document.paths!["/api/orders/v1"]!)).toEqual(["get"]);
  });

  it("is served at /openapi.json, with an interactive reference at /docs", async () => {
    const served = await app.http("GET", "/openapi.json");
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(openApiText()));
    const docs = await app.http("GET", "/docs");
    expect(docs.status).toBe(200);
    expect(docs.headers.get("content-type")).toMatch(/text\/html/);
    expect(docs.text).toContain('url: "/openapi.json"');
    const bundle = await app.http("GET", "/docs/assets/swagger-ui-bundle.js");
    expect(bundle.status).toBe(200);
    expect(bundle.text.length).toBeGreaterThan(100_000);
    expect((await app.http("GET", "/docs/assets/../../package.json")).status).toBe(404);
  });
});
