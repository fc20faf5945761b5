import type { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

/*
 * The engine's catalog queries return columns of PostgreSQL's one-byte "char" type (pg_constraint.contype
 * and friends). @prisma/adapter-pg rejects that type ("Column type 'char' could not be deserialized"),
 * and reporting it as Text makes the engine panic, since it reads these columns as a Rust `char`. So the
 * pg client relabels such columns as text for the adapter and remembers them, and the adapter wrapper
 * (schema-engine-adapter.ts) reports them to the engine as `Character` columns.
 */
const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
/** `ColumnTypeEnum.Character` in @prisma/driver-adapter-utils. */
const CHARACTER_COLUMN_TYPE = 6;

/** Result rows array (handed through unchanged by the adapter) → indexes of its "char" columns. */
const charColumnsByRows = new WeakMap<object, number[]>();

function relabelCharColumns(result: unknown): unknown {
  for (const single of Array.isArray(result) ? result : [result]) {
    const { fields, rows } = (single ?? {}) as Partial<pg.QueryResult>;
    if (!fields || !rows) continue;
    const charColumns = fields.flatMap((field, index) => (field.dataTypeID === PG_CHAR_OID ? [index] : []));
    if (charColumns.length === 0) continue;
    for (const index of charColumns) fields[index]!.dataTypeID = PG_TEXT_OID;
    charColumnsByRows.set(rows, charColumns);
  }
  return result;
}

type QueryFn = (...args: unknown[]) => unknown;

/** pg-pool calls `client.query` with a callback; direct callers use the promise form. */
function queryRelabellingCharColumns(query: QueryFn, args: unknown[]): unknown {
  const callbackIndex = args.findIndex((arg) => typeof arg === "function");
  if (callbackIndex >= 0) {
    const callback = args[callbackIndex] as (error: unknown, result: unknown) => void;
    const patched = [...args];
    patched[callbackIndex] = (error: unknown, result: unknown) => callback(error, relabelCharColumns(result));
    return query(...patched);
  }
  const returned = query(...args);
  return returned instanceof Promise ? returned.then(relabelCharColumns) : returned;
}

export class CharRelabellingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as QueryFn;
    Object.assign(this, { query: (...args: unknown[]) => queryRelabellingCharColumns(query, args) });
  }
}

type PgAdapter = Awaited<ReturnType<PrismaPg["connect"]>>;
type ResultSet = Awaited<ReturnType<PgAdapter["queryRaw"]>>;

/** The adapter's result with the "char" columns the client relabelled reported to the engine as `Character`. */
export function withCharColumnTypes(resultSet: ResultSet): ResultSet {
  const charColumns = charColumnsByRows.get(resultSet.rows);
  if (!charColumns) return resultSet;
  const columnTypes = [...resultSet.columnTypes];
  for (const index of charColumns) columnTypes[index] = CHARACTER_COLUMN_TYPE;
  return { ...resultSet, columnTypes };
}
