import fc from "fast-check";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./process.js";

/** The parts of an OpenAPI schema the generators read. */
export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

export interface Operation {
  operationId: string;
  method: string;
  /** `/api/orders/v1/{id}` */
  path: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: JsonSchema }>;
  body: JsonSchema | undefined;
  secured: boolean;
}

/** Every operation of the committed openapi.json. */
export function openApiOperations(): Operation[] {
  const document = JSON.parse(readFileSync(path.join(ROOT, "openapi.json"), "utf8")) as {
    paths: Record<string, Record<string, {
      operationId: string;
      security?: unknown[];
      parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
      requestBody?: { content: { "application/json"?: { schema: JsonSchema } } };
    }>>;
  };
  return Object.entries(document.paths).flatMap(([route, operations]) =>
    Object.entries(operations).map(([method, op]) => ({
      operationId: op.operationId,
      method: method.toUpperCase(),
      path: route,
      pathParams: (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
      queryParams: (op.parameters ?? []).filter((p) => p.in === "query").map((p) => ({ name: p.name, schema: p.schema })),
      // A multipart body (the signed form upload) is not generated: its operation is driven without one.
      body: op.requestBody?.content["application/json"]?.schema,
      secured: (op.security ?? []).length > 0,
    })),
  );
}

/** Strings no input should choke on. */
const NASTY_STRINGS = [
  "\u0000", "a\u0000b", "\u0000\u0000\u0000", "__proto__", "constructor", "prototype", "toString", "hasOwnProperty",
  "' OR '1'='1", "'; DROP TABLE orders; --", "\\", "%00", "%", "../../etc/passwd", "\ud800", "\udfff", "😀", "\u202e",
  "\r\n", "\t", " ", "", "null", "undefined", "NaN", "Infinity", "-1", "0", "1e309", "9".repeat(400), "0x10",
  "2026-02-30", "0000-00-00", "9999-99-99", "2026-13-01", "ARN-0", "E000000", "ZZZZ0ZZZZZZ",
];

export const hostileString = (maxHuge: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([a, b]) => `${a}\u0000${b}`) },
    { weight: 1, arbitrary: fc.integer({ min: Math.min(256, maxHuge), max: maxHuge }).map((n) => "x".repeat(n)) },
  );

/** `{"a":{"a":...}}` or `[[...]]`, as JSON text, `levels` deep. */
export const deepJson = (levels: number, array = false) => (array ? "[".repeat(levels) + "]".repeat(levels) : '{"a":'.repeat(levels) + "1" + "}".repeat(levels));

const DEEP = "\u0001deep\u0001";

/**
 * Any JSON value, hostile or not; a DEEP marker is replaced by deep nesting once serialized.
 * `huge` bounds string lengths (a URL must stay under Node's 16 KB header limit).
 */
const hostileValue = (huge: number): fc.Arbitrary<unknown> => fc.oneof(
  { weight: 4, arbitrary: hostileString(huge) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, -0.001, 1e-7, 0.005, 123.456789, 1e15, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(DEEP) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom({}, JSON.parse('{"__proto__": {"polluted": true}}'), { constructor: { prototype: { polluted: true } } }) },
  { weight: 1, arbitrary: fc.object({ maxDepth: 2, maxKeys: 3 }) },
);

function stringFor(schema: JsonSchema, ids: readonly string[]): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [];
  if (schema.pattern) {
    // fast-check cannot generate lookaheads; without them the strings are still mostly valid.
    const pattern = new RegExp(schema.pattern.replace(/\(\?[!=][^)]*\)/g, ""));
    options.push(fc.stringMatching(pattern));
    if (schema.pattern.includes("\\d{4}-\\d{2}-\\d{2}")) {
      options.push(fc.date({ min: new Date("2000-01-01"), max: new Date("2100-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
    }
  } else if (schema.format === "email") {
    options.push(fc.emailAddress());
  } else {
    options.push(fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 80) }));
  }
  if (ids.length > 0) options.push(fc.constantFrom(...ids));
  return fc.oneof(...options);
}

function numberFor(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e9;
  // The bounds themselves, just inside them, and far beyond where the schema sets none.
  const edges = fc.constantFrom(
    min,
    max,
    ...(schema.exclusiveMinimum !== undefined ? [schema.exclusiveMinimum + 0.001, schema.exclusiveMinimum + 1e-9] : []),
    ...(schema.maximum === undefined && schema.exclusiveMaximum === undefined ? [1e15, 1e20, 1e300] : []),
  );
  if (schema.type === "integer") return fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 2 ** 31)) }), edges);
  return fc.oneof(fc.double({ min, max, noNaN: true }), fc.double({ min, max, noNaN: true }).map((n) => Math.round(n * 100) / 100), edges);
}

export interface Generation {
  /** Real resource ids, offered to string fields that hold ids. */
  ids: readonly string[];
  /** The longest hostile string. */
  huge: number;
}

/**
 * A value of the schema's shape (right types, enums, patterns, bounds), so that requests get past
 * validation into the services and the database. `ids` are offered to fields that hold ids.
 */
export function fittingValue(schema: JsonSchema | undefined, gen: Generation, name = "", depth = 0): fc.Arbitrary<unknown> {
  const { ids } = gen;
  if (!schema || depth > 6) return hostileValue(gen.huge);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const idLike = name === "id" || name.endsWith("_id") || name.endsWith("scheme_code") || name === "code";
  switch (schema.type) {
    case "string":
      return stringFor(schema, idLike ? ids : []);
    case "number":
    case "integer":
      return numberFor(schema);
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(fittingValue(schema.items, gen, name, depth + 1), { minLength: Math.min(1, schema.maxItems ?? 1), maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case "object": {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, fittingValue(child, gen, key, depth + 1)]));
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return hostileValue(gen.huge);
  }
}

