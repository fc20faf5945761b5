/**
 * Webhook targets: https on port 443 or 1024-65535 (design). The well-known ports below 1024 other
 * than 443 (ssh 22, smtp 25, ...) belong to services a webhook has no business talking to, and port
 * 0 is no port at all. In the high range, the registered ports of databases, caches, brokers and
 * container APIs are refused too: no webhook receiver listens there, and a POST to them is only ever a
 * probe of someone's infrastructure (PostgreSQL 5432 was the case reported).
 */

const HTTPS_PORT = 443;
const FIRST_UNPRIVILEGED_PORT = 1024;
const LAST_PORT = 65535;

/** Docker API, etcd, MySQL, PostgreSQL, AMQP, Redis, Kafka, Elasticsearch, memcached, MongoDB. */
export const INFRASTRUCTURE_PORTS: ReadonlySet<number> = new Set([2375, 2376, 2379, 2380, 3306, 5432, 5672, 6379, 9092, 9200, 9300, 11211, 27017]);

export function isAllowedWebhookPort(port: number): boolean {
  if (port === HTTPS_PORT) return true;
  return Number.isInteger(port) && port >= FIRST_UNPRIVILEGED_PORT && port <= LAST_PORT && !INFRASTRUCTURE_PORTS.has(port);
}

/** The port an https URL connects to: its explicit port, else 443 (the URL parser drops an explicit :443). */
export function httpsPort(url: URL): number {
  return url.port === "" ? HTTPS_PORT : Number(url.port);
}

/** Null when the https URL's port is allowed, else why not (for the 400 details and the attempt log). */
export function portProblem(url: URL): string | null {
  const port = httpsPort(url);
  return isAllowedWebhookPort(port) ? null : `url port ${port} is not allowed; webhook targets use port 443 or 1024-65535, except the ports of databases and other infrastructure`;
}
