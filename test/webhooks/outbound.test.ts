import { readFileSync } from "node:fs";
import { createServer as createHttpsServer, type Server } from "node:https";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { createSecureContext, type TLSSocket } from "node:tls";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, postWebhook, USER_AGENT } from "../../src/domains/webhooks/outbound.js";

const tls = {
  key: readFileSync("test/fixtures/tls/localhost-key.pem"),
  cert: readFileSync("test/fixtures/tls/localhost.pem"),
};

type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: Buffer; localAddress: string; servername: string | false | null };
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTPS receiver for localhost, trusted only through NODE_EXTRA_CA_CERTS. */
class Receiver {
  readonly seen: Seen[] = [];
  readonly sniNames: string[] = [];
  readonly sockets = new Set<Socket>();
  connections = 0;
  handlers = new Map<string, Handler>();
  server: Server;

  constructor() {
    this.server = createHttpsServer({
      ...tls,
      SNICallback: (servername, callback) => {
        this.sniNames.push(servername);
        callback(null, createSecureContext(tls));
      },
    });
    this.server.on("connection", (socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    this.server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const socket = req.socket as TLSSocket;
        this.seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks), localAddress: socket.localAddress!, servername: socket.servername });
        const handler = this.handlers.get(new URL(req.url!, "https://x").pathname);
        if (handler) handler(req, res);
        else res.writeHead(204).end();
      });
    });
  }

  listen(host: string, port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => resolve((this.server.address() as AddressInfo).port));
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const signatureHeaders = { "X-MF-Event": "order.accepted", "X-MF-Delivery": "dlv_01k0test", "X-MF-Signature": "t=1767225600,v1=" + "ab".repeat(32) };
const payload = Buffer.from('{"success":true,"data":{"order_id":"ord_1","status":"ACCEPTED","provider_remark":"₹ ok"}}', "utf8");

let receiver: Receiver;
let port: number;

beforeAll(async () => {
  if (!process.env.NODE_EXTRA_CA_CERTS) throw new Error("Run these tests with `npm test` (it sets NODE_EXTRA_CA_CERTS to the test CA)");
  receiver = new Receiver();
  port = await receiver.listen("127.0.0.1");
});

afterAll(async () => {
  await receiver.close();
});

afterEach(() => {
  receiver.handlers.clear();
  receiver.seen.length = 0;
  receiver.sniNames.length = 0;
});

