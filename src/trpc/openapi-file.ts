import path from "node:path";
import { buildOpenApiDocument } from "./openapi.js";
import { appRouter } from "./router.js";

/** The committed document at the top of the repository. */
export const OPENAPI_FILE = path.resolve(import.meta.dirname, "..", "..", "openapi.json");

export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(appRouter), null, 2)}\n`;
}
