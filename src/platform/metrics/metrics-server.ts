import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exposition } from "./registry.js";
import { METRICS_PATH } from "./metrics-endpoint.js";

export interface MetricsServer {
  /** Where it listens (the port number the system chose when asked for 0). */
  address: AddressInfo;
  close(): Promise<void>;
}

/**
 * The metrics port (MF_METRICS_PORT): `GET /metrics` without a token, on an address of its own (127.0.0.1 unless
 * MF_METRICS_HOST says otherwise), so only the machine (or the network the operator chose) can scrape it. Anything
 * else is a 404; the API's routes are not served here.
 */
export function startMetricsServer(options: { port: number; host: string }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== METRICS_PATH || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: this port serves GET /metrics only\n");
      return;
    }
    exposition().then(
      ({ body, contentType }) => res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : body),
      () => res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("metrics unavailable\n"),
    );
  });
  // A scrape is one short request; a stuck client must not keep the port busy.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve({
        address: server.address() as AddressInfo,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