describe("postWebhook", () => {
  it("POSTs the exact bytes and headers to the pinned address, with SNI and Host from the URL", async () => {
    receiver.handlers.set("/hooks/mf", (_req, res) => res.writeHead(200, { "Content-Type": "text/plain" }).end("received ₹"));
    const result = await postWebhook({
      url: new URL(`https://localhost:${port}/hooks/mf?tenant=7&x=%20y`),
      addresses: ["127.0.0.1"],
      body: payload,
      headers: signatureHeaders,
    });
    expect(result).toEqual({ ok: true, statusCode: 200, error: null, latencyMs: expect.any(Number), responseBody: "received ₹" });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(receiver.seen).toHaveLength(1);
    const seen = receiver.seen[0]!;
    expect(seen.method).toBe("POST");
    expect(seen.url).toBe("/hooks/mf?tenant=7&x=%20y");
    expect(seen.body.equals(payload)).toBe(true);
    expect(seen.servername).toBe("localhost");
    expect(seen.headers).toEqual({
      host: `localhost:${port}`,
      "content-type": "application/json",
      "content-length": String(payload.length),
      "user-agent": USER_AGENT,
      "x-mf-event": "order.accepted",
      "x-mf-delivery": "dlv_01k0test",
      "x-mf-signature": signatureHeaders["X-MF-Signature"],
      connection: "keep-alive",
    });
  });

  it("connects to the vetted address it is given, not to what the name resolves to", async () => {
    const second = new Receiver();
    // Same port, another loopback address: only the pinned address decides which server answers.
    await second.listen("127.0.0.2", port);
    try {
      const url = new URL(`https://localhost:${port}/which`);
      const toSecond = await postWebhook({ url, addresses: ["127.0.0.2"], body: payload, headers: {} });
      const toFirst = await postWebhook({ url, addresses: ["127.0.0.1"], body: payload, headers: {} });
      expect([toSecond.ok, toFirst.ok]).toEqual([true, true]);
      expect(second.seen.map((seen) => [seen.localAddress, seen.headers.host, seen.servername])).toEqual([["127.0.0.2", `localhost:${port}`, "localhost"]]);
      expect(receiver.seen.map((seen) => [seen.localAddress, seen.headers.host, seen.servername])).toEqual([["127.0.0.1", `localhost:${port}`, "localhost"]]);
    } finally {
      await second.close();
    }
  });

  it("verifies the certificate against the URL's hostname without any DNS look-up", async () => {
    const connectionsBefore = receiver.connections;
    const result = await postWebhook({ url: new URL(`https://example.invalid:${port}/hook`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(result).toMatchObject({ ok: false, statusCode: null, responseBody: "" });
    // example.invalid can never resolve (RFC 6761): reaching the server proves the pinned address was used,
    // and the refusal proves the certificate was checked against the URL's name, sent as SNI.
    expect(result.error).toMatch(/^ERR_TLS_CERT_ALTNAME_INVALID: .*example\.invalid/);
    expect(receiver.connections).toBe(connectionsBefore + 1);
    expect(receiver.sniNames).toEqual(["example.invalid"]);
    expect(receiver.seen).toEqual([]);
  });

  it("reaches an IP-literal URL with no SNI and the certificate's IP entry", async () => {
    const result = await postWebhook({ url: new URL(`https://127.0.0.1:${port}/ip`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(receiver.seen[0]!.headers.host).toBe(`127.0.0.1:${port}`);
    expect(receiver.sniNames).toEqual([]);
  });

  it("refuses to connect to an IP-literal host that is not among the vetted addresses", async () => {
    const result = await postWebhook({ url: new URL(`https://127.0.0.1:${port}/ip`), addresses: ["127.0.0.2"], body: payload, headers: {} });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "url host is not among the vetted addresses" });
    expect(receiver.seen).toEqual([]);
  });

  it("reaches an IPv6 literal URL, and falls back to the next vetted address when one refuses", async () => {
    const v6 = new Receiver();
    const v6Port = await v6.listen("::1");
    try {
      const literal = await postWebhook({ url: new URL(`https://[::1]:${v6Port}/six`), addresses: ["::1"], body: payload, headers: {} });
      expect(literal).toMatchObject({ ok: true, statusCode: 204 });
      const fallback = await postWebhook({ url: new URL(`https://localhost:${v6Port}/both`), addresses: ["127.0.0.1", "::1"], body: payload, headers: {} });
      expect(fallback).toMatchObject({ ok: true, statusCode: 204 });
      expect(v6.seen.map((seen) => [seen.url, seen.headers.host, seen.localAddress])).toEqual([
        ["/six", `[::1]:${v6Port}`, "::1"],
        ["/both", `localhost:${v6Port}`, "::1"],
      ]);
    } finally {
      await v6.close();
    }
  });

  it("names every refusal when all vetted addresses refuse", async () => {
    const refused = await closedPort();
    const result = await postWebhook({ url: new URL(`https://localhost:${refused}/`), addresses: ["127.0.0.1", "127.0.0.2"], body: payload, headers: {} });
    expect(result).toMatchObject({ ok: false, statusCode: null, error: `connect ECONNREFUSED 127.0.0.1:${refused}; connect ECONNREFUSED 127.0.0.2:${refused}` });
  });

  it("does not follow a redirect", async () => {
    receiver.handlers.set("/moved", (_req, res) => res.writeHead(302, { Location: `https://localhost:${port}/target` }).end("see /target"));
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/moved`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(result).toEqual({ ok: false, statusCode: 302, error: null, latencyMs: expect.any(Number), responseBody: "see /target" });
    expect(receiver.seen.map((seen) => seen.url)).toEqual(["/moved"]);
  });

  it("reports a 500 with the first 16 KB of its body", async () => {
    const body = Array.from({ length: 20_000 }, (_, index) => String.fromCharCode(97 + (index % 26))).join("");
    receiver.handlers.set("/broken", (_req, res) => res.writeHead(500).end(body));
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/broken`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(result).toMatchObject({ ok: false, statusCode: 500, error: null });
    expect(result.responseBody).toBe(body.slice(0, 16_384));
  });

  it("cuts the kept body at a character boundary", async () => {
    receiver.handlers.set("/rupees", (_req, res) => res.writeHead(200).end("₹".repeat(10_000))); // 3 bytes each
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/rupees`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(result.responseBody).toBe("₹".repeat(5461)); // 16_383 bytes; a 5462nd would end at byte 16_386
  });

  it("accepts any 2xx", async () => {
    receiver.handlers.set("/accepted", (_req, res) => res.writeHead(202).end());
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/accepted`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(result).toMatchObject({ ok: true, statusCode: 202, error: null, responseBody: "" });
  });

  it("gives up on a receiver that never answers, after timeoutMs for the whole exchange", async () => {
    receiver.handlers.set("/hang", () => {});
    const started = Date.now();
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/hang`), addresses: ["127.0.0.1"], body: payload, headers: {}, timeoutMs: 300 });
    const took = Date.now() - started;
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "timeout after 300 ms", responseBody: "" });
    expect(result.latencyMs).toBeGreaterThanOrEqual(295);
    expect(took).toBeLessThan(2_000);
  });

  it("times out a server that accepts the connection but never speaks TLS", async () => {
    const silent = createTcpServer(() => {});
    const sockets: Socket[] = [];
    silent.on("connection", (socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve()));
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const result = await postWebhook({ url: new URL(`https://localhost:${silentPort}/`), addresses: ["127.0.0.1"], body: payload, headers: {}, timeoutMs: 300 });
      expect(result).toMatchObject({ ok: false, statusCode: null, error: "timeout after 300 ms" });
      expect(sockets).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("times out a body that never ends, keeping the status and what arrived", async () => {
    receiver.handlers.set("/trickle", (_req, res) => {
      res.writeHead(200);
      res.write("partial");
    });
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/trickle`), addresses: ["127.0.0.1"], body: payload, headers: {}, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, statusCode: 200, error: "timeout after 300 ms", responseBody: "partial" });
  });

  it("waits 10 000 ms by default", async () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(10_000);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(65_536);
    const arrived = new Promise<void>((resolve) => receiver.handlers.set("/hang-default", () => resolve()));
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let settled = false;
      const pending = postWebhook({ url: new URL(`https://localhost:${port}/hang-default`), addresses: ["127.0.0.1"], body: payload, headers: {} }).then((result) => {
        settled = true;
        return result;
      });
      await arrived;
      vi.advanceTimersByTime(9_999);
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      vi.advanceTimersByTime(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(true);
      expect(await pending).toMatchObject({ ok: false, statusCode: null, error: "timeout after 10000 ms" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("stops reading a 10 MB response at 64 KB and returns at once", async () => {
    let serverWritten = 0;
    const serverDone = new Promise<void>((resolve) => {
      receiver.handlers.set("/huge", (_req, res) => {
        res.writeHead(200, { "Content-Length": String(10 * 1024 * 1024) });
        const chunk = Buffer.alloc(64 * 1024, "x");
        const pump = () => {
          while (serverWritten < 10 * 1024 * 1024 && !res.destroyed) {
            serverWritten += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end();
        };
        res.on("close", () => resolve());
        pump();
      });
    });
    const started = Date.now();
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/huge`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(result.responseBody).toBe("x".repeat(16_384));
    await serverDone;
    expect(serverWritten).toBeLessThan(10 * 1024 * 1024);
  });

  it("stops reading an endless response at maxResponseBytes", async () => {
    receiver.handlers.set("/endless", (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024, "y");
      const pump = () => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once("drain", pump);
      };
      pump();
    });
    const result = await postWebhook({ url: new URL(`https://localhost:${port}/endless`), addresses: ["127.0.0.1"], body: payload, headers: {}, maxResponseBytes: 1_000, timeoutMs: 5_000 });
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, responseBody: "y".repeat(1_000) });
  });

  it("reports a refused connection", async () => {
    const refused = await closedPort();
    const result = await postWebhook({ url: new URL(`https://localhost:${refused}/`), addresses: ["127.0.0.1"], body: payload, headers: {} });
    expect(result).toMatchObject({ ok: false, statusCode: null, responseBody: "" });
    expect(result.error).toBe(`connect ECONNREFUSED 127.0.0.1:${refused}`);
  });

  it("ignores proxy settings in the environment", async () => {
    const bogus = `http://127.0.0.1:${await closedPort()}`;
    const names = ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "ALL_PROXY", "all_proxy"];
    const saved = names.map((name) => [name, process.env[name]] as const);
    for (const name of names) process.env[name] = bogus;
    process.env.NO_PROXY = "";
    try {
      const result = await postWebhook({ url: new URL(`https://localhost:${port}/direct`), addresses: ["127.0.0.1"], body: payload, headers: {} });
      expect(result).toMatchObject({ ok: true, statusCode: 204 });
      expect(receiver.seen.map((seen) => seen.url)).toEqual(["/direct"]);
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      delete process.env.NO_PROXY;
    }
  });

  it("keeps Host and Content-Length its own, and lets callers set other headers", async () => {
    const result = await postWebhook({
      url: new URL(`https://localhost:${port}/headers`),
      addresses: ["127.0.0.1"],
      body: payload,
      headers: { host: "evil.example", "content-length": "1", "user-agent": "custom/2", "X-Extra": "1" },
    });
    expect(result.ok).toBe(true);
    const headers = receiver.seen[0]!.headers;
    expect([headers.host, headers["content-length"], headers["user-agent"], headers["x-extra"]]).toEqual([`localhost:${port}`, String(payload.length), "custom/2", "1"]);
    expect(receiver.seen[0]!.body.equals(payload)).toBe(true);
  });

  it("never throws: bad headers, a non-https URL or no address are failed results", async () => {
    const bad = await postWebhook({ url: new URL(`https://localhost:${port}/`), addresses: ["127.0.0.1"], body: payload, headers: { "X-Bad": "a\r\nInjected: 1" } });
    expect(bad).toMatchObject({ ok: false, statusCode: null });
    expect(bad.error).toMatch(/^ERR_INVALID_CHAR: /);
    expect(await postWebhook({ url: new URL("http://localhost/"), addresses: ["127.0.0.1"], body: payload, headers: {} })).toMatchObject({ ok: false, error: "only https targets are supported" });
    expect(await postWebhook({ url: new URL(`https://localhost:${port}/`), addresses: [], body: payload, headers: {} })).toMatchObject({ ok: false, error: "no vetted address to connect to" });
    expect(receiver.seen).toEqual([]);
  });
});
