import type { $ZodType } from "zod/v4/core";
import { instanceofZodTypeCoercible, instanceofZodTypeKind, instanceofZodTypeObject, unwrapZodType } from "trpc-to-openapi";

/** The query parameters; a repeated parameter is a list. */
export type Query = Record<string, string | string[]>;

/**
 * The query of a request target (`path?query`) in a prototype-less object: the input checks must
 * see `__proto__` as sent, and in a plain object `constructor=1` or `toString=1` would collide with
 * Object.prototype.
 */
export function queryOf(target: string): Query {
  const query: Query = Object.create(null) as Query;
  const at = target.indexOf("?");
  if (at < 0) return query;
  for (const [key, value] of new URLSearchParams(target.slice(at + 1))) {
    const previous = query[key];
    if (previous === undefined) query[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else query[key] = [previous, value];
  }
  return query;
}

/** The path of a request target. */
export function pathOf(target: string): string {
  const end = target.search(/[?#]/);
  return end < 0 ? target : target.slice(0, end);
}

/** The input of a GET or DELETE procedure: its query parameters (empty ones left out) and path parameters. */
export function queryInput(query: Query, params: Record<string, string>): Record<string, unknown> {
  const sent: Query = Object.create(null) as Query;
  for (const key of Object.keys(query)) if (query[key] !== "") sent[key] = query[key]!;
  return { ...sent, ...params };
}

/** Turns the strings of a query input into what its schema declares, in a copy of the input. */
export type QueryCoercion = (input: Record<string, unknown>) => Record<string, unknown>;

/** What zod's `z.coerce.*` does to a value, per type. */
const COERCE: Record<string, (value: unknown) => unknown> = {
  number: (value) => Number(value),
  boolean: (value) => Boolean(value),
  bigint: (value) => BigInt(value as string),
  date: (value) => new Date(value as string),
};

interface FieldCoercion {
  key: string;
  /** A list field (`z.array(...)`, optional or not): a single value becomes a list of one. */
  wrapSingle: boolean;
  /** The field (or its elements) is a list: convert each element. */
  list: boolean;
  convert: ((value: unknown) => unknown) | undefined;
}

/**
 * Query coercion with trpc-to-openapi's rules, built once from the schema and never written into it
 * (the schema is also /trpc's, where JSON carries real types): each top-level field declared as a
 * number, boolean, bigint or date (through optional, nullable, default, or as list elements) is
 * converted as `z.coerce` would, so `?flag=false` is true, as with z.coerce.boolean(); a query that
 * needs "false" declares `z.stringbool()`.
 */
export function queryCoercion(schema: $ZodType): QueryCoercion {
  if (!instanceofZodTypeObject(schema)) return (input) => input;
  const fields: FieldCoercion[] = Object.entries(schema.shape).map(([key, field]) => {
    const declared = unwrapZodType(field, false);
    const optionalInner = instanceofZodTypeKind(field, "optional") ? (field as unknown as { unwrap(): $ZodType }).unwrap() : undefined;
    return {
      key,
      wrapSingle: instanceofZodTypeKind(field, "array") || (optionalInner !== undefined && instanceofZodTypeKind(optionalInner, "array")),
      list: isList(field),
      convert: instanceofZodTypeCoercible(declared) ? COERCE[declared._zod.def.type] : undefined,
    };
  });
  const active = fields.filter((field) => field.wrapSingle || field.convert);
  if (active.length === 0) return (input) => input;

  return (input) => {
    const coerced = { ...input };
    for (const { key, wrapSingle, list, convert } of active) {
      let value = coerced[key];
      if (value === undefined) continue;
      if (wrapSingle && !Array.isArray(value)) value = [value];
      if (convert) value = list ? (Array.isArray(value) ? value.map((v) => attempt(convert, v)) : value) : attempt(convert, value);
      coerced[key] = value;
    }
    return coerced;
  };
}

/** As zod: a value that cannot be converted is left for the schema to refuse. */
function attempt(convert: (value: unknown) => unknown, value: unknown): unknown {
  try {
    return convert(value);
  } catch {
    return value;
  }
}

/** Whether a field is a list once optional, nullable, default... are looked through. */
function isList(field: $ZodType): boolean {
  let type = field;
  for (;;) {
    const def = type._zod.def as { type: string; innerType?: $ZodType; getter?: () => $ZodType };
    if (def.type === "array") return true;
    if (def.innerType) type = def.innerType;
    else if (def.type === "lazy" && def.getter) type = def.getter();
    else return false;
  }
}
