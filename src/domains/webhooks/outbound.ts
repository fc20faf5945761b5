import { Agent, request as httpsRequest } from "node:https";
import type { IncomingMessage } from "node:http";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { httpsPort } from "./target-port-number.js";

/**
 * One webhook POST over node:https, connected to addresses that passed the public-address check.
 * DNS is never asked again: the socket's lookup answers with those addresses, while SNI, the
 * certificate's hostname check and the Host header all use the URL's hostname. Connections are kept
 * alive only within one pool per (host, vetted addresses): a pooled connection always leads to an
 * address that passed the check for that very set. No proxy from the environment, no redirects, one
 * deadline for the whole exchange, a bounded read.
 */

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 65_536;
/** How much of the response body the result carries (what the attempt log keeps). */
export const RESPONSE_BODY_KEPT_BYTES = 16_384;
export const USER_AGENT = "mf-distribution-webhooks/1";

export type WebhookRequest = {
  url: URL;
  addresses: string[];
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Trust anchors replacing Node's default ones (the sandbox adds its local listeners' certificates). */
  ca?: string[];
};

export type WebhookResult = {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string;
};

/** Headers the transport owns; a caller's value for them is ignored. */
const TRANSPORT_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

/** Keep-alive pools, one per host and vetted address set; the least recently used is closed first. */
const POOLS = new Map<string, Agent>();
const MAX_POOLS = 256;
const IDLE_SOCKET_MS = 30_000;

function poolFor(host: string, addresses: string[]): Agent {
  const key = `${host}|${addresses.join(",")}`;
  let agent = POOLS.get(key);
  if (agent) {
    POOLS.delete(key);
  } else {
    agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: IDLE_SOCKET_MS, scheduling: "lifo" });
    if (POOLS.size >= MAX_POOLS) {
      const [oldestKey, oldest] = POOLS.entries().next().value!;
      POOLS.delete(oldestKey);
      oldest.destroy();
    }
  }
  POOLS.set(key, agent);
  return agent;
}

/** Answers the socket's address lookup with the vetted addresses only. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    // With autoSelectFamily (Node's default) all addresses are asked for and tried in turn.
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}

/** The longest prefix of at most `limit` bytes that does not cut a UTF-8 character in two. */
function utf8Prefix(bytes: Buffer, limit: number): string {
  if (bytes.length <= limit) return bytes.toString("utf8");
  let end = limit;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Several addresses tried in turn fail together, with an empty message of their own.
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join("; ");
  const code = (error as NodeJS.ErrnoException).code;
  const message = code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  return message.length > 300 ? `${message.slice(0, 297)}...` : message;
}

export async function postWebhook(request: WebhookRequest): Promise<WebhookResult> {
  const started = performance.now();
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;

  return new Promise<WebhookResult>((resolve) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let received = 0;

    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const body = Buffer.concat(chunks).subarray(0, maxResponseBytes);
      resolve({
        ok: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300,
        statusCode,
        error,
        latencyMs: Math.round(performance.now() - started),
        responseBody: utf8Prefix(body, RESPONSE_BODY_KEPT_BYTES),
      });
    };

    try {
      const { url, addresses } = request;
      const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
      if (url.protocol !== "https:") return settle("only https targets are supported");
      if (addresses.length === 0 || addresses.some((address) => isIP(address) === 0)) return settle("no vetted address to connect to");
      // An IP literal host is connected to as written, so it must itself be one of the vetted addresses.
      if (isIP(hostname) !== 0 && !addresses.includes(hostname)) return settle("url host is not among the vetted addresses");

      const headers: Record<string, string> = { "Content-Type": "application/json", "User-Agent": USER_AGENT };
      for (const [name, value] of Object.entries(request.headers)) {
        if (TRANSPORT_HEADERS.has(name.toLowerCase())) continue;
        for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
        headers[name] = value;
      }
      headers["Content-Length"] = String(request.body.length);
      headers["Host"] = url.host;

      const req = httpsRequest({
        method: "POST",
        hostname,
        port: httpsPort(url),
        path: `${url.pathname}${url.search}`,
        headers,
        // IP literals carry no SNI (RFC 6066); names send their own.
        servername: isIP(hostname) ? "" : hostname,
        lookup: pinnedLookup(addresses),
        agent: poolFor(url.host, addresses),
        ...(request.ca ? { ca: request.ca } : {}),
      });

      timer = setTimeout(() => {
        settle(`timeout after ${timeoutMs} ms`);
        req.destroy();
      }, timeoutMs);

      req.on("error", (error) => settle(describeError(error)));
      req.on("response", (res: IncomingMessage) => {
        statusCode = res.statusCode ?? null;
        res.on("data", (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          received += chunk.length;
          if (received >= maxResponseBytes) {
            // Enough read: the rest of a huge or endless body is never downloaded.
            settle(null);
            req.destroy();
          }
        });
        res.on("end", () => settle(null));
        // A body the receiver cut off still leaves its status, and what arrived, worth recording.
        res.on("error", () => settle(null));
        res.on("close", () => settle(null));
      });
      req.end(request.body);
    } catch (error) {
      // Invalid header names or values throw synchronously from request().
      settle(describeError(error));
    }
  });
}
