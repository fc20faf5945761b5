import net from "node:net";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/app.js";

// The server is started as main.ts starts it (src/platform/http/server.ts), with short limits for the test.
const app = useTestApp({ MF_HEADERS_TIMEOUT_MS: "500", MF_BODY_TIMEOUT_MS: "1000" });

interface RawConnection {
  socket: net.Socket;
  /** Everything the server sent, and how long after the connection it closed it. */
  closed: Promise<{ data: string; afterMs: number }>;
}

function connect(): Promise<RawConnection> {
  const { port } = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(Number(port), "127.0.0.1", () => {
      const chunks: Buffer[] = [];
      socket.on("data", (c: Buffer) => chunks.push(c));
      const closed = new Promise<{ data: string; afterMs: number }>((done) =>
        socket.on("close", () => done({ data: Buffer.concat(chunks).toString("latin1"), afterMs: performance.now() - started })),
      );
      socket.on("error", () => {});
      resolve({ socket, closed });
    });
    socket.once("error", reject);
  });
}

/** Writes one piece every `everyMs` until the socket closes (or the pieces run out). */
function trickle(socket: net.Socket, pieces: Iterable<string>, everyMs: number): void {
  const iterator = pieces[Symbol.iterator]();
  const timer = setInterval(() => {
    const next = iterator.next();
    if (next.done || socket.destroyed) {
      clearInterval(timer);
      return;
    }
    socket.write(next.value);
  }, everyMs);
  socket.on("close", () => clearInterval(timer));
}

function* forever(piece: string): Generator<string> {
  for (;;) yield piece;
}

const TOKEN_HEAD = (length: number) =>
  `POST /api/auth/v1/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe("request timeouts (here: headers 500 ms, whole request 1000 ms)", () => {
  it("closes a connection whose headers trickle in, with 408", async () => {
    const { socket, closed } = await connect();
    socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
    trickle(socket, forever("X-Slow: a\r\n"), 100);
    const { data, afterMs } = await closed;
    expect(data).toBe("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    expect(afterMs).toBeGreaterThanOrEqual(450);
    expect(afterMs).toBeLessThan(1500);
  });

  it("closes a request whose body trickles in, with 408, and handles nothing", async () => {
    const d = await app.newDistributor();
    const tokensBefore = await app.prisma.accessToken.count();
    const body = JSON.stringify({ grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret });
    const { socket, closed } = await connect();
    socket.write(TOKEN_HEAD(body.length));
    trickle(socket, body, 100);
    const { data, afterMs } = await closed;
    expect(data).toBe("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    expect(afterMs).toBeGreaterThanOrEqual(950);
    expect(afterMs).toBeLessThan(2000);
    expect(await app.prisma.accessToken.count()).toBe(tokensBefore);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(app.logs.filter((line) => line.includes("unhandled error"))).toEqual([]);
  });

  it("leaves normal requests alone: a body sent in pieces within the limit, and a keep-alive connection idle between requests", async () => {
    const d = await app.newDistributor();
    const body = JSON.stringify({ grant_type: "client_credentials", client_id: d.client_id, client_secret: d.client_secret });
    const { socket, closed } = await connect();
    const answers: string[] = [];
    socket.on("data", (c: Buffer) => answers.push(c.toString("latin1")));

    socket.write(TOKEN_HEAD(body.length));
    for (const piece of [body.slice(0, 20), body.slice(20, 40), body.slice(40)]) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.write(piece);
    }
    await expect.poll(() => answers.join(""), { timeout: 2000 }).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*"access_token"/);

    // Idle for longer than the headers limit (well within the 5 s keep-alive), then a second request.
    await new Promise((resolve) => setTimeout(resolve, 800));
    answers.length = 0;
    socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    const { data } = await closed;
    expect(data).toMatch(/HTTP\/1\.1 200 OK\r\n[\s\S]*\{"status":"ok"\}$/);
  });

  it("does not keep 200 slow connections open past the limit, and serves others meanwhile", async () => {
    const connections = await Promise.all(Array.from({ length: 200 }, () => connect()));
    connections.forEach(({ socket }, i) => {
      if (i % 2 === 0) {
        socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
        trickle(socket, forever("X-Slow: a\r\n"), 200);
      } else {
        socket.write(TOKEN_HEAD(10_000));
        trickle(socket, forever("x"), 200);
      }
    });
    const healthy = await app.http("GET", "/healthz");
    expect(healthy.status).toBe(200);

    const outcomes = await Promise.race([
      Promise.all(connections.map((c) => c.closed)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("slow connections still open after 3 s")), 3000)),
    ]);
    expect(outcomes).toHaveLength(200);
    for (const { data } of outcomes) expect(data).toBe("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
    expect(Math.max(...outcomes.map((o) => o.afterMs))).toBeLessThan(2500);
  });
});
