import { formatPath, UNKNOWN_FIELD, validationError, type DetailReason, type ErrorDetail } from "./errors.js";

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

/** An object or array being walked: the stack of frames is the path to the value being looked at. */
interface Frame {
  container: object;
  /** The keys of an object; undefined for an array (walked by index). */
  keys: string[] | undefined;
  length: number;
  next: number;
  /** Where the container sits in its parent; undefined for the root. */
  key: PropertyKey | undefined;
}

function frameOf(container: object, key: PropertyKey | undefined): Frame {
  const keys = Array.isArray(container) ? undefined : Object.keys(container);
  return { container, keys, length: keys ? keys.length : (container as unknown[]).length, next: 0, key };
}

/** A problem at `key` of the innermost frame; its path is built only now. */
function report(details: ErrorDetail[], stack: Frame[], key: PropertyKey, message: string, reason: DetailReason): void {
  const path: PropertyKey[] = [];
  for (let i = 1; i < stack.length; i++) path.push(stack[i]!.key!);
  path.push(key);
  details.push({ path: formatPath(path), message, reason });
}

/** Where `input` breaks the rules, in document order (at most MAX_DETAILS places). */
export function unsafeInputDetails(input: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (typeof input === "string") {
    if (input.includes("\u0000")) details.push({ path: formatPath([]), message: NUL_MESSAGE, reason: "nul_character" });
    return details;
  }
  if (input === null || typeof input !== "object") return details;
  // Depth first over a stack of containers; values are looked at in place, so a clean input
  // allocates one frame per object or array and nothing per value.
  const stack: Frame[] = [frameOf(input, undefined)];
  while (stack.length > 0 && details.length < MAX_DETAILS) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.length) {
      stack.pop();
      continue;
    }
    const index = frame.next++;
    let key: PropertyKey = index;
    if (frame.keys !== undefined) {
      key = frame.keys[index]!;
      // The key itself is the problem: the value is not looked at.
      if (key.includes("\u0000")) {
        report(details, stack, key, NUL_MESSAGE, "nul_character");
        continue;
      }
      if (RESERVED_KEYS.has(key)) {
        report(details, stack, key, UNKNOWN_FIELD, "unknown_field");
        continue;
      }
    }
    const value: unknown = (frame.container as Record<PropertyKey, unknown>)[key];
    if (typeof value === "string") {
      if (value.includes("\u0000")) report(details, stack, key, NUL_MESSAGE, "nul_character");
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    // The root object is level 1; a container at path length n is level n + 1.
    if (stack.length >= MAX_INPUT_DEPTH) {
      report(details, stack, key, `Nested too deeply (at most ${MAX_INPUT_DEPTH} levels)`, "too_deep");
      continue;
    }
    stack.push(frameOf(value, key));
  }
  return details;
}

/** Throws the 400 VALIDATION_ERROR naming every unsafe place, if there is one. */
export function assertSafeInput(input: unknown): void {
  const details = unsafeInputDetails(input);
  if (details.length > 0) throw validationError(details);
}
