import { z } from "zod";
import type { BseConfig } from "./integrations/exchange/bse/bse-config.js";
import { memberIdProblem } from "./integrations/exchange/bse/trans-no-layout.js";
import { indiaCronMatcher } from "./platform/lib/india-cron.js";

const flag = z.enum(["0", "1", "true", "false"]).optional().transform((v) => v === "1" || v === "true");

const DURATION = /^(\d+)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** Parses a comma list such as `1m,5m,25m,2h,12h` into milliseconds. */
export function parseDurations(list: string): number[] {
  return list.split(",").map(parseDuration);
}

/** Parses one duration such as `500ms`, `30s`, `5m` or `2h` into milliseconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration such as 30s, 5m or 2h`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** OpenTelemetry's convention: a variable set to the empty string counts as unset. */
const unsetWhenEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === "" ? undefined : value), schema);

const EnvSchema = z.object({
  MF_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
  MF_ROLE: z.enum(["api", "worker", "all"]).default("all"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  MF_PUBLIC_BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  MF_DATA_DIR: z.string().default(".data"),
  MF_EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  MF_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  MF_DATA_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)").optional(),
  MF_SANDBOX_CLIENT_ID: z.string().regex(/^[A-Za-z0-9_.-]{8,64}$/, "8-64 letters, digits, '.', '_' or '-'").optional(),
  MF_SANDBOX_CLIENT_SECRET: z.string().min(16, "at least 16 characters").max(256).optional(),
  MF_SANDBOX_AUTO_REGISTER: flag,
  MF_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(20),
  HOLDINGS_FEED_DIR: z.string().optional(),
  HOLDINGS_REFRESH_CRON: z.string().default("0 6 * * *"),
  EXCHANGE_MASTERS_DIR: z.string().optional(),
  EXCHANGE_MASTERS_CRON: z.string().default("30 7 * * *"),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  WEBHOOK_RETRY_DELAYS: z.string().optional(),
  WEBHOOK_MAX_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(1000).default(20),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  MF_RATE_LIMIT_RPS: z.coerce.number().positive().max(1_000_000).default(100),
  MF_RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(1_000_000).default(200),
  MF_TOKEN_FAILURE_LIMIT: z.coerce.number().int().min(1).max(1000).default(10),
  MF_TOKEN_FAILURE_WINDOW: z.string().default("5m"),
  MF_TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  MF_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  MF_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  MF_EXCHANGE: z.enum(["sandbox", "bse"]).default("sandbox"),
  BSE_BASE_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://bsestarmfdemo.bseindia.com" }).optional(),
  BSE_USER_ID: z.string().regex(/^\d{1,10}$/, "must be the exchange's numeric user id").optional(),
  BSE_MEMBER_ID: z.string().regex(/^[A-Za-z0-9]{1,20}$/, "must be the exchange's member code (letters and digits)").optional(),
  BSE_PASSWORD: z.string().min(1).max(20, "at most 20 characters (order entry's getPassword takes no more)").optional(),
  BSE_PASSKEY: z.string().regex(/^[A-Za-z0-9]{1,10}$/, "1-10 letters and digits (no special characters)").optional(),
  BSE_API_KEY: z.string().min(1).optional(),
  BSE_EUIN: z.string().regex(/^E\d{6}$/, "must be E followed by 6 digits").optional(),
  /** OpenTelemetry's own variables (https://opentelemetry.io/docs/specs/otel/protocol/exporter/): traces are on when one is set. */
  OTEL_EXPORTER_OTLP_ENDPOINT: unsetWhenEmpty(z.url({ protocol: /^https?$/, error: "must be the collector's http(s) base URL, e.g. http://localhost:4318" }).optional()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: unsetWhenEmpty(z.url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. http://localhost:4318/v1/traces" }).optional()),
  OTEL_SERVICE_NAME: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, "1-100 letters, digits, '.', '_' or '-'").default("mf-distribution-service"),
  BSE_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  MF_METRICS_TOKEN: z.string().regex(/^[\x21-\x7e]{16,256}$/, "16-256 printable characters without spaces").optional(),
  MF_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  MF_METRICS_HOST: z.string().min(1).default("127.0.0.1"),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: "sandbox" | "production";
  role: "api" | "worker" | "all";
  /** The port number the HTTP server listens on (PORT). */
  port: number;
  host: string;
  publicBaseUrl: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
  /** The port number of the embedded PostgreSQL (MF_EMBEDDED_PG_PORT). */
  embeddedPgPort: number;
  dbPoolSize: number;
  dataKeyHex: string | undefined;
  sandbox: { clientId: string | undefined; clientSecret: string | undefined; autoRegister: boolean };
  workerConcurrency: number;
  holdings: { feedDir: string | undefined; refreshCron: string };
  /** Where the exchange's scheme and SIP masters are dropped, and when they are imported (Asia/Kolkata). */
  exchangeMasters: { dir: string | undefined; cron: string };
  /**
   * `maxSubscriptions`: ACTIVE and DISABLED subscriptions a distributor may hold; `attemptTimeoutMs`: one
   * attempt's whole exchange (connect, TLS, answer), from which the delivery lease is computed (attempts.ts);
   * `retentionDays`: how long a DELIVERED delivery and its attempts are kept (jobs/purge-old-deliveries.ts).
   */
  webhooks: { allowPrivateTargets: boolean; retryDelaysMs: number[]; maxSubscriptions: number; attemptTimeoutMs: number; retentionDays: number };
  logLevel: Env["LOG_LEVEL"];
  /** Per API client, per process: a token bucket refilled at `rps`, holding at most `burst`. */
  rateLimit: { rps: number; burst: number };
  /** Failed token requests allowed per client id and per client address within the window. */
  tokenFailures: { limit: number; windowMs: number };
  /** How many proxies in front of the service append to X-Forwarded-For (0: use the socket address). */
  trustProxyHops: number;
  http: { headersTimeoutMs: number; bodyTimeoutMs: number };
  /** Which exchange the port speaks to: the simulated one, or BSE StAR MF (then `bse` is set). */
  exchange: "sandbox" | "bse";
  bse: BseConfig | undefined;
  /** OpenTelemetry traces: off when `tracesUrl` is undefined (no OTEL_EXPORTER_OTLP_ENDPOINT). */
  tracing: { tracesUrl: string | undefined; serviceName: string };
  /** GET /metrics: on the API port behind `token`, or (`port` set) on a port of its own at `host`, without a token. */
  metrics: { token: string | undefined; port: number | undefined; host: string };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join("\n- ")}`);
    this.name = "ConfigError";
  }
}

const DEFAULT_RETRY_DELAYS = "1m,5m,25m,2h,12h";

/** Reads and checks the environment; production refuses the development switches. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  let retryDelaysMs: number[] = [];
  try {
    retryDelaysMs = parseDurations(env.WEBHOOK_RETRY_DELAYS ?? DEFAULT_RETRY_DELAYS);
  } catch (error) {
    problems.push(`WEBHOOK_RETRY_DELAYS: ${(error as Error).message}`);
  }
  try {
    indiaCronMatcher(env.HOLDINGS_REFRESH_CRON);
  } catch (error) {
    problems.push(`HOLDINGS_REFRESH_CRON: ${(error as Error).message} (a 5-field cron expression in Asia/Kolkata time)`);
  }
  try {
    indiaCronMatcher(env.EXCHANGE_MASTERS_CRON);
  } catch (error) {
    problems.push(`EXCHANGE_MASTERS_CRON: ${(error as Error).message} (a 5-field cron expression in Asia/Kolkata time)`);
  }
  let tokenFailureWindowMs = 0;
  try {
    tokenFailureWindowMs = parseDuration(env.MF_TOKEN_FAILURE_WINDOW);
    if (tokenFailureWindowMs < 1000 || tokenFailureWindowMs > 86_400_000) throw new Error("must be between 1s and 24h");
  } catch (error) {
    problems.push(`MF_TOKEN_FAILURE_WINDOW: ${(error as Error).message}`);
  }
  if (env.MF_HEADERS_TIMEOUT_MS > env.MF_BODY_TIMEOUT_MS) {
    problems.push("MF_HEADERS_TIMEOUT_MS: must not be longer than MF_BODY_TIMEOUT_MS (which covers the whole request)");
  }
  problems.push(...metricsProblems(env));
  if (env.MF_ENV === "production") problems.push(...productionRefusals(env));
  if (env.MF_EXCHANGE === "bse") problems.push(...bseProblems(env));
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: env.MF_ENV,
    role: env.MF_ROLE,
    port: env.PORT,
    host: env.HOST,
    publicBaseUrl: env.MF_PUBLIC_BASE_URL?.replace(/\/$/, ""),
    databaseUrl: env.DATABASE_URL,
    dataDir: env.MF_DATA_DIR,
    embeddedPgPort: env.MF_EMBEDDED_PG_PORT,
    dbPoolSize: env.MF_DB_POOL_SIZE,
    dataKeyHex: env.MF_DATA_KEY,
    sandbox: {
      clientId: env.MF_SANDBOX_CLIENT_ID,
      clientSecret: env.MF_SANDBOX_CLIENT_SECRET,
      autoRegister: env.MF_SANDBOX_AUTO_REGISTER,
    },
    workerConcurrency: env.MF_WORKER_CONCURRENCY,
    holdings: { feedDir: env.HOLDINGS_FEED_DIR, refreshCron: env.HOLDINGS_REFRESH_CRON },
    exchangeMasters: { dir: env.EXCHANGE_MASTERS_DIR, cron: env.EXCHANGE_MASTERS_CRON },
    webhooks: {
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retryDelaysMs,
      maxSubscriptions: env.WEBHOOK_MAX_SUBSCRIPTIONS,
      attemptTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
      retentionDays: env.WEBHOOK_RETENTION_DAYS,
    },
    logLevel: env.LOG_LEVEL,
    rateLimit: { rps: env.MF_RATE_LIMIT_RPS, burst: env.MF_RATE_LIMIT_BURST },
    tokenFailures: { limit: env.MF_TOKEN_FAILURE_LIMIT, windowMs: tokenFailureWindowMs },
    trustProxyHops: env.MF_TRUST_PROXY,
    http: { headersTimeoutMs: env.MF_HEADERS_TIMEOUT_MS, bodyTimeoutMs: env.MF_BODY_TIMEOUT_MS },
    tracing: { tracesUrl: tracesUrl(env), serviceName: env.OTEL_SERVICE_NAME },
    exchange: env.MF_EXCHANGE,
    bse:
      env.MF_EXCHANGE === "bse"
        ? {
            baseUrl: env.BSE_BASE_URL!.replace(/\/+$/, ""),
            userId: env.BSE_USER_ID!,
            memberId: env.BSE_MEMBER_ID!,
            password: env.BSE_PASSWORD!,
            passKey: env.BSE_PASSKEY,
            apiKey: env.BSE_API_KEY!,
            euin: env.BSE_EUIN,
            timeoutMs: env.BSE_TIMEOUT_MS,
          }
        : undefined,
    metrics: { token: env.MF_METRICS_TOKEN, port: env.MF_METRICS_PORT, host: env.MF_METRICS_HOST },
  };
}

/** The metrics are served in one place: on the API port with a token, or on their own port without one. */
function metricsProblems(env: Env): string[] {
  const problems: string[] = [];
  if (env.MF_METRICS_PORT !== undefined && env.MF_METRICS_TOKEN !== undefined) {
    problems.push("MF_METRICS_TOKEN and MF_METRICS_PORT: set one (the metrics port serves /metrics without a token, and the API port then does not serve it)");
  }
  if (env.MF_METRICS_PORT !== undefined && env.MF_METRICS_PORT === env.PORT && env.MF_ROLE !== "worker") {
    problems.push("MF_METRICS_PORT: must differ from PORT (the API's port)");
  }
  return problems;
}

const BSE_REQUIRED = ["BSE_BASE_URL", "BSE_USER_ID", "BSE_MEMBER_ID", "BSE_PASSWORD", "BSE_API_KEY"] as const;

/** MF_EXCHANGE=bse needs the exchange's address and credentials, and a member id that fits TransNo. */
/** The signal-specific endpoint is used as it is; the base endpoint gets `v1/traces` appended, as the specification says. */
function tracesUrl(env: Env): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
}

function bseProblems(env: Env): string[] {
  const problems = BSE_REQUIRED.filter((name) => !env[name]).map((name) => `${name} is required with MF_EXCHANGE=bse`);
  const memberProblem = env.BSE_MEMBER_ID ? memberIdProblem(env.BSE_MEMBER_ID) : null;
  if (memberProblem) problems.push(memberProblem);
  if (env.MF_ENV === "production" && env.BSE_BASE_URL && !env.BSE_BASE_URL.startsWith("https://")) {
    problems.push("BSE_BASE_URL must be https:// in production");
  }
  return problems;
}

function productionRefusals(env: Env): string[] {
  const refusals: Array<[boolean, string]> = [
    [!env.DATABASE_URL, "DATABASE_URL is required in production (no embedded database)"],
    [!env.MF_DATA_KEY, "MF_DATA_KEY is required in production (no generated key)"],
    [env.WEBHOOK_ALLOW_PRIVATE_TARGETS, "WEBHOOK_ALLOW_PRIVATE_TARGETS is a development switch, refused in production"],
    [env.WEBHOOK_RETRY_DELAYS !== undefined, "WEBHOOK_RETRY_DELAYS is a test override, refused in production"],
    [env.MF_SANDBOX_AUTO_REGISTER, "MF_SANDBOX_AUTO_REGISTER is a sandbox switch, refused in production"],
    [env.MF_EXCHANGE !== "bse", "MF_EXCHANGE=sandbox is refused in production: set MF_EXCHANGE=bse and the BSE_* variables"],
    [env.MF_SANDBOX_CLIENT_ID !== undefined || env.MF_SANDBOX_CLIENT_SECRET !== undefined,
      "MF_SANDBOX_CLIENT_ID/MF_SANDBOX_CLIENT_SECRET are sandbox settings, refused in production"],
  ];
  return refusals.filter(([refused]) => refused).map(([, reason]) => reason);
}
