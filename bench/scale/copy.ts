/**
 * Loading through COPY: lines streamed in 1 MB chunks, and tables loaded with their indexes and keys dropped
 * then rebuilt (one sort per index instead of millions of index insertions). CHECK constraints stay in place:
 * every row is checked as it arrives. Foreign keys are added back at the end, which checks every row too.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

export interface Progress {
  (table: string, rows: number, ms: number): void;
}

/** Streams `rows` lines (tab-separated, \N for null, newline-terminated) into `table (columns)`. */
export async function copyLines(client: pg.Client, table: string, columns: string[], lines: Iterable<string>, progress: Progress): Promise<number> {
  const started = performance.now();
  let count = 0;
  function* chunks(): Generator<string> {
    let chunk = "";
    for (const line of lines) {
      chunk += line;
      count++;
      if (chunk.length > 1 << 20) {
        yield chunk;
        chunk = "";
      }
    }
    if (chunk) yield chunk;
  }
  await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY ${table} (${columns.join(", ")}) FROM STDIN`)));
  progress(table, count, performance.now() - started);
  return count;
}

/** A row of COPY text: nulls as \N (no value the generator makes holds a tab, newline or backslash). */
export const row = (values: Array<string | number | boolean | null>): string =>
  `${values.map((v) => (v === null ? "\\N" : String(v))).join("\t")}\n`;

interface Dropped {
  indexes: string[];
  keys: Array<{ table: string; name: string; definition: string }>;
  foreignKeys: Array<{ table: string; name: string; definition: string }>;
}

/**
 * Drops the indexes, primary keys, unique constraints and foreign keys of `tables` (and foreign keys that
 * point at them), answering what rebuilds them.
 */
export async function dropIndexes(client: pg.Client, tables: string[]): Promise<Dropped> {
  const foreignKeys = (
    await client.query<{ table: string; name: string; definition: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
         FROM pg_constraint c WHERE c.contype = 'f' AND (c.conrelid::regclass::text = ANY($1) OR c.confrelid::regclass::text = ANY($1))`,
      [tables],
    )
  ).rows;
  const keys = (
    await client.query<{ table: string; name: string; definition: string }>(
      `SELECT c.conrelid::regclass::text AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
         FROM pg_constraint c WHERE c.contype IN ('p', 'u') AND c.conrelid::regclass::text = ANY($1)`,
      [tables],
    )
  ).rows;
  const indexes = (
    await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.contype IN ('p', 'u'))`,
      [tables],
    )
  ).rows;
  for (const fk of foreignKeys) await client.query(`ALTER TABLE ${fk.table} DROP CONSTRAINT "${fk.name}"`);
  for (const key of keys) await client.query(`ALTER TABLE ${key.table} DROP CONSTRAINT "${key.name}"`);
  for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
  return { indexes: indexes.map((i) => i.definition), keys, foreignKeys };
}

/** Rebuilds what dropIndexes dropped: keys and indexes first, then the foreign keys (which check every row). */
export async function rebuildIndexes(client: pg.Client, dropped: Dropped): Promise<void> {
  await client.query("SET maintenance_work_mem = '512MB'");
  for (const key of dropped.keys) await client.query(`ALTER TABLE ${key.table} ADD CONSTRAINT "${key.name}" ${key.definition}`);
  for (const definition of dropped.indexes) await client.query(definition);
  for (const fk of dropped.foreignKeys) await client.query(`ALTER TABLE ${fk.table} ADD CONSTRAINT "${fk.name}" ${fk.definition}`);
}
