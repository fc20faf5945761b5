import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The directory of the service's package.json: where the files the service reads at run time live
 * (prisma/migrations, assets/, openapi.json). Found by walking up from this module, so it is the same
 * whether the service runs from src/ (tsx) or from the compiled dist/.
 */
export const PACKAGE_ROOT = findPackageRoot(import.meta.dirname);

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${start}`);
  }
}
