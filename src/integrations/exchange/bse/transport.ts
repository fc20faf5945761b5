import type { Log } from "../../../platform/lib/logger.js";
import { ExchangeUnavailableError } from "../port.js";
import { buildEnvelope, readResult, readResultNode, SoapFaultError, SoapFormatError, type SoapParam, type SoapService } from "./soap.js";

/**
 * The request certainly never reached the exchange's service (no connection, a refused certificate, an
 * HTTP error before the operation ran): resending it with a new reference cannot place anything twice.
 */
export class ExchangeNotDeliveredError extends ExchangeUnavailableError {
  constructor(message: string) {
    super(message);
    this.name = "ExchangeNotDeliveredError";
  }
}

export interface TransportOptions {
  /** Scheme and host, such as https://bsestarmfdemo.bseindia.com (no trailing slash). */
  baseUrl: string;
  /** How long one call may take, answer included. */
  timeoutMs: number;
  log: Log;
}

/** Connection errors after which the server cannot have seen the request. */
const NOT_DELIVERED_CODES = new Set([
  "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH",
  "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID", "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * HTTP to the exchange over Node's fetch (TLS verified by Node). Every failure to get a usable answer (a
 * timeout, a connection error, an HTTP error, a fault, a malformed envelope) is ExchangeUnavailableError,
 * so the jobs retry. Logs carry the service, operation, HTTP status and duration: never a body, which
 * holds the login password or the session's encrypted password.
 */
export class BseTransport {
  constructor(private readonly options: TransportOptions) {}

  url(path: string): string {
    return `${this.options.baseUrl}${path}`;
  }

  /** Posts a SOAP 1.2 request and answers the `<operation>Result` text. */
  async soap(service: SoapService, operation: string, params: readonly SoapParam[]): Promise<string> {
    return this.soapCall(service, operation, params, readResult);
  }

  /** Posts a SOAP 1.2 request and answers the `<operation>Result` element as parsed (a data contract). */
  async soapNode(service: SoapService, operation: string, params: readonly SoapParam[]): Promise<unknown> {
    return this.soapCall(service, operation, params, readResultNode);
  }

  private async soapCall<T>(service: SoapService, operation: string, params: readonly SoapParam[], read: (xml: string, operation: string) => T): Promise<T> {
    const to = this.url(service.path);
    const action = service.action(operation);
    const label = `BSE ${service.name} ${operation}`;
    const { status, text } = await this.post(label, to, buildEnvelope(service, operation, to, params), {
      "content-type": `application/soap+xml; charset=utf-8; action="${action}"`,
    });
    try {
      if (status >= 500) {
        // WCF answers a fault with HTTP 500; its reason is the most useful message.
        throw new ExchangeUnavailableError(`${label}: HTTP ${status}${faultReason(text, operation)}`);
      }
      if (status < 200 || status >= 300) throw new ExchangeNotDeliveredError(`${label}: HTTP ${status}`);
      return read(text, operation);
    } catch (error) {
      if (error instanceof SoapFaultError) throw new ExchangeUnavailableError(`${label}: ${error.message}`);
      if (error instanceof SoapFormatError) throw new ExchangeUnavailableError(`${label}: malformed answer (${error.message})`);
      throw error;
    }
  }

  /** Posts JSON and answers the parsed JSON body (the exchange's JSON services). */
  async json(label: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    const { status, text } = await this.post(`BSE ${label}`, this.url(path), JSON.stringify(body), {
      "content-type": "application/json; charset=utf-8",
      accept: "application/json",
      ...headers,
    });
    if (status >= 500) throw new ExchangeUnavailableError(`BSE ${label}: HTTP ${status}`);
    if (status < 200 || status >= 300) throw new ExchangeNotDeliveredError(`BSE ${label}: HTTP ${status}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ExchangeUnavailableError(`BSE ${label}: malformed answer (not JSON)`);
    }
  }

  private async post(label: string, url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
    const started = Date.now();
    try {
      const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(this.options.timeoutMs), redirect: "error" });
      const text = await response.text();
      this.options.log.debug({ call: label, http_status: response.status, ms: Date.now() - started }, "exchange call");
      return { status: response.status, text };
    } catch (error) {
      const reason = failureReason(error, this.options.timeoutMs);
      this.options.log.warn({ call: label, reason: reason.text, ms: Date.now() - started }, "exchange call failed");
      throw reason.delivered ? new ExchangeUnavailableError(`${label}: ${reason.text}`) : new ExchangeNotDeliveredError(`${label}: ${reason.text}`);
    }
  }
}

function failureReason(error: unknown, timeoutMs: number): { text: string; delivered: boolean } {
  const name = (error as Error | undefined)?.name;
  if (name === "TimeoutError" || name === "AbortError") return { text: `no answer within ${timeoutMs} ms`, delivered: true };
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  if (code && NOT_DELIVERED_CODES.has(code)) return { text: `could not connect (${code})`, delivered: false };
  return { text: `connection failed (${code ?? (error as Error | undefined)?.message ?? "unknown error"})`, delivered: true };
}

function faultReason(text: string, operation: string): string {
  try {
    readResult(text, operation);
    return "";
  } catch (error) {
    return error instanceof SoapFaultError ? ` (${error.message})` : "";
  }
}
