import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The key personal data is encrypted with: MF_DATA_KEY, or (sandbox only; production refuses to start
 * without MF_DATA_KEY) a key generated once under the data directory.
 */
export async function loadDataKey(config: { dataKeyHex: string | undefined; dataDir: string }): Promise<string> {
  if (config.dataKeyHex) return config.dataKeyHex;
  const file = path.join(config.dataDir, "data-key");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const key = randomBytes(32).toString("hex");
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: "wx" }).catch(async () => undefined);
    return (await readFile(file, "utf8")).trim();
  }
}
