import { resolve } from "node:path";
import { lintFromString, loadConfig } from "@redocly/openapi-core";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../src/platform/lib/errors.js";
import { documentedOperations, openApiText } from "../src/openapi.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- OpenAPI documents are walked as JSON

const ROOT = resolve(import.meta.dirname, "..");
const document = (): Json => JSON.parse(openApiText());
const DOCS = documentedOperations();
const docsOf = (operationId: string) => DOCS.get(operationId);
const REQUEST_EXAMPLES = Object.fromEntries([...DOCS].map(([id, docs]) => [id, docs?.examples ?? {}]));

async function lint(text: string) {
  const config = await loadConfig({ configPath: resolve(ROOT, "redocly.yaml") });
  const problems = await lintFromString({ source: text, absoluteRef: resolve(ROOT, "openapi.json"), config });
  return problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ""}: ${p.message}`);
}

function operations(doc: Json): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
  );
}

describe("openapi.json against the committed rule set (redocly.yaml)", () => {
  it("has no problem at all", async () => {
    expect(await lint(openApiText())).toEqual([]);
  });

  it("the rule set catches an operation without description or tags, a property without description and a body without example", async () => {
    const doc = document();
    const place = doc.paths["/api/orders/v1/"].post;
    delete place.description;
    delete place.tags;
    delete place.requestBody.content["application/json"].example;
    delete place.requestBody.content["application/json"].schema.properties.amount.description;
    place.responses = { "201": place.responses["201"] };
    const rules = (await lint(JSON.stringify(doc))).map((line) => line.split(" ")[1]);
    expect(rules).toEqual(
      expect.arrayContaining([
        "rule/operation-description",
        "rule/operation-tags",
        "rule/request-body-example",
        "rule/property-description",
        "operation-4xx-response",
      ]),
    );
  });

  it("the rule set catches an example its schema refuses", async () => {
    const doc = document();
    doc.paths["/api/orders/v1/"].post.requestBody.content["application/json"].example.amount = "5000";
    expect((await lint(JSON.stringify(doc))).some((line) => line.includes("no-invalid-media-type-examples"))).toBe(true);
  });
});

describe("openapi.json examples", () => {
  it("every request body has an example for each media type, and each validates against its schema", () => {
    const doc = document();
    const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { binary: true, email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/ } });
    ajv.addSchema({ $id: "doc", components: doc.components });
    const checked: string[] = [];
    for (const { op } of operations(doc)) {
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
        expect(media.example, `${op.operationId} ${type}`).toBeDefined();
        const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"doc#/components/'));
        const validate = ajv.compile(schema);
        expect(validate(media.example) ? [] : validate.errors, `${op.operationId} ${type}`).toEqual([]);
        checked.push(`${op.operationId} ${type}`);
      }
    }
    // Every example written is used, and the count is what the routers take.
    expect(checked.sort()).toEqual(
      Object.entries(REQUEST_EXAMPLES).flatMap(([id, byType]) => Object.keys(byType).map((type) => `${id} ${type}`)).sort(),
    );
  });

  it("examples never carry a date that lapses: every date is 2099 or a past birth date", () => {
    const dates = JSON.stringify(REQUEST_EXAMPLES).match(/\d{4}-\d{2}-\d{2}/g) ?? [];
    expect(dates.length).toBeGreaterThan(0);
    for (const date of dates) expect(date.startsWith("2099-") || date < "2000-01-01", date).toBe(true);
  });
});

describe("openapi.json statuses, headers and errors", () => {
  it("every operation has its docs (its procedure's meta, or written by hand) and every procedure an operation", () => {
    const ids = operations(document()).map(({ op }) => op.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...DOCS.keys()].sort());
    expect([...DOCS].filter(([, docs]) => docs === undefined).map(([id]) => id)).toEqual([]);
  });

  it("creations answer 201 (and 200 where a repeat answers 200) and take an optional Idempotency-Key where the API honours one", () => {
    const doc = document();
    const created = operations(doc).filter(({ op }) => op.responses["201"]).map(({ op }) => op.operationId);
    expect(created.sort()).toEqual([
      "brokerChanges-create", "investors-create", "investors-optOut", "mandates-create", "orderLinks-create", "orders-place",
      "publicLinks-confirm", "publicLinks-pay", "webhooks-subscribe",
    ]);
    const withRepeat = operations(doc).filter(({ op }) => op.responses["201"] && op.responses["200"]).map(({ op }) => op.operationId);
    expect(withRepeat.sort()).toEqual(["publicLinks-confirm", "publicLinks-pay"]);
    const keyed = operations(doc)
      .filter(({ op }) => (op.parameters ?? []).some((p: Json) => p.$ref === "#/components/parameters/IdempotencyKey"))
      .map(({ op }) => op.operationId);
    expect(keyed.sort()).toEqual([
      "brokerChanges-create", "investors-addBankAccount", "investors-create", "investors-deleteBankAccount", "investors-optOut", "investors-update", "mandates-create", "orderLinks-create", "orders-pause", "orders-place", "webhooks-replay",
      "webhooks-rotateSecret", "webhooks-subscribe",
    ]);
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({ in: "header", name: "Idempotency-Key", required: false });
  });

  it("every response carries X-Request-Id, every success the RateLimit headers, a 429 Retry-After", () => {
    const doc = document();
    const resolveResponse = (r: Json): Json => (r.$ref ? doc.components.responses[r.$ref.split("/").pop()] : r);
    for (const { op } of operations(doc)) {
      for (const [status, raw] of Object.entries(op.responses as Json)) {
        const response = resolveResponse(raw);
        const what = `${op.operationId} ${status}`;
        expect(response.headers?.["X-Request-Id"], what).toEqual({ $ref: "#/components/headers/X-Request-Id" });
        if (status.startsWith("2")) expect(Object.keys(response.headers), what).toEqual(expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]));
        if (status === "429" || status === "503") expect(Object.keys(response.headers), what).toContain("Retry-After");
      }
    }
  });

  it("errors are derived per path: 401 only with a token, 404 only with a path id or an id in the body, 413/415 only with a body", () => {
    const doc = document();
    for (const { path, op } of operations(doc)) {
      const statuses = Object.keys(op.responses);
      const what = op.operationId as string;
      expect(statuses, what).toEqual(expect.arrayContaining(["400", "429", "500", "503"]));
      expect(statuses.includes("401"), what).toBe(op.security.length > 0 || what === "auth-token");
      expect(statuses.includes("404"), what).toBe(path.includes("{") || docsOf(what)?.notFound !== undefined);
      expect(statuses.includes("413"), what).toBe(op.requestBody !== undefined);
      expect(statuses.includes("415"), what).toBe(op.requestBody !== undefined);
      expect(statuses.includes("409"), what).toBe(docsOf(what)?.conflict !== undefined);
      expect(statuses.includes("403"), what).toBe(false);
    }
    expect(doc.paths["/api/public/v1/order-links/{link_id}"].get.responses["401"]).toBeUndefined();
  });

  it("the error envelope is one shared schema whose code enum is the service's closed list", () => {
    const doc = document();
    const envelope = doc.components.schemas.ErrorEnvelope;
    expect(envelope.required).toEqual(["success", "error", "request_id"]);
    expect(envelope.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_STATUS));
    expect(doc.components.responses.BadRequest.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
  });

  it("tags are declared with descriptions, one per domain, and every operation uses one", () => {
    const doc = document();
    const declared = (doc.tags as Json[]).map((tag) => tag.name);
    for (const tag of doc.tags as Json[]) expect(tag.description, tag.name).toMatch(/\w{3}/);
    const used = new Set(operations(doc).flatMap(({ op }) => op.tags as string[]));
    expect([...used].sort()).toEqual([...declared].sort());
  });
});
