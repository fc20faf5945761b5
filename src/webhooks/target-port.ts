/**
 * Webhook targets: https on port 443 or 1024-65535 (design). The well-known ports below 1024 other
 * than 443 (ssh 22, smtp 25, ...) belong to services a webhook has no business talking to, and port
 * 0 is no port at all. High ports are allowed as the design says, 5432 included.
 */

const HTTPS_PORT = 443;
const FIRST_UNPRIVILEGED_PORT = 1024;
const LAST_PORT = 65535;

export function isAllowedWebhookPort(port: number): boolean {
  return port === HTTPS_PORT || (Number.isInteger(port) && port >= FIRST_UNPRIVILEGED_PORT && port <= LAST_PORT);
}

/** The port an https URL connects to: its explicit port, else 443 (the URL parser drops an explicit :443). */
export function httpsPort(url: URL): number {
  return url.port === "" ? HTTPS_PORT : Number(url.port);
}

/** Null when the https URL's port is allowed, else why not (for the 400 details and the attempt log). */
export function portProblem(url: URL): string | null {
  const port = httpsPort(url);
  return isAllowedWebhookPort(port) ? null : `url port ${port} is not allowed; webhook targets use port 443 or 1024-65535`;
}
