import { environmentCredential } from "./catalog/bedrock-credential";
import { DEFAULT_CATALOG, providerVariables } from "./catalog/default-catalog";
import type { DefaultCatalogData } from "./catalog/default-catalog-data";
import { type Config, DEFAULT_RESPONSE_CACHE } from "./config";
import { vertexDefaultActive } from "./config-credentials";
import { AUDIT_RETENTION_DAYS } from "./config-identity";
import { AZURE_DEFAULT_API_VERSION, IO_LOGGING_RETENTION_DAYS, type ProviderConfig } from "./config-schema";

export function maskSecret(secret: string | undefined): string | undefined {
  if (!secret) return secret;
  return secret.length <= 8 ? "****" : `${secret.slice(0, 4)}…${secret.slice(-2)}`;
}

/** A URL with its password (or token) masked. */
export function maskUrlCredentials(url: string): string {
  return url.replace(/\/\/([^:@/]*):([^@/]*)@/, (_, user: string) => `//${user}:****@`).replace(/\/\/([^:@/]+)@/, "//****@");
}

/** A default-catalog provider that can serve with the gateway's own key, and where that key came from. */
export type ActiveDefaultProvider = { slug: string; enabled_by: string };

export function activeDefaultProviders(
  config: Pick<Config, "catalog" | "providers" | "env" | "aws">,
  data: DefaultCatalogData = DEFAULT_CATALOG,
): ActiveDefaultProvider[] {
  if (!config.catalog.default) return [];
  return data.providers.flatMap((p) => {
    const index = config.providers.findIndex((own) => own.slug === p.slug);
    if (index >= 0 && config.providers[index]!.api_key) return [{ slug: p.slug, enabled_by: `gateway.yaml providers[${index}].api_key` }];
    if (index >= 0 && config.providers[index]!.aws?.secret_access_key) return [{ slug: p.slug, enabled_by: `gateway.yaml providers[${index}].aws` }];
    // Bedrock reads several AWS_* variables: the ones that turned it on are named
    if (p.api === "bedrock") {
      const enabledBy = environmentCredential(config.aws)?.enabledBy;
      return enabledBy ? [{ slug: p.slug, enabled_by: enabledBy }] : [];
    }
    // Vertex AI needs its project and location besides the key file
    if (p.vertexEnv)
      return vertexDefaultActive(p, config.env) ? [{ slug: p.slug, enabled_by: [p.vertexEnv.project, p.vertexEnv.location, p.env].join(", ") }] : [];
    const variables = providerVariables(p);
    return variables.every((name) => config.env[name]) ? [{ slug: p.slug, enabled_by: variables.join(" and ") }] : [];
  });
}

/** A bedrock provider's aws block with its keys masked (the region is no secret). */
function maskedAws(aws: ProviderConfig["aws"]): Record<string, unknown> | undefined {
  if (!aws) return undefined;
  const { region, access_key_id, secret_access_key, session_token } = aws;
  return {
    region: region ?? null,
    access_key_id: maskSecret(access_key_id) ?? null,
    secret_access_key: maskSecret(secret_access_key) ?? null,
    session_token: maskSecret(session_token) ?? null,
  };
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Settings this file does not know yet still print, in the spelling of gateway.yaml. */
function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), snakeKeys(v)]));
}

/**
 * The effective config for `config check`, secrets masked, keys spelled as gateway.yaml and
 * the README spell them, so what it prints can be pasted back into the file.
 */
