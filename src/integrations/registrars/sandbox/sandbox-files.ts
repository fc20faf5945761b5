import { createHash } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/** How the sandbox registrar writes its feed files (holdings and transactions alike): CSV, dates, atomic files. */

/** Writes `name` in `dir` under a temporary name first, so the importer never reads half a file. */
export async function writeAtomically(dir: string, name: string, content: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(`${file}.tmp`, content);
  await rename(`${file}.tmp`, file);
  return path.join(path.basename(dir), name);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** `16-Nov-2026`, the CAMS style. */
export const camsDate = (iso: string) => `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;
/** `11/16/2026`, month first, the KFintech export style. */
export const kfinDate = (iso: string) => `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/${iso.slice(0, 4)}`;

export function csv(rows: Array<Array<string | null>>): string {
  return rows.map((row) => row.map((v) => (v === null ? "" : /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(",")).join("\r\n") + "\r\n";
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