type Mutation = { kind: "replace" | "add" | "remove"; at: number; key: string; value: unknown };

const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "extra", "a\u0000b", ""];

/**
 * One hostile change to a value, or none: a part of it (or all of it) replaced by a hostile
 * value, a hostile key added to one of its objects, or a key removed. One change at a time keeps
 * the rest valid, so each request probes one thing deep inside the service.
 */
export function mutated(base: fc.Arbitrary<unknown>, gen: Generation): fc.Arbitrary<unknown> {
  const mutation: fc.Arbitrary<Mutation> = fc.record({
    kind: fc.constantFrom("replace", "replace", "add", "remove"),
    at: fc.nat(),
    key: fc.constantFrom(...HOSTILE_KEYS),
    value: hostileValue(gen.huge),
  });
  return fc.tuple(base, fc.option(mutation, { freq: 5 })).map(([value, change]) => (change ? applyMutation(value, change) : value));
}

function applyMutation(original: unknown, change: Mutation): unknown {
  const root = structuredClone(original);
  const places: Array<{ parent: Record<string, unknown> | unknown[] | undefined; key: string | number; value: unknown }> = [];
  const walk = (value: unknown, parent: Record<string, unknown> | unknown[] | undefined, key: string | number) => {
    places.push({ parent, key, value });
    if (Array.isArray(value)) value.forEach((item, i) => walk(item, value, i));
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, value as Record<string, unknown>, k);
  };
  walk(root, undefined, "");
  if (change.kind === "replace") {
    const place = places[change.at % places.length]!;
    if (!place.parent) return change.value;
    (place.parent as Record<string | number, unknown>)[place.key] = change.value;
    return root;
  }
  const objects = places.filter((p) => p.value && typeof p.value === "object" && !Array.isArray(p.value));
  if (objects.length === 0) return change.value;
  const target = objects[change.at % objects.length]!.value as Record<string, unknown>;
  if (change.kind === "add") {
    // A plain assignment of `__proto__` would set the prototype; define it as a field instead.
    Object.defineProperty(target, change.key, { value: change.value, enumerable: true, configurable: true, writable: true });
  } else {
    const keys = Object.keys(target);
    if (keys.length > 0) delete target[keys[change.at % keys.length]!];
  }
  return root;
}

/** JSON text of a value, with the DEEP markers turned into `levels` of nesting. */
export function toJsonText(value: unknown, levels = 10_000): string {
  return JSON.stringify(value).replaceAll(JSON.stringify(DEEP), deepJson(levels, levels < 10_000));
}

/**
 * A body: a known-good example or the schema filled in, with one hostile change; sometimes
 * hostile text outright.
 */
export function bodyText(schema: JsonSchema | undefined, ids: readonly string[], example?: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const gen = { ids, huge: 200_000 };
  const fitting = fittingValue(schema ?? { type: "object", properties: {} }, gen);
  const base = example ? fc.oneof(example, fitting) : fitting;
  return fc.oneof(
    { weight: 6, arbitrary: mutated(base, gen).map((v) => toJsonText(v)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        deepJson(10_000), deepJson(10_000, true), `{"x":${deepJson(5_000, true)}}`, '{"__proto__": {"isAdmin": true}}',
        '{"constructor": {"prototype": {"isAdmin": true}}}', "[]", "null", '"text"', "1", '{"a":', "{\"a\": 1, \"a\": 2}", "\u0000",
        '{"k": "\\u0000"}', '{"\\u0000": 1}', "\ufeff{}",
      ),
    },
  );
}

/** A query string: the operation's parameters (with hostile values) plus hostile and repeated keys. */
export function queryText(params: Operation["queryParams"], ids: readonly string[]): fc.Arbitrary<string> {
  const known =
    params.length === 0
      ? fc.constant([] as Array<[string, unknown]>)
      : fc.array(
          fc.constantFrom(...params).chain((p) =>
            fc.tuple(fc.constant(p.name), fc.oneof({ weight: 4, arbitrary: fittingValue(p.schema, { ids, huge: 2_000 }, p.name) }, { weight: 1, arbitrary: hostileString(2_000) })),
          ),
          { maxLength: 4 },
        );
  const hostileKeys = fc.array(
    fc.tuple(fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", "a\u0000", "input"), hostileString(100)),
    { maxLength: 2 },
  );
  const raw = fc.oneof({ weight: 6, arbitrary: fc.constant("") }, { weight: 1, arbitrary: fc.constantFrom("&%", "&%zz=1", "&q=%E0%A4", "&=", "&&", "&limit", "&%00=%00") });
  return fc.tuple(known, fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: hostileKeys }), raw).map(([pairs, extras, suffix]) => {
    const search = new URLSearchParams();
    for (const [key, value] of [...pairs, ...extras]) search.append(key, typeof value === "string" ? value : JSON.stringify(value) ?? "");
    const text = search.toString() + suffix;
    return text ? `?${text}` : "";
  });
}

/** A path parameter: a real id most of the time, else a hostile one (encoded, or raw escapes). */
export function pathParam(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...ids) },
    { weight: 2, arbitrary: hostileString(2_000).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "\ufffd"))) },
    { weight: 1, arbitrary: fc.constantFrom("%00", "%", "%zz", "%2e%2e", "..", "%2F", "a%00b", "%E0%A4%A") },
  );
}
