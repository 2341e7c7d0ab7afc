import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { resolve } from "node:path";
import type { AwsEnvironment } from "./catalog/bedrock-credential";
import { referenceIssues, schemaIssues } from "./config-checks";
import { readCredentialFiles } from "./config-credentials";
import { awsFromEnv, boolFromEnv, type Env, intFromEnv } from "./config-env";
import { ConfigError, configIssue } from "./config-error";
import { type AuthConfig, identityConfig } from "./config-identity";
import { mediaConfigIssues } from "./config-media-checks";
import type { MediaModelsConfig } from "./config-media-schema";
import { resolveProviders } from "./config-providers";
import { type GatewayFile, IO_LOGGING_RETENTION_DAYS, type ModelConfig, type ProviderConfig, type VideoModelConfig } from "./config-schema";
import {
  type JobsConfig,
  jobsConfig,
  type ResponseCacheConfig,
  responseCacheConfig,
  type StorageConfig,
  storageConfig,
  type VideosConfig,
  videosConfig,
} from "./config-sections";
import { parseYaml } from "./config-yaml";
import { dataDirOf } from "./data-dir";
import { BUN_DEFAULT_MAX_HTTP_REQUESTS, DEFAULT_MAX_UPSTREAM_REQUESTS } from "./process-limits/upstream-requests";

export { ConfigError } from "./config-error";
export { DEFAULT_RESPONSE_CACHE, type ResponseCacheConfig, type S3StorageConfig } from "./config-sections";

/** Where the configuration is assembled from process.env (read through config-env.ts) and gateway.yaml (checked by config-checks.ts, its sections read by config-sections.ts); nothing else reads either. */

export type LogLevel = "debug" | "info" | "warn" | "error";

/** SQLite (the embedded default) or PostgreSQL, from DATABASE_URL. */
export type DatabaseConfig = { dialect: "sqlite"; path: string } | { dialect: "postgres"; url: string; poolSize: number };

export type Config = MediaModelsConfig & {
  port: number;
  /** listening address */
  host: string;
  database: DatabaseConfig;
  /** filesystem path of the SQLite file, or ":memory:"; with PostgreSQL, where local files (the data directory) would go */
  databasePath: string;
  /** absolute directory of local files (the SQLite file, master.key), resolved once when the config is loaded */
  dataDir: string;
  /** shared state of several instances (circuits, live stats, affinity, cache invalidation); absent: in memory */
  redis?: { url: string; prefix: string };
  /** names this process in reservations and shared-state messages */
  instanceId: string;
  /** a reservation not renewed for this long belongs to an instance that died and is released */
  reservationLeaseMs: number;
  /** upstream requests Bun's fetch sends at once in this process (BUN_CONFIG_MAX_HTTP_REQUESTS; src/process-limits/upstream-requests.ts) */
  maxUpstreamRequests: number;
  /** SIGTERM: the longest the drain lasts, from the signal until the answers still in flight are cut (src/drain.ts) */
  shutdownGraceSeconds: number;
  adminKey?: string;
  secretKey?: string;
  logLevel: LogLevel;
  configPath?: string;
  /** publicUrl: the origin people reach the gateway at (invite links; https makes session cookies Secure) */
  server: { maxBodyMb: number; cors: { origins: string[] }; publicUrl?: string };
  /** browser sessions of people signed in: they end after idleMinutes without a request, and maxHours after sign-in */
  sessions: { idleMinutes: number; maxHours: number };
  routing: { firstByteTimeoutMs: number; circuitFailures: number; circuitCooldownMs: number };
  security: { allowPrivateUrls: boolean };
  /** token: the bearer token that opens /metrics to clients other than loopback ones */
  metrics: { token?: string };
  /** how long Responses output items stay referable (item_reference, previous_response_id); 0: not kept */
  responses: { itemRetentionMinutes: number };
  jobs: JobsConfig;
  /** listUnavailable: list models none of whose endpoints can serve (no provider key, no BYOK credential) */
  catalog: { default: boolean; listUnavailable?: boolean };
  providers: ProviderConfig[];
  models: ModelConfig[];
  /** models served through a video API provider: never routed for chat, listed at /api/v1/videos/models */
  videoModels: VideoModelConfig[];
  videos: VideosConfig;
  /**
   * The exact-match response cache (response_cache): off unless `enabled`; entries live `ttlMs`;
   * `defaultOn`: requests without X-Gateway-Cache use it; answers larger than `maxEntryBytes` are not kept
   */
  responseCache: ResponseCacheConfig;
  /** how long I/O logging keeps a generation's prompt and completion (io_logging.retention_days, default 30) */
  ioLogging: { retentionMs: number };
  storage: StorageConfig;
  /** provider API keys found in the environment, by variable name (for the default catalog) */
  env: Record<string, string | undefined>;
  /** the AWS_* variables: Bedrock providers' credentials and region when they name none */
  aws: AwsEnvironment;
  /** the service-account key files the configuration names, read when it loaded: JSON text by path (config-credentials.ts) */
  credentialFiles: Readonly<Record<string, string>>;
  /** how people sign in: password (unless auth.password is false) and single sign-on (auth.oidc) */
  auth: AuthConfig;
  /** how long the audit log keeps events (audit.retention_days, default 365) */
  audit: { retentionMs: number };
};

