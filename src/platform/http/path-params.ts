import { formatPath, type ErrorDetail } from "../lib/errors.js";

export const MALFORMED_ESCAPE = "Must be valid percent-encoded UTF-8";

/**
 * The path parameters of a matched route, percent-decoded exactly once (`ord%5Fx` is `ord_x`, `%255F`
 * stays `%5F`), or where an escape is not valid UTF-8 (`%zz`, a cut `%E0%A4`, an overlong `%C0%AF`).
 * The NUL rule is applied after this, by the procedures' raw-input check, so `%00` is refused there.
 */
export function decodePathParams(raw: Record<string, string>): { params: Record<string, string> } | { details: ErrorDetail[] } {
  const params: Record<string, string> = {};
  const details: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(raw)) {
    try {
      // Without a "%" decodeURIComponent returns the value unchanged and cannot throw.
      params[name] = decodeURIComponent(value);
    } catch {
      details.push({ path: formatPath([name]), message: MALFORMED_ESCAPE, reason: "invalid_format" });
    }
  }
  return details.length > 0 ? { details } : { params };
}
