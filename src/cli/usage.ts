export const USAGE = `gateway — a self-hosted, OpenRouter-compatible model gateway

Usage: gateway [command] [options]

Commands:
  serve                      start the HTTP server and WORKERS background job workers (default)
  worker                     run only the background job workers (WORKERS of them, at least 1), no HTTP
  migrate                    apply database migrations and exit
  keys create [--management] [--name N] [--workspace W] [--limit USD]
                             create an API key and print the raw key
  users add --id ID [--email E] [--name N] [--role admin|member]
                             add an organization user
  jobs list [--dead | --state S] [--kind K] [--limit N] [--offset N]
                             list background jobs, newest first, one JSON object per line
  jobs retry ID              run a dead job again now
  config check               validate the configuration and print it with secrets masked
  version                    print the version
  --help, -h                 show this help

Options:
  --config PATH              read gateway.yaml from PATH (default: GATEWAY_CONFIG, else ./gateway.yaml if present)

Environment: PORT, HOST, DATABASE_URL, GATEWAY_CONFIG, GATEWAY_ADMIN_KEY, GATEWAY_SECRET_KEY, LOG_LEVEL,
GATEWAY_MAX_BODY_MB, GATEWAY_FIRST_BYTE_TIMEOUT_MS, GATEWAY_CIRCUIT_FAILURES, GATEWAY_CIRCUIT_COOLDOWN_MS,
GATEWAY_ALLOW_PRIVATE_URLS, GATEWAY_DEFAULT_CATALOG, WORKERS (see README.md).
`;

/** A usage mistake on the command line: printed on one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
