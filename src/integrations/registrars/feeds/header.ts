import { open } from "node:fs/promises";
import { parseFields } from "./csv.js";

/** The lower-case column names of a feed file's first line (read from its first 64 KB), or [] when it has none. */
export async function readHeaderColumns(path: string): Promise<string[]> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString("utf8").replace(/^\uFEFF/, "");
    const line = text.split(/\r?\n/, 1)[0] ?? "";
    return (parseFields(line) ?? []).map((field) => field.trim().toLowerCase());
  } finally {
    await handle.close();
  }
}

export function hasColumns(columns: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((column) => columns.includes(column));
}