/** A gateway.yaml once read: providers with their defaults filled in (config-providers.ts). */
export type LoadedGatewayFile = Omit<GatewayFile, "providers"> & { providers?: ProviderConfig[] };

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/** A URL that failed validation, as an error message may show it: whatever precedes `@` hidden. */
const hideUserinfo = (url: string) => url.replace(/\/\/[^@]*@/, "//***@");

function databaseFromEnv(env: Env, secretKey: string | undefined): { database: DatabaseConfig; databasePath: string } {
  const url = env.DATABASE_URL || "file:./data/gateway.db";
  if (!isPostgresUrl(url)) {
    const path = databasePathFromUrl(url);
    return { database: { dialect: "sqlite", path }, databasePath: path };
  }
  try {
    new URL(url);
  } catch {
    throw new ConfigError("DATABASE_URL", "a URL such as postgres://user:pass@host:5432/db", hideUserinfo(url));
  }
  // every instance must open BYOK secrets sealed by any other: a per-machine key file cannot do that
  if (!secretKey)
    throw new ConfigError("GATEWAY_SECRET_KEY", "to be set with a PostgreSQL DATABASE_URL (every instance must share one master key for BYOK secrets)");
  return { database: { dialect: "postgres", url, poolSize: intFromEnv(env, "DATABASE_POOL_SIZE", 10, 1, 1000) }, databasePath: resolve("data/gateway.db") };
}

function redisFromEnv(env: Env): Config["redis"] {
  const url = env.REDIS_URL;
  if (!url) return undefined;
  if (!/^rediss?:\/\//i.test(url)) throw new ConfigError("REDIS_URL", "a URL such as redis://host:6379", hideUserinfo(url));
  const prefix = env.REDIS_PREFIX ?? "gateway:";
  return { url, prefix };
}

export function databasePathFromUrl(url: string): string {
  if (url === ":memory:" || url === "file::memory:") return ":memory:";
  const path = url.startsWith("file:") ? url.slice("file:".length) : url;
  if (path === "") throw new ConfigError("DATABASE_URL", "file:<path> or :memory:", url);
  if (/^[a-z]+:\/\//i.test(path)) throw new ConfigError("DATABASE_URL", "a SQLite file URL such as file:./data/gateway.db", url);
  return resolve(path);
}

/** Replaces ${NAME} with the environment value; every missing variable is a config error naming it. */
export function interpolateEnv(text: string, env: Env): string {
  const missing = new Set<string>();
  const out = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const value = env[name];
    if (value === undefined) missing.add(name);
    return value ?? whole;
  });
  if (missing.size > 0)
    throw new ConfigError([...missing].map((name) => configIssue(`\${${name}}`, "the environment variable to be set (referenced in GATEWAY_CONFIG)")));
  return out;
}

export function parseGatewayFile(text: string, env: Env, source = "GATEWAY_CONFIG"): LoadedGatewayFile {
  const parsed = parseYaml(interpolateEnv(text, env), source) ?? {};
  const issues = schemaIssues(parsed);
  if (issues.length > 0) throw new ConfigError(issues);
  const file = parsed as GatewayFile;
  const resolved = resolveProviders(file.providers ?? [], awsFromEnv(env));
  const references = [
    ...resolved.issues,
    ...referenceIssues(file, boolFromEnv(env, "GATEWAY_DEFAULT_CATALOG") ?? file.catalog?.default ?? true),
    ...mediaConfigIssues(file),
  ];
  if (references.length > 0) throw new ConfigError(references);
  return file.providers === undefined ? (file as LoadedGatewayFile) : { ...file, providers: resolved.providers };
}

