import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { generate } from "selfsigned";
import { WILDCARDS } from "./event-filter.js";
import { listenerCertificatePath } from "./listener-trust.js";
// The verifier receivers import as `mf-distribution-service/webhooks` (package.json "exports" names this file);
// imported by path here so that a compiled build does not resolve the export to TypeScript source.
import { verifyWebhookSignature } from "./signature.js";

/**
 * `npm run mf -- webhooks:listen`: a local HTTPS receiver for the sandbox, like `stripe listen`. It makes a
 * throw-away certificate for 127.0.0.1 (selfsigned: pure JavaScript over WebCrypto, so no openssl binary is
 * needed), leaves the certificate where the sandbox's deliveries trust it (listener-trust.ts), subscribes
 * its URL through the API, prints every delivery with its verified signature, and unsubscribes on stop.
 */
export interface ListenerOptions {
  baseUrl: string;
  token: string;
  events: string[];
  /** 0: any free port. */
  port: number;
  dataDir: string;
  print: (line: string) => void;
}

export interface RunningListener {
  url: string;
  subscriptionId: string;
  stop(): Promise<void>;
}

export const ALL_EVENTS: string[] = [...WILDCARDS];

export class ListenerError extends Error {}

async function api(options: ListenerOptions, method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) {
  let response: Response;
  try {
    response = await fetch(new URL(pathname, options.baseUrl), {
      method,
      headers: { authorization: `Bearer ${options.token}`, ...(body ? { "content-type": "application/json" } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new ListenerError(`Cannot reach the service at ${options.baseUrl} (${(error as Error).message}): is \`npm start\` running?`);
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed as Record<string, any> | undefined, text };
}

function describeRefusal(status: number, body: Record<string, any> | undefined, text: string): string {
  const error = body?.error;
  if (!error || typeof error !== "object") return `HTTP ${status}: ${text.slice(0, 300)}`;
  const details = Array.isArray(error.details) ? error.details.map((d: { path: string; message: string }) => `\n  ${d.path}: ${d.message}`).join("") : "";
  return `HTTP ${status} ${error.code}: ${error.message}${details}`;
}

function receive(server: Server, secret: () => string, print: (line: string) => void): void {
  server.on("request", (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const verdict = verifyWebhookSignature(raw, req.headers["x-mf-signature"] as string | undefined, secret());
      const event = String(req.headers["x-mf-event"] ?? "(no X-MF-Event)");
      const delivery = String(req.headers["x-mf-delivery"] ?? "(no X-MF-Delivery)");
      const signature = verdict.valid ? "signature verified" : `signature INVALID (${verdict.reason})`;
      let payload: string;
      try {
        payload = JSON.stringify(JSON.parse(raw.toString("utf8")), null, 2);
      } catch {
        payload = raw.toString("utf8");
      }
      print(`${new Date().toISOString()} ${event} ${delivery} ${signature}\n${payload}`);
      // A delivery whose signature fails is answered 400, as a real receiver would (the service retries it).
      res.writeHead(verdict.valid ? 200 : 400, { "content-type": "text/plain" }).end(verdict.valid ? "ok" : verdict.reason);
    });
  });
}

export async function startWebhookListener(options: ListenerOptions): Promise<RunningListener> {
  const pems = await generate([{ name: "commonName", value: "mf webhooks:listen (throw-away)" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - 60_000),
    notAfterDate: new Date(Date.now() + 7 * 86_400_000),
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }, { type: 2, value: "localhost" }] },
    ],
  });

  let secret = "";
  const server = createServer({ key: pems.private, cert: pems.cert });
  receive(server, () => secret, options.print);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", () => resolve());
  });
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const certFile = listenerCertificatePath(options.dataDir, process.pid);
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));

  try {
    await mkdir(path.dirname(certFile), { recursive: true });
    await writeFile(certFile, pems.cert);
    const created = await api(options, "POST", "/api/webhooks/v1/subscriptions", { url, events: options.events }, { "idempotency-key": `webhooks-listen-${randomUUID()}` });
    if (created.status !== 201) {
      const hint = /address|private|loopback/i.test(created.text)
        ? "\nThe service refuses loopback receivers unless it was started with WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (sandbox only):\n  WEBHOOK_ALLOW_PRIVATE_TARGETS=1 npm start"
        : "";
      throw new ListenerError(`The service refused the subscription: ${describeRefusal(created.status, created.body, created.text)}${hint}`);
    }
    secret = created.body!.data.secret as string;
    const subscriptionId = created.body!.data.id as string;
    let stopped: Promise<void> | undefined;
    return {
      url,
      subscriptionId,
      stop: () =>
        (stopped ??= (async () => {
          const deleted = await api(options, "DELETE", `/api/webhooks/v1/subscriptions/${subscriptionId}`).catch((error: Error) => ({ status: 0, body: undefined, text: error.message }));
          options.print(
            deleted.status === 200 ? `Unsubscribed ${subscriptionId}.` : `Could not unsubscribe ${subscriptionId} (${describeRefusal(deleted.status, deleted.body, deleted.text)}); delete it with DELETE /api/webhooks/v1/subscriptions/${subscriptionId}.`,
          );
          await rm(certFile, { force: true });
          await closeServer();
        })()),
    };
  } catch (error) {
    await rm(certFile, { force: true });
    await closeServer();
    throw error;
  }
}

/**
 * The token to subscribe with: given, or one for the sandbox's own API client (MF_SANDBOX_CLIENT_ID/SECRET,
 * else the credentials file the sandbox keeps under MF_DATA_DIR).
 */
export async function listenerToken(
  baseUrl: string,
  given: string | undefined,
  sandbox: { dataDir: string; clientId?: string | undefined; clientSecret?: string | undefined },
): Promise<string> {
  if (given) return given;
  let credentials: { client_id: string; client_secret: string };
  if (sandbox.clientId && sandbox.clientSecret) {
    credentials = { client_id: sandbox.clientId, client_secret: sandbox.clientSecret };
  } else {
    try {
      const saved = JSON.parse(await readFile(path.join(sandbox.dataDir, "sandbox-credentials.json"), "utf8"));
      credentials = { client_id: String(saved.client_id), client_secret: String(saved.client_secret) };
    } catch {
      throw new ListenerError("webhooks:listen needs a token: --token mfat_... or MF_TOKEN (or run it beside the sandbox's MF_DATA_DIR)");
    }
  }
  const response = await fetch(new URL("/api/auth/v1/token", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "client_credentials", ...credentials }),
  }).catch((error: Error) => {
    throw new ListenerError(`Cannot reach the service at ${baseUrl} (${error.message}): is \`npm start\` running?`);
  });
  if (response.status !== 200) throw new ListenerError(`The sandbox's API client was refused (HTTP ${response.status}); pass --token`);
  return ((await response.json()) as { access_token: string }).access_token;
}
