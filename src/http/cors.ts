/**
 * CORS for the API: browsers may call /api/v1/* from any configured origin. The API is
 * authenticated by bearer keys, never by cookies, so credentials are never allowed and `*`
 * is a safe default.
 */
const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "x-api-key",
  "anthropic-version",
  "anthropic-beta",
  "anthropic-dangerous-direct-browser-access",
  "x-session-id",
  "x-service-experimental-metadata",
  "http-referer",
  "x-title",
  "x-openrouter-title",
  "x-stainless-arch",
  "x-stainless-lang",
  "x-stainless-os",
  "x-stainless-package-version",
  "x-stainless-retry-count",
  "x-stainless-runtime",
  "x-stainless-runtime-version",
  "x-stainless-timeout",
].join(", ");
const EXPOSED_HEADERS = "x-generation-id, retry-after, x-ratelimit-limit-requests, x-ratelimit-remaining-requests, x-ratelimit-reset-requests";
const ALLOWED_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const PREFLIGHT_MAX_AGE_S = "600";

export type CorsPolicy = { origins: readonly string[] };

/** The headers a response to `request` carries, or null when CORS does not apply (no Origin, not the API, origin not allowed). */
export function corsHeaders(policy: CorsPolicy, request: Request): Record<string, string> | null {
  const origin = request.headers.get("origin");
  if (!origin || !isApiPath(request.url)) return null;
  const any = policy.origins.includes("*");
  if (!any && !policy.origins.includes(origin)) return null;
  return {
    "access-control-allow-origin": any ? "*" : origin,
    "access-control-expose-headers": EXPOSED_HEADERS,
    ...(any ? {} : { vary: "Origin" }),
  };
}

/** The answer to a preflight request, or null when it is not one this policy answers. */
export function preflightResponse(policy: CorsPolicy, request: Request): Response | null {
  if (request.method !== "OPTIONS" || !request.headers.has("access-control-request-method")) return null;
  const headers = corsHeaders(policy, request);
  if (!headers) return null;
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": PREFLIGHT_MAX_AGE_S,
    },
  });
}

const isApiPath = (url: string): boolean => new URL(url).pathname.startsWith("/api/v1/");
