/**
 * Our stack as the benchmarks run it: the runtime (embedded PostgreSQL on a port of the benchmark's own,
 * on a free port unless MF_EMBEDDED_PG_PORT says, or DATABASE_URL), the real app (request logs written at info to /dev/null, as in production, so their
 * cost counts), a distributor and its bearer token.
 */
import type { ServerType } from "@hono/node-server";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { createApp } from "../../src/app.js";
import { createDistributor } from "../../src/domains/auth/distributors.service.js";
import { loadConfig } from "../../src/env.js";
import { httpServerOptions, startHttpServer } from "../../src/platform/http/server.js";
import { createLogger } from "../../src/platform/lib/logger.js";
import { openRuntime, type Runtime } from "../../src/runtime.js";
import type { Services } from "../../src/domains/shared/services.js";
import { freePort } from "../../test/helpers/process.js";
import { UNLIMITED_BUDGET } from "../budget.js";
import { watchPostgresCpu } from "./postgres-cpu.js";

export interface Stack {
  runtime: Runtime;
  services: Services;
  databaseUrl: string;
  /** The app as production serves it. */
  app: ReturnType<typeof createApp>;
  /** The app with static responses off: every request runs its procedure. */
  uncachedApp: ReturnType<typeof createApp>;
  distributorId: string;
  clientId: string;
  token: string;
  /** Requests the servers of listenApp are still answering (a load run ends with some in flight). */
  inFlight: { count: number };
  /** Waits for the requests in flight, then closes the database. */
  close(): Promise<void>;
}

export interface StackOptions {
  name: string;
  env?: Record<string, string>;
  /** Log level of the services' logger (request logs need info). */
  logLevel?: "info" | "warn";
}

export async function openStack(options: StackOptions): Promise<Stack> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `mf-bench-${options.name}-`));
  // The postgres system user of the embedded server must be able to traverse it.
  await chmod(dataDir, 0o755);
  const logLevel = options.logLevel ?? "info";
  const config = loadConfig({ ...UNLIMITED_BUDGET, ...process.env, MF_DATA_DIR: dataDir, MF_EMBEDDED_PG_PORT: process.env.MF_EMBEDDED_PG_PORT ?? String(await freePort()), LOG_LEVEL: logLevel, ...options.env });
  // Request logs go to a sink (their cost counts, their lines do not matter); warnings and errors are printed.
  const logger = createLogger(
    logLevel,
    pino.multistream([
      { level: "info", stream: pino.destination({ dest: "/dev/null", sync: false }) },
      { level: "warn", stream: process.stderr },
    ]),
  );
  const runtime = await openRuntime(config, logger).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  });
  const { services } = runtime;
  // The embedded server's data sit under <MF_DATA_DIR>/pg (src/platform/db/database.ts).
  if (runtime.database.embedded) watchPostgresCpu(path.join(dataDir, "pg"));
  const created = await createDistributor(services.prisma, { name: `Bench ${options.name}`, arn: `ARN-7${String(Date.now() % 1e5).padStart(5, "0")}` });
  const { access_token: token } = await services.auth.issueToken(created.client_id, created.client_secret);
  const inFlight = { count: 0 };
  return {
    runtime,
    inFlight,
    services,
    databaseUrl: runtime.database.url,
    app: createApp(services, { readiness: runtime.readiness }),
    uncachedApp: createApp(services, { readiness: runtime.readiness, staticResponses: false }),
    distributorId: created.distributor_id,
    clientId: created.client_id,
    token,
    close: async () => {
      for (const deadline = Date.now() + 30_000; inFlight.count > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
      await runtime.close().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Serves `fetch` the way src/main.ts does (its timeouts), on a free local port. The server's bindings
 * (the Node request and response) are passed on, as when main.ts serves `app.fetch`: the app reads the
 * client's address and the body of a POST from them.
 */
export async function listenApp(stack: Stack, fetch: (request: Request, env: unknown) => Response | Promise<Response>): Promise<{ port: number; server: ServerType }> {
  const server = await startHttpServer(fetch, httpServerOptions(stack.services.config, { port: 0, hostname: "127.0.0.1" }));
  // Requests are counted from the server's events, not by wrapping `fetch` (an async wrapper per request that
  // production does not have and the baselines do not pay): one in flight from its arrival until its
  // response is sent or its connection gone.
  const answered = () => {
    stack.inFlight.count--;
  };
  (server as Server).on("request", (_request: IncomingMessage, response: ServerResponse) => {
    stack.inFlight.count++;
    response.once("close", answered);
  });
  return { port: (server.address() as AddressInfo).port, server };
}