export function loadConfig(env: Env = process.env): Config {
  const configPath = env.GATEWAY_CONFIG ? resolve(env.GATEWAY_CONFIG) : undefined;
  let file: LoadedGatewayFile = {};
  if (configPath) {
    let text: string;
    try {
      text = readFileSync(configPath, "utf8");
    } catch {
      throw new ConfigError("GATEWAY_CONFIG", "a readable gateway.yaml file", env.GATEWAY_CONFIG);
    }
    file = parseGatewayFile(text, env);
  }
  const logLevel = (env.LOG_LEVEL ?? "info").toLowerCase();
  if (!["debug", "info", "warn", "error"].includes(logLevel)) throw new ConfigError("LOG_LEVEL", "one of debug, info, warn, error", env.LOG_LEVEL);
  const adminKey = env.GATEWAY_ADMIN_KEY || undefined;
  if (adminKey !== undefined && adminKey.length < 32) throw new ConfigError("GATEWAY_ADMIN_KEY", "at least 32 characters");
  const secretKey = env.GATEWAY_SECRET_KEY || undefined;
  if (secretKey !== undefined && !/^[0-9a-fA-F]{64}$/.test(secretKey) && Buffer.from(secretKey, "base64").length !== 32)
    throw new ConfigError("GATEWAY_SECRET_KEY", "32 bytes as 64 hex characters or base64");
  const maxBodyRaw = env.GATEWAY_MAX_BODY_MB;
  const maxBodyMb = maxBodyRaw ? Number(maxBodyRaw) : (file.server?.max_body_mb ?? 32);
  if (!(maxBodyMb > 0) || !Number.isFinite(maxBodyMb)) throw new ConfigError("GATEWAY_MAX_BODY_MB", "a positive number of megabytes", maxBodyRaw);
  const database = databaseFromEnv(env, secretKey);
  const defaultCatalog = boolFromEnv(env, "GATEWAY_DEFAULT_CATALOG") ?? file.catalog?.default ?? true;
  return {
    ...listenAddress(env),
    ...database,
    dataDir: dataDirOf(database.databasePath),
    redis: redisFromEnv(env),
    instanceId: env.GATEWAY_INSTANCE_ID || `${hostname()}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
    reservationLeaseMs: intFromEnv(env, "GATEWAY_RESERVATION_LEASE_MS", 120_000, 1_000, 86_400_000),
    maxUpstreamRequests: intFromEnv(env, "BUN_CONFIG_MAX_HTTP_REQUESTS", BUN_DEFAULT_MAX_HTTP_REQUESTS, 1, DEFAULT_MAX_UPSTREAM_REQUESTS),
    shutdownGraceSeconds: intFromEnv(env, "GATEWAY_SHUTDOWN_GRACE_SECONDS", 30, 0, 3600),
    adminKey,
    secretKey,
    logLevel: logLevel as LogLevel,
    configPath,
    server: { maxBodyMb, cors: { origins: file.server?.cors_origins ?? ["*"] }, publicUrl: publicUrlOf(env, file) },
    sessions: { idleMinutes: file.sessions?.idle_minutes ?? 720, maxHours: file.sessions?.max_hours ?? 168 },
    routing: {
      firstByteTimeoutMs: intFromEnv(env, "GATEWAY_FIRST_BYTE_TIMEOUT_MS", file.routing?.first_byte_timeout_ms ?? 60_000, 1, 3_600_000),
      circuitFailures: intFromEnv(env, "GATEWAY_CIRCUIT_FAILURES", file.routing?.circuit_failures ?? 5, 1, 1000),
      circuitCooldownMs: intFromEnv(env, "GATEWAY_CIRCUIT_COOLDOWN_MS", file.routing?.circuit_cooldown_ms ?? 30_000, 0, 86_400_000),
    },
    security: { allowPrivateUrls: boolFromEnv(env, "GATEWAY_ALLOW_PRIVATE_URLS") ?? file.security?.allow_private_urls ?? false },
    metrics: { token: env.GATEWAY_METRICS_TOKEN || file.metrics?.token || undefined },
    responses: { itemRetentionMinutes: intFromEnv(env, "GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES", file.responses?.item_retention_minutes ?? 60, 0, 525_600) },
    jobs: jobsConfig(env, file),
    catalog: { default: defaultCatalog, listUnavailable: file.catalog?.list_unavailable ?? false },
    providers: file.providers ?? [],
    models: file.models ?? [],
    videoModels: file.video_models ?? [],
    imageModels: file.image_models ?? [],
    speechModels: file.speech_models ?? [],
    transcriptionModels: file.transcription_models ?? [],
    rerankModels: file.rerank_models ?? [],
    videos: videosConfig(file),
    responseCache: responseCacheConfig(file),
    ioLogging: { retentionMs: Math.round((file.io_logging?.retention_days ?? IO_LOGGING_RETENTION_DAYS) * 86_400_000) },
    storage: storageConfig(file),
    env: { ...env },
    aws: awsFromEnv(env),
    credentialFiles: readCredentialFiles(file, env, defaultCatalog),
    ...identityConfig(env, file),
  };
}

/**
 * Where `gateway healthcheck` finds the server: HOST and PORT as `serve` reads them, without the
 * rest of the configuration (a container's health must not depend on gateway.yaml parsing).
 */
export function listenAddress(env: Env = process.env): { host: string; port: number } {
  return { host: env.HOST || "0.0.0.0", port: intFromEnv(env, "PORT", 8080, 0, 65535) };
}

/** GATEWAY_PUBLIC_URL or server.public_url, as an origin (scheme, host, port) without a trailing slash */
function publicUrlOf(env: Env, file: GatewayFile): string | undefined {
  const raw = env.GATEWAY_PUBLIC_URL || file.server?.public_url;
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.search || url.hash)
    throw new ConfigError(env.GATEWAY_PUBLIC_URL ? "GATEWAY_PUBLIC_URL" : "server.public_url", "an http(s) URL such as https://gateway.example.com", raw);
  return url.href.replace(/\/+$/, "");
}

/** What a running deployment should know about its configuration (printed by `config check` and at start). */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.database.dialect === "postgres" && !config.redis)
    warnings.push(
      "PostgreSQL without REDIS_URL: run a single instance. Several instances need Redis to share circuits, live stats and session affinity, and to drop each other's cached keys, workspaces and BYOK credentials at once (without it a change can take up to 1 s to reach another instance).",
    );
  return warnings;
}
