import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { IncomingHttpHeaders, ServerResponse } from "node:http";

const TLS_DIR = path.resolve(import.meta.dirname, "../fixtures/tls");

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** How the receiver answers one request: a status (and body), or never (hang). */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export interface Receiver {
  port: number;
  url(pathname?: string): string;
  received: Received[];
  /** The answer to the next requests (default 200). */
  answer(next: Answer | ((request: Received) => Answer)): void;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A real HTTPS receiver on 127.0.0.1 with the test certificate for `localhost` (trusted by the test
 * run through NODE_EXTRA_CA_CERTS, as a distributor's real certificate would be through the public CAs).
 */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let answerFor: (request: Received) => Answer = () => ({ status: 200, body: "ok" });
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer(
    { key: readFileSync(path.join(TLS_DIR, "localhost-key.pem")), cert: readFileSync(path.join(TLS_DIR, "localhost.pem")) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
        received.push(request);
        const answer = answerFor(request);
        if (answer === "hang") {
          hanging.add(res);
          return;
        }
        res.writeHead(answer.status, answer.headers ?? { "content-type": "text/plain" });
        res.end(answer.body ?? "");
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (pathname = "/hooks/mf") => `https://localhost:${port}${pathname}`,
    received,
    answer: (next) => {
      answerFor = typeof next === "function" ? next : () => next;
    },
    waitFor: async (count, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received.slice(0, count);
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
