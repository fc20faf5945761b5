import type { ServerType } from "@hono/node-server";
import { createApp } from "./app.js";
import { EmbeddedPostgresError } from "./platform/db/embedded-errors.js";
import { BseExchange } from "./integrations/exchange/bse/bse-exchange.js";
import { ConfigError, loadConfig, type Config } from "./env.js";
import { httpServerOptions, startHttpServer } from "./platform/http/server.js";
import { createLogger } from "./platform/lib/logger.js";
import { openRuntime } from "./runtime.js";
import { DEMO_INVESTORS } from "./seed/demo-investors.js";
import { seedSandbox, type SandboxCredentials } from "./seed/sandbox.js";
import { stopService } from "./shutdown.js";
import { startTracing } from "./platform/tracing/setup.js";
import { startMetricsServer } from "./platform/metrics/metrics-server.js";
import { startWorker, type WorkerHandle } from "./worker.js";

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const tracing = await startTracing({ ...config.tracing, role: config.role, onExportFailure: (message) => logger.warn({ component: "tracing" }, message) });
  const runtime = await openRuntime(config, logger);
  const { services } = runtime;
  // Logs in once and reports how it went; a failed login does not stop the service (jobs retry).
  if (services.exchange instanceof BseExchange) await services.exchange.selfCheck(logger.child({ component: "exchange" }));

  const credentials = config.env === "sandbox" && config.role !== "worker" ? await seedSandbox(services) : null;

  let server: ServerType | undefined;
  let worker: WorkerHandle | undefined;
  if (config.role !== "worker") {
    const app = createApp(services, { readiness: runtime.readiness });
    server = await startHttpServer(app.fetch, httpServerOptions(config));
  }
  if (config.role !== "api") worker = await startWorker(services, runtime.database.url);
  const metricsServer = config.metrics.port === undefined ? undefined : await startMetricsServer({ port: config.metrics.port, host: config.metrics.host });
  printBanner(config, credentials, runtime.database.embedded);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await metricsServer?.close();
    process.exit(await stopService({ server, worker, runtime, logger, tracing }, signal));
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

function printBanner(config: Config, credentials: SandboxCredentials | null, embedded: boolean): void {
  const base = config.publicBaseUrl ?? `http://localhost:${config.port}`;
  const lines = [
    "",
    `Mutual fund distribution service (${config.env}, role ${config.role}${embedded ? ", embedded PostgreSQL" : ""})`,
  ];
  if (config.role !== "worker") {
    lines.push(`  Base URL      ${base}`, `  API reference ${base}/docs`, `  OpenAPI       ${base}/openapi.json`);
  }
  if (config.metrics.port !== undefined) lines.push(`  Metrics       http://${config.metrics.host.includes(":") ? `[${config.metrics.host}]` : config.metrics.host}:${config.metrics.port}/metrics`);
  if (credentials) {
    lines.push(
      `  Sandbox client_id     ${credentials.client_id}`,
      `  Sandbox client_secret ${credentials.client_secret}`,
      `  Get a token: curl -s ${base}/api/auth/v1/token -H 'Content-Type: application/json' \\`,
      `    -d '{"grant_type":"client_credentials","client_id":"${credentials.client_id}","client_secret":"${credentials.client_secret}"}'`,
      // Fictitious people of the sandbox distributor, with folios in the sandbox registrar's feeds.
      `  Demo PANs     ${DEMO_INVESTORS.map((d) => `${d.pan} (${d.name}, ${d.registered ? "REGISTERED, with a mandate" : "PENDING"})`).join(", ")}`,
      `  Their holdings: curl -s ${base}/api/holdings/v1/lookup -H "Authorization: Bearer <token>" -H 'Content-Type: application/json' -d '{"pan":"${DEMO_INVESTORS[0]!.pan}"}'`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedPostgresError) {
    process.stderr.write(`${error instanceof EmbeddedPostgresError ? error.forTerminal() : error.message}\n`);
  } else {
    process.stderr.write(`Start-up failed: ${(error as Error | undefined)?.stack ?? String(error)}\n`);
  }
  process.exit(1);
});
