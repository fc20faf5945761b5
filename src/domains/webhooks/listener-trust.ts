import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { rootCertificates } from "node:tls";

/**
 * Trust for `npm run mf -- webhooks:listen` (sandbox only): each running listener writes its throw-away
 * certificate (never its key) into `MF_DATA_DIR/webhook-listeners/<pid>.pem` and removes it on exit; the
 * sandbox's deliveries trust those certificates next to the usual roots. Production never reads the folder.
 */
export const LISTENER_DIR = "webhook-listeners";

export function listenerCertificatePath(dataDir: string, pid: number): string {
  return path.join(dataDir, LISTENER_DIR, `${pid}.pem`);
}

/** The certificates of the listeners running now (none: an empty list). */
export async function listenerCertificates(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, LISTENER_DIR);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith(".pem"));
  } catch {
    return [];
  }
  const pems = await Promise.all(names.map((name) => readFile(path.join(dir, name), "utf8").catch(() => "")));
  return pems.filter((pem) => pem.includes("BEGIN CERTIFICATE"));
}

let extraFromEnvironment: string[] | undefined;

/**
 * The trust anchors of a delivery with listeners' certificates added: Node's roots, what
 * NODE_EXTRA_CA_CERTS added to them (an explicit `ca` replaces both), and the listeners'.
 */
export async function trustWithListeners(listeners: string[]): Promise<string[]> {
  if (extraFromEnvironment === undefined) {
    const file = process.env.NODE_EXTRA_CA_CERTS;
    extraFromEnvironment = file ? [await readFile(file, "utf8").catch(() => "")].filter(Boolean) : [];
  }
  return [...rootCertificates, ...extraFromEnvironment, ...listeners];
}
