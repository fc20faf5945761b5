// The ESM half of refuse-typescript.mjs (module.register runs it on the loader's thread).
import { fileURLToPath } from "node:url";
import { refusal } from "./refuse-typescript-rule.mjs";

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const refused = refusal(specifier, result.url.startsWith("file:") ? fileURLToPath(result.url) : result.url);
  if (refused) throw new Error(refused);
  return result;
}
