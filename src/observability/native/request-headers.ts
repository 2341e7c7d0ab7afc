import pkg from "../../../package.json" with { type: "json" };
import type { Destination } from "../contract";

const USER_AGENT = `model-gateway-observability/${pkg.version}`;

/**
 * The headers of a request to a destination: our defaults, then the user's `headers` from the
 * config, then what the protocol and the credentials need. A user header never replaces an
 * auth or protocol header (reference §4: whatever its spelling), but may replace a default.
 */
export function destinationHeaders(destination: Destination, required: Record<string, string>, contentType: string | null = "application/json"): Record<string, string> {
  const fixed: Record<string, string> = { ...(contentType ? { "content-type": contentType } : {}), ...required };
  const fixedNames = new Set(Object.keys(fixed).map((name) => name.toLowerCase()));
  const headers: Record<string, string> = { "user-agent": USER_AGENT };
  for (const [name, value] of Object.entries(destination.config.headers ?? {})) {
    if (fixedNames.has(name.toLowerCase())) continue;
    if (name.toLowerCase() === "user-agent") delete headers["user-agent"];
    headers[name] = value;
  }
  return { ...headers, ...fixed };
}

/** `Authorization: Basic` of a user and password. */
export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
