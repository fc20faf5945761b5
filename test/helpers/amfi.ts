import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";

/** AMFI's real NAVAll files as published on two dates that straddle its format change, gzipped in the repository. */
export const AMFI_NEW = "NAVAll-2026-08-21.txt";
export const AMFI_OLD = "NAVAll-2026-08-18-old-format.txt";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/amfi");

/**
 * The path of an AMFI fixture as a plain text file (the importer reads files, as the CLI does): the
 * committed `.gz` is unpacked once into the system's temporary directory, named by its content hash so
 * concurrent test files share it safely.
 */
export async function amfiFile(name: string): Promise<string> {
  const packed = await readFile(path.join(FIXTURES, `${name}.gz`));
  const digest = createHash("sha256").update(packed).digest("hex").slice(0, 16);
  const dir = path.join(os.tmpdir(), "mf-test-amfi");
  const target = path.join(dir, `${digest}-${name}`);
  if (existsSync(target)) return target;
  await mkdir(dir, { recursive: true });
  const partial = `${target}.${process.pid}.part`;
  await writeFile(partial, gunzipSync(packed));
  await rename(partial, target);
  return target;
}
