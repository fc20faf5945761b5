/**
 * The raw baseline server: plain node:http, a JSON body read in full, one handler, no framework. The
 * handler does the path's database work with `pg` directly (a pool as large as our stack's).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RawAnswer {
  status: number;
  body: unknown;
}

/** The parsed JSON body (undefined when empty) and the request's path with its query. */
export type RawHandler = (body: unknown, url: string) => Promise<RawAnswer> | RawAnswer;

export async function startRawServer(handler: RawHandler): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      Promise.resolve()
        .then(() => handler(text ? JSON.parse(text) : undefined, req.url ?? "/"))
        .then(
          ({ status, body }) => {
            const json = JSON.stringify(body);
            res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) }).end(json);
          },
          (error: unknown) => {
            res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
          },
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, server };
}
