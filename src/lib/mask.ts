/** Personal data masks used in every response, log line and webhook. */

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

/** Keeps the last 4 characters. */
export function maskAccountNumber(account: string): string {
  return "X".repeat(Math.max(account.length - 4, 0)) + account.slice(-4);
}

const PAN_ANYWHERE = /\b([A-Z]{2})[A-Z]{3}[0-9]{2}([0-9]{2}[A-Z])\b/g;

/** Masks anything PAN-shaped inside free text (log messages, exchange remarks). */
export function maskPansInText(text: string): string {
  return text.replace(PAN_ANYWHERE, "$1XXXXX$2");
}
