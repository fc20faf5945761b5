import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { envelope } from "../trpc/errors.js";

export interface HttpServerOptions {
  /** The port number to listen on (0: any free one). */
  port: number;
  hostname: string;
  /** Time allowed for a request's headers, from its first byte. */
  headersTimeoutMs: number;
  /** Time allowed for the whole request (headers and body), from its first byte. */
  bodyTimeoutMs: number;
}

/** The settings the server takes from the configuration (src/env.ts). */
export interface HttpServerSettings {
  port: number;
  host: string;
  http: { headersTimeoutMs: number; bodyTimeoutMs: number };
}

export const httpServerOptions = (config: HttpServerSettings, overrides: Partial<HttpServerOptions> = {}): HttpServerOptions => ({
  port: config.port,
  hostname: config.host,
  ...config.http,
  ...overrides,
});

/**
 * Serves `fetch` over HTTP with the request timeouts of the design. Node's own timers do the work:
 * `headersTimeout` and `requestTimeout` (the whole request, body included) are checked every
 * `connectionsCheckingInterval`; an expired request gets `408 Request Timeout` (no body,
 * `Connection: close`) unless its answer has started, and its socket is destroyed. Answers being
 * written are not limited, nor are idle keep-alive connections (Node's 5 s keep-alive timeout).
 */
export function startHttpServer(fetch: (request: Request, env: unknown) => Response | Promise<Response>, options: HttpServerOptions): Promise<ServerType> {
  // Node checks every 30 s by default, which would stretch a 10 s limit to 40 s.
  const checkEveryMs = Math.max(50, Math.min(1000, Math.floor(options.headersTimeoutMs / 4)));
  return new Promise<ServerType>((resolve, reject) => {
    const server = serve(
      {
        fetch,
        port: options.port,
        hostname: options.hostname,
        serverOptions: {
          headersTimeout: options.headersTimeoutMs,
          requestTimeout: options.bodyTimeoutMs,
          connectionsCheckingInterval: checkEveryMs,
        },
      },
      () => {
        server.off("error", reject);
        server.on("clientError", answerUnparsable);
        resolve(server);
      },
    );
    server.once("error", reject);
  });
}

/**
 * A request Node cannot parse never reaches the app: by default Node answers a bare 400 or 431. Those
 * answers carry the error envelope and a request id like every other; a timeout keeps Node's own 408
 * (no code of the envelope names it), and a socket already answering or gone is only closed.
 */
function answerUnparsable(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const requestId = `req_${randomUUID()}`;
  const body = JSON.stringify(
    envelope(requestId, "VALIDATION_ERROR", tooLarge ? "The request line and headers are larger than 16 KB" : "Malformed HTTP request"),
  );
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
