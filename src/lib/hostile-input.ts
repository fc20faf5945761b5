import { formatPath, validationError, type ErrorDetail } from "./errors.js";

/**
 * Checks that apply to every request input before any schema sees it, whatever the procedure:
 * - no string (value or key) holds U+0000, which PostgreSQL cannot store in text;
 * - no key is named after the prototype machinery (`__proto__`, `constructor`, `prototype`): no
 *   schema has such a field, and parsers that build plain objects trip over them;
 * - nesting stays within MAX_INPUT_DEPTH levels (no schema comes close).
 * The walk is iterative, so a hostile depth cannot overflow the stack.
 */
export const MAX_INPUT_DEPTH = 64;
export const NUL_MESSAGE = "Must not contain the NUL character (U+0000)";
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);
/** Enough to point at the problem without echoing a whole hostile body back. */
const MAX_DETAILS = 20;

interface Pending {
  value: unknown;
  path: PropertyKey[];
  /** Set when the key itself is the problem: the value is not looked at. */
  problem?: string | undefined;
}

export function unsafeInputDetails(input: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  // Depth first, children pushed in reverse, so details come in document order.
  const pending: Pending[] = [{ value: input, path: [] }];
  while (pending.length > 0 && details.length < MAX_DETAILS) {
    const { value, path, problem } = pending.pop()!;
    if (problem !== undefined) {
      details.push({ path: formatPath(path), message: problem });
      continue;
    }
    if (typeof value === "string") {
      if (value.includes("\u0000")) details.push({ path: formatPath(path), message: NUL_MESSAGE });
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    // The root object is level 1; a container at path length n is level n + 1.
    if (path.length >= MAX_INPUT_DEPTH) {
      details.push({ path: formatPath(path), message: `Nested too deeply (at most ${MAX_INPUT_DEPTH} levels)` });
      continue;
    }
    const children: Pending[] = Array.isArray(value)
      ? value.map((item, index) => ({ value: item, path: [...path, index] }))
      : Object.keys(value).map((key) => ({
          value: (value as Record<string, unknown>)[key],
          path: [...path, key],
          problem: key.includes("\u0000") ? NUL_MESSAGE : RESERVED_KEYS.has(key) ? "Unknown field" : undefined,
        }));
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return details;
}

/** Throws the 400 VALIDATION_ERROR naming every unsafe place, if there is one. */
export function assertSafeInput(input: unknown): void {
  const details = unsafeInputDetails(input);
  if (details.length > 0) throw validationError(details);
}
