export const USAGE = `gateway — a self-hosted, OpenRouter-compatible model gateway

Usage: gateway [command] [options]

Commands:
  serve                      start the HTTP server and WORKERS background job workers (default)
  worker                     run only the background job workers (WORKERS of them, at least 1), no HTTP
  migrate                    apply database migrations and exit
  healthcheck                exit 0 when GET /health on HOST and PORT answers 200 within 2 s, else 1
                             (the container image's health check)
  keys create [--management] [--name N] [--workspace W] [--limit USD]
                             create an API key (inference, or management) and print the raw key once
  users add --id ID [--email E] [--name N] [--role admin|member] [--password-stdin]
                             add an organization user (with the password read from standard input)
  users passwd ID [--email E]
                             set a user's password, read from standard input (--email: give the user
                             the email they sign in with, e.g. the owner); their sessions end
  users invite ID            print a one-time link, valid 24 hours, where a user without a password
                             chooses one (uses GATEWAY_PUBLIC_URL)
  users remove ID            remove a user: their keys stop working at once, their sessions end
  jobs list [--dead | --state S] [--kind K] [--limit N] [--offset N]
                             list background jobs, newest first, one JSON object per line
  jobs retry ID              run a dead job again now
  scim token create --name N print a new SCIM token once (what an identity provider provisions with)
  audit verify               check the audit log's hash chain: print OK and exit 0, or name the first
                             edited or removed event and exit 1
  audit list [--action A] [--actor ID] [--target ID] [--since T] [--until T] [--limit N] [--cursor C]
                             list audit events, newest first, one JSON object per line
  config check               validate the configuration, print it (secrets masked) with the
                             default-catalog providers it enables, and warn about risky settings
  backup PATH                write a consistent copy of the SQLite database to PATH (safe while the
                             server runs) and the master key to PATH.master.key; PostgreSQL: use pg_dump
  version, --version         print the version
  help, --help, -h           show this help

Every command reads the same environment; the commands work against a database a running server uses.

Configuration is read from environment variables and a YAML file: the one --config PATH names, else
GATEWAY_CONFIG, else ./gateway.yaml when it exists (providers, models, catalog, routing, server,
security, metrics, responses, jobs, auth, audit; \${NAME} is replaced by the variable NAME). Environment variables win
over the file.

Options:
  --config PATH                  read gateway.yaml from PATH (any command)

Environment:
  PORT                           listening port (default 8080; 0 = any free port)
  HOST                           listening address (default 0.0.0.0)
  DATABASE_URL                   file:PATH for SQLite (default file:./data/gateway.db; its directory is
                                 the data directory, created at start), :memory:, or
                                 postgres://user:pass@host:5432/db
  DATABASE_POOL_SIZE             PostgreSQL connections per instance (default 10)
  REDIS_URL                      redis://host:6379: state several instances share (default: in memory)
  REDIS_PREFIX                   prefix of every Redis key and channel (default gateway:)
  GATEWAY_INSTANCE_ID            names this instance in reservations and Redis messages (default host-pid-random)
  GATEWAY_RESERVATION_LEASE_MS   a reservation not renewed for this long is released (default 120000)
  BUN_CONFIG_MAX_HTTP_REQUESTS   upstream requests sent at once, 1 to 65535 (default 65535: unset, serve
                                 starts itself again in place with it set, since Bun reads it only at start)
  GATEWAY_CONFIG                 path of gateway.yaml (default: ./gateway.yaml when it exists)
  GATEWAY_ADMIN_KEY              a management key with exactly this secret (at least 32 characters) exists after start
  GATEWAY_SECRET_KEY             master key sealing BYOK secrets, 64 hex characters or base64 of 32 bytes
                                 (required with PostgreSQL; default: DATA_DIR/master.key, generated, mode 0600)
  LOG_LEVEL                      debug, info, warn or error (default info); logs are JSON lines on stderr
  GATEWAY_MAX_BODY_MB            largest request body in MB (default 32; server.max_body_mb)
  GATEWAY_FIRST_BYTE_TIMEOUT_MS  wait for an upstream's first byte before falling over (default 60000;
                                 routing.first_byte_timeout_ms)
  GATEWAY_CIRCUIT_FAILURES       consecutive failures that open an endpoint's circuit (default 5;
                                 routing.circuit_failures)
  GATEWAY_CIRCUIT_COOLDOWN_MS    how long an open circuit waits before one probe (default 30000;
                                 routing.circuit_cooldown_ms)
  GATEWAY_ALLOW_PRIVATE_URLS     allow private addresses in URLs API callers supply (default false;
                                 security.allow_private_urls)
  GATEWAY_DEFAULT_CATALOG        merge the embedded default catalog (default true; catalog.default)
  GATEWAY_PUBLIC_URL             the origin people reach the gateway at, e.g. https://gateway.example.com
                                 (invite links; https makes session cookies Secure; server.public_url)
  GATEWAY_OIDC_CLIENT_SECRET     the client secret of single sign-on (auth.oidc.client_secret)
  GATEWAY_METRICS_TOKEN          bearer token that opens /metrics to non-loopback clients (metrics.token)
  GATEWAY_RESPONSES_ITEM_RETENTION_MINUTES  how long Responses output items stay referable by
                                 item_reference and previous_response_id (default 60; 0 keeps none;
                                 responses.item_retention_minutes)
  GATEWAY_SHUTDOWN_GRACE_SECONDS  the longest a stop (SIGTERM, SIGINT) lasts, 0 to 3600 (default 30):
                                 answers still in flight after it are cut; keep a service manager's
                                 or Kubernetes' kill timeout above it
  WORKERS                        background job worker threads of serve (default 1; 0 = none), or of
                                 'gateway worker' (at least 1)
  Provider keys                  a default-catalog provider serves with the gateway's own key when its
                                 variable is set: OPENAI_API_KEY, ANTHROPIC_API_KEY, GROQ_API_KEY, ...;
                                 Azure OpenAI needs AZURE_RESOURCE_NAME and AZURE_API_KEY
                                 ('gateway config check' lists the active ones and the variables of each)

Signals (serve):
  SIGHUP                         re-read GATEWAY_CONFIG and apply providers, models and routing settings
                                 to new requests; requests in flight finish as they started. A bad file
                                 keeps the running configuration and logs why. Only this instance reloads.
  SIGTERM                        drain for balancers: /ready answers 503 at once, answers carry
                                 Connection: close, requests that still arrive are served; the
                                 listener closes once none came for 5 s (at the latest after half of
                                 GATEWAY_SHUTDOWN_GRACE_SECONDS), requests in flight finish within it;
                                 running jobs get up to 10 s, then go back to the queue; exit 0
  SIGINT                         the same without the 5 s wait: stop accepting at once, let requests
                                 in flight finish, exit 0

Exit codes: 0 success, 1 failure, 2 bad configuration or usage (one line per problem on stderr).
`;

/** A usage mistake on the command line: printed on one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
