/** Personal data masks used in every response, log line, webhook and stored free text. */

/** `ABCDE1234F` -> `ABXXXXX34F` (first 2 and last 3 characters kept). */
export function maskPan(pan: string): string {
  if (pan.length < 6) return "X".repeat(pan.length);
  return pan.slice(0, 2) + "X".repeat(pan.length - 5) + pan.slice(-3);
}

/** Keeps the last 4 digits. */
export function maskMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, "");
  return "X".repeat(Math.max(digits.length - 4, 0)) + digits.slice(-4);
}

/** Keeps the first character and the domain: `a***@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  return `${email[0]}***${email.slice(at)}`;
}

/** Keeps each word's first letter: `Asha Rao` -> `A*** R**` (names are words separated by spaces). */
export function maskName(name: string): string {
  return name
    .split(" ")
    .filter((word) => word.length > 0)
    .map((word) => word[0] + "*".repeat(word.length - 1))
    .join(" ");
}

/** Keeps the last 4 characters. */
export function maskAccountNumber(account: string): string {
  return "X".repeat(Math.max(account.length - 4, 0)) + account.slice(-4);
}

/*
 * Where a token (a PAN, a link id) in free text may start: the start of the text, any character that
 * is not an ASCII letter or digit (`_`, `/`, `-`, `=`, space, an accented letter...), or the end of an
 * escape that stands for another character: `%2F` (URL encoding), `\n` `\r` `\t` `\b` `\f` and
 * `\u00e9` (JSON encoding), so text is masked alike raw, URL-encoded or inside a JSON log line.
 * Both patterns below check this with a lookbehind placed after their first character: the engine
 * then looks back only where a token could begin, which makes masking a log line several times
 * cheaper (1-2 us a line). They are literals so that mutation testing reaches them.
 */

/**
 * PAN-shaped: 5 letters, 4 digits, 1 letter, in any case, not part of a longer run of ASCII letters
 * and digits: it starts where a token may start (above) and is followed by the end of the text or
 * anything but an ASCII letter or digit.
 */
const PAN_IN_TEXT = /[A-Za-z](?<=(?:^|[^A-Za-z0-9]|%[0-9A-Fa-f]{2}|\\[nrtbf]|\\u[0-9A-Fa-f]{4})[A-Za-z])[A-Za-z]{4}[0-9]{4}[A-Za-z](?![A-Za-z0-9])/g;

/** Masks every PAN-shaped token in free text (`ABCDE1234F` -> `ABXXXXX34F`, `abcde1234f` -> `abXXXXX34f`). */
export function maskPansInText(text: string): string {
  return text.replace(PAN_IN_TEXT, maskPan);
}

/** Free text on its way into storage or a response: PANs masked; null stays null. */
export function maskFreeText<T extends string | null | undefined>(text: T): T {
  return (typeof text === "string" ? maskPansInText(text) : text) as T;
}

/** Masks PANs in every string (keys included) of a JSON-like value; other values are kept as they are. */
export function maskPansDeep<T>(value: T): T {
  if (typeof value === "string") return maskPansInText(value) as T;
  if (Array.isArray(value)) return value.map((item) => maskPansDeep(item)) as T;
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskPansInText(key), maskPansDeep(item)])) as T;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A link id (`lnk_` and its random part, any case) where a token may start; its first 8 characters are kept. */
const LINK_ID_IN_TEXT = /(l)(?<=(?:^|[^A-Za-z0-9]|%[0-9A-Fa-f]{2}|\\[nrtbf]|\\u[0-9A-Fa-f]{4})l)(nk_[A-Za-z0-9]{4})[A-Za-z0-9]+/gi;

/** Order link ids are secrets: logs keep only their first 8 characters (`lnk_01k9***`). */
export function maskLinkIds(text: string): string {
  return text.replace(LINK_ID_IN_TEXT, "$1$2***");
}

/** Everything a finished log line must not carry in clear: PAN-shaped tokens and link ids. */
export function maskLogLine(line: string): string {
  return maskLinkIds(maskPansInText(line));
}
