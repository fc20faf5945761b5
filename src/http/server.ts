import { serve, type ServerType } from "@hono/node-server";
import type { Config } from "../env.js";

export interface HttpServerOptions {
  port: number;
  hostname: string;
  /** Time allowed for a request's headers, from its first byte. */
  headersTimeoutMs: number;
  /** Time allowed for the whole request (headers and body), from its first byte. */
  bodyTimeoutMs: number;
}

export const httpServerOptions = (config: Config, overrides: Partial<HttpServerOptions> = {}): HttpServerOptions => ({
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
        resolve(server);
      },
    );
    server.once("error", reject);
  });
}