export function describeConfig(config: Config): Record<string, unknown> {
  // the key files' text is secret through and through: config check shows their paths (providers[].vertex) only
  const {
    env: _env,
    aws: _aws,
    credentialFiles: _credentialFiles,
    port,
    host,
    database,
    databasePath: _path,
    dataDir,
    redis,
    instanceId,
    reservationLeaseMs,
    maxUpstreamRequests,
    adminKey,
    secretKey,
    logLevel,
    configPath,
    server,
    routing,
    security,
    metrics,
    jobs,
    catalog,
    providers,
    models,
    videos,
    storage,
    ioLogging,
    imageModels,
    speechModels,
    transcriptionModels,
    rerankModels,
    responseCache,
    auth,
    audit,
    ...rest
  } = config;
  const media = { image_models: imageModels, speech_models: speechModels, transcription_models: transcriptionModels, rerank_models: rerankModels };
  return {
    config_file: configPath ?? null,
    port,
    host,
    database: database.dialect === "postgres" ? { dialect: "postgres", url: maskUrlCredentials(database.url), pool_size: database.poolSize } : database,
    data_dir: dataDir,
    redis: redis ? { url: maskUrlCredentials(redis.url), prefix: redis.prefix } : null,
    instance_id: instanceId,
    reservation_lease_ms: reservationLeaseMs,
    max_upstream_requests: maxUpstreamRequests,
    admin_key: maskSecret(adminKey) ?? null,
    secret_key: maskSecret(secretKey) ?? null,
    log_level: logLevel,
    server: { max_body_mb: server.maxBodyMb, cors_origins: server.cors.origins, public_url: server.publicUrl ?? null },
    routing: { first_byte_timeout_ms: routing.firstByteTimeoutMs, circuit_failures: routing.circuitFailures, circuit_cooldown_ms: routing.circuitCooldownMs },
    security: { allow_private_urls: security.allowPrivateUrls },
    metrics: { token: maskSecret(metrics.token) ?? null },
    // WORKERS is an environment variable; the rest as gateway.yaml's jobs section spells it
    jobs: {
      workers: jobs.workers,
      backoff_seconds: jobs.backoffMs.map((ms) => ms / 1000),
      lease_seconds: jobs.leaseMs / 1000,
      concurrency: jobs.concurrency,
      poll_seconds: jobs.pollMs / 1000,
    },
    videos: {
      poll_initial_ms: videos.pollInitialMs,
      poll_max_ms: videos.pollMaxMs,
      deadline_minutes: videos.deadlineMs / 60_000,
      retention_days: videos.retentionMs / 86_400_000,
    },
    storage: {
      s3: storage.s3
        ? {
            bucket: storage.s3.bucket,
            endpoint: storage.s3.endpoint ?? null,
            region: storage.s3.region ?? null,
            access_key_id: maskSecret(storage.s3.accessKeyId),
            secret_access_key: maskSecret(storage.s3.secretAccessKey),
            prefix: storage.s3.prefix,
          }
        : null,
    },
    catalog: { default: catalog.default, list_unavailable: catalog.listUnavailable ?? false, active_default_providers: activeDefaultProviders(config) },
    // shown when set otherwise than the default, so the output of configurations without it stays as it was
    ...(ioLogging.retentionMs === IO_LOGGING_RETENTION_DAYS * 86_400_000 ? {} : { io_logging: { retention_days: ioLogging.retentionMs / 86_400_000 } }),
    ...(JSON.stringify(responseCache) === JSON.stringify(DEFAULT_RESPONSE_CACHE)
      ? {}
      : {
          response_cache: {
            enabled: responseCache.enabled,
            ttl_seconds: responseCache.ttlMs / 1000,
            default: responseCache.defaultOn ? "on" : "off",
            max_entry_bytes: responseCache.maxEntryBytes,
          },
        }),
    ...describeIdentity(auth, audit),
    ...(snakeKeys(rest) as Record<string, unknown>),
    // the media lists shown when set, so the output of configurations without them stays as it was
    ...Object.fromEntries(Object.entries(media).filter(([, list]) => list.length > 0)),
    // fixed headers often carry credentials too
    providers: providers.map((p) => ({
      ...p,
      api_key: maskSecret(p.api_key),
      ...(p.aws && { aws: maskedAws(p.aws) }),
      ...(p.headers && { headers: Object.fromEntries(Object.entries(p.headers).map(([k, v]) => [k, maskSecret(v)])) }),
      ...providerBlocks(p),
    })),
    models,
  };
}

/** An API's own block as the provider runs with it, defaults filled in, so `config check` shows what is sent. */
function providerBlocks(p: ProviderConfig): Record<string, unknown> {
  return p.api === "azure-openai" ? { azure: { api_version: p.azure?.api_version ?? AZURE_DEFAULT_API_VERSION } } : {};
}

/** The auth and audit sections when set otherwise than the defaults (so other configurations print as they did), the client secret masked. */
function describeIdentity(auth: Config["auth"], audit: Config["audit"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (auth.oidc || !auth.password) {
    const oidc = auth.oidc;
    out.auth = {
      password: auth.password,
      oidc: oidc
        ? {
            issuer: oidc.issuer,
            client_id: oidc.clientId,
            client_secret: maskSecret(oidc.clientSecret) ?? null,
            scopes: oidc.scopes,
            allowed_email_domains: oidc.allowedEmailDomains,
            role_claim: oidc.roleClaim ?? null,
            role_mapping: Object.fromEntries(oidc.roleMapping),
            default_role: oidc.defaultRole,
            button_label: oidc.buttonLabel,
          }
        : null,
    };
  }
  if (audit.retentionMs !== AUDIT_RETENTION_DAYS * 86_400_000) out.audit = { retention_days: audit.retentionMs / 86_400_000 };
  return out;
}
