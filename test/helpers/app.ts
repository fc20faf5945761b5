import type { ServerType } from "@hono/node-server";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { createApp } from "../../src/app.js";
import { buildServices } from "../../src/build-services.js";
import { createDistributor, type NewDistributor } from "../../src/domains/auth/distributors.service.js";
import { createPrisma, type Db } from "../../src/platform/db/client.js";
import { pendingMigrations } from "../../src/platform/db/migrate.js";
import { loadConfig, type Config } from "../../src/env.js";
import { DataCipher } from "../../src/platform/lib/crypto.js";
import { createLogger } from "../../src/platform/lib/logger.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import type { Services } from "../../src/domains/shared/services.js";
import { createTestDatabase } from "./db.js";
import { lineSink } from "./logs.js";

export interface TestApp {
  baseUrl: string;
  databaseUrl: string;
  prisma: Db;
  services: Services;
  config: Config;
  /** Every JSON log line written so far. */
  logs: string[];
  http(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  newDistributor(input?: { name?: string; arn?: string }): Promise<NewDistributor & { token: string }>;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on arbitrary shapes
  body: any;
}

let arnCounter = 0;

/**
 * A real server for one test file: its own database (cloned from the migrated template), the real
 * app on an ephemeral port, requests over real HTTP. Registers its own beforeAll/afterAll.
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  const state = {} as TestApp & { server?: ServerType; dropDb?: () => Promise<void> };
  state.logs = [];

  beforeAll(async () => {
    const db = await createTestDatabase();
    state.databaseUrl = db.url;
    state.dropDb = db.drop;
    state.config = loadConfig({ MF_ENV: "sandbox", DATABASE_URL: db.url, LOG_LEVEL: "info", ...env });
    const logger = createLogger("info", lineSink(state.logs));
    // Test files share one PostgreSQL, so each keeps a small pool unless it asks for MF_DB_POOL_SIZE.
    const poolSize = env.MF_DB_POOL_SIZE ? state.config.dbPoolSize : 5;
    state.prisma = createPrisma(db.url, poolSize);
    state.services = buildServices({
      config: state.config,
      prisma: state.prisma,
      poolSize,
      logger,
      cipher: new DataCipher(randomBytes(32).toString("hex")),
    });
    const app = createApp(state.services, {
      readiness: async () => {
        await state.prisma.$queryRawUnsafe("SELECT 1");
        const pending = await pendingMigrations(db.url);
        return pending.length ? `${pending.length} migration(s) pending` : null;
      },
    });
    state.server = await startHttpServer(app.fetch, httpServerOptions(state.config, { port: 0, hostname: "127.0.0.1" }));
    state.baseUrl = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => (state.server ? state.server.close(() => resolve()) : resolve()));
    await state.prisma?.$disconnect();
    await state.dropDb?.();
  });

  state.http = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${state.baseUrl}${path}`, { method, headers, body: body as BodyInit | undefined });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };

  state.newDistributor = async (input = {}) => {
    arnCounter += 1;
    const arn = input.arn ?? `ARN-${process.pid}${String(arnCounter).padStart(4, "0")}`;
    const created = await createDistributor(state.prisma, { name: input.name ?? `Distributor ${arnCounter}`, arn });
    const res = await state.http("POST", "/api/auth/v1/token", {
      json: { grant_type: "client_credentials", client_id: created.client_id, client_secret: created.client_secret },
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
    return { ...created, token: res.body.access_token as string };
  };

  return state;
}
