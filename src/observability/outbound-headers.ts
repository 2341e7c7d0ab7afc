import pkg from "../../package.json" with { type: "json" };

/**
 * The headers of a request to a destination: the user's extra headers (`config.headers`) under
 * the type's own. A user header never replaces an auth header or the content type, whatever its
 * case; the headers the HTTP client sets itself are never taken from the user.
 */

/** Set by the HTTP client for the connection; refused in `config.headers` when saved. */
export const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
]);

export const USER_AGENT = `model-gateway-observability/${pkg.version}`;

export function destinationHeaders(userHeaders: Readonly<Record<string, string>> | undefined, own: Record<string, string>): Record<string, string> {
  const ours = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(userHeaders ?? {})) {
    const lower = name.toLowerCase();
    if (!ours.has(lower) && !RESERVED_HEADERS.has(lower)) out[name] = value;
  }
  return { ...out, ...own };
}
