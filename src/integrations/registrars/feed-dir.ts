import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { FeedBatch } from "./feeds/feed.js";
import { feedFile, type Registrar } from "./feeds/feed.js";
import { WBR2_SIGNATURE } from "./feeds/cams-transactions.js";
import { MFSD201_SIGNATURE } from "./feeds/kfintech-transactions.js";
import { hasColumns, readHeaderColumns } from "./feeds/header.js";

/**
 * The feed directory (`HOLDINGS_FEED_DIR`, default `<MF_DATA_DIR>/feeds`): one sub-folder per registrar.
 *
 * - `cams/`: a batch is a WBR22 file (name containing `WBR22`, any case) with the WBR9 file of the same name with
 *   `WBR22` replaced by `WBR9` (`20260116_WBR22.csv` + `20260116_WBR9.csv`). A WBR22 whose WBR9 has not arrived is
 *   left WAITING (not recorded) and tried again at the next refresh. A WBR9 is only read with its WBR22.
 * - `kfintech/`: every file is one MFSD203 batch.
 * - Transaction feeds (CAMS WBR2, KFintech MFSD201) lie in the same folders and are told apart by their header
 *   (its first line names `trxnno`, `trxntype`, `traddate`; or `td_trno`, `td_acno`, `td_trdt`), whatever their
 *   name (CAMS mails them as `..._R2.csv`): each is a batch of its own, kind TRANSACTIONS. A CAMS file is
 *   sniffed only when its name is neither a WBR22 nor a WBR9.
 * Hidden files and names ending `.tmp` or `.part` (transfers in progress) are ignored. Batches are taken in name
 * order, so date-stamped names import oldest first.
 */

export const REGISTRAR_FOLDERS: Record<Registrar, string> = { CAMS: "cams", KFINTECH: "kfintech" };

export function holdingsFeedDir(config: { dataDir: string; holdings: { feedDir: string | undefined } }): string {
  return path.resolve(config.holdings.feedDir ?? path.join(config.dataDir, "feeds"));
}

export interface WaitingFile {
  registrar: Registrar;
  file: string;
  reason: string;
}

export async function listFeedBatches(feedDir: string): Promise<{ batches: FeedBatch[]; waiting: WaitingFile[] }> {
  const batches: FeedBatch[] = [];
  const waiting: WaitingFile[] = [];

  const camsDir = path.join(feedDir, REGISTRAR_FOLDERS.CAMS);
  const camsFiles = await filesIn(camsDir);
  const names = new Set(camsFiles);
  for (const name of camsFiles.filter((n) => !/wbr22|wbr9/i.test(n))) {
    const file = path.join(camsDir, name);
    if (hasColumns(await readHeaderColumns(file), WBR2_SIGNATURE)) {
      batches.push({ registrar: "CAMS", kind: "TRANSACTIONS", file: feedFile(file), sha256: await sha256File(file) });
    }
  }
  for (const name of camsFiles.filter((n) => /wbr22/i.test(n))) {
    const companion = name.replace(/wbr22/i, (m) => (m === "wbr22" ? "wbr9" : "WBR9"));
    if (!names.has(companion)) {
      waiting.push({ registrar: "CAMS", file: name, reason: `waiting for its WBR9 file ${companion}` });
      continue;
    }
    const [a, b] = [path.join(camsDir, name), path.join(camsDir, companion)];
    const sha256 = createHash("sha256").update(`${await sha256File(a)}:${await sha256File(b)}`).digest("hex");
    batches.push({ registrar: "CAMS", file: feedFile(a), companion: feedFile(b), sha256 });
  }

  const kfinDir = path.join(feedDir, REGISTRAR_FOLDERS.KFINTECH);
  for (const name of await filesIn(kfinDir)) {
    const file = path.join(kfinDir, name);
    const transactions = hasColumns(await readHeaderColumns(file), MFSD201_SIGNATURE);
    batches.push({ registrar: "KFINTECH", ...(transactions ? { kind: "TRANSACTIONS" as const } : {}), file: feedFile(file), sha256: await sha256File(file) });
  }
  return { batches, waiting };
}

async function filesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile() && !e.name.startsWith(".") && !/\.(tmp|part)$/i.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
