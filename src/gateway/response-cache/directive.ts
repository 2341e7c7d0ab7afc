import type { ResponseCacheConfig } from "../../config";
import { badRequest } from "../../errors";

/** The response cache's verdict on one answer, as its X-Gateway-Cache header says it. */
export type CacheStatus = "hit" | "miss" | "bypass";

/**
 * What one request asks of the response cache: `lookup` (serve an entry at most `maxAgeSeconds` old,
 * else call upstream and keep the answer), `refresh` (call upstream and keep the answer) or
 * `bypass` (neither).
 */
export type CacheDirective = { mode: "lookup"; maxAgeSeconds: number | null } | { mode: "refresh" } | { mode: "bypass" };

/** The request header that chooses, and the answer header that tells. */
export const CACHE_HEADER = "x-gateway-cache";

/**
 * Reads X-Gateway-Cache (on, off, refresh; any case) and Cache-Control's max-age. Null while the
 * cache is disabled: nothing is looked up or kept and neither header is read. Another value is a
 * 400 naming the header. `max-age=0` accepts no entry at all, so it asks for a fresh answer.
 */
export function cacheDirective(config: ResponseCacheConfig, headers: Headers): CacheDirective | null {
  if (!config.enabled) return null;
  const asked = headers.get(CACHE_HEADER);
  const mode = asked === null ? (config.defaultOn ? "on" : "off") : asked.trim().toLowerCase();
  if (mode === "off") return { mode: "bypass" };
  if (mode === "refresh") return { mode: "refresh" };
  if (mode !== "on") throw badRequest(`Invalid header 'X-Gateway-Cache': expected on, off or refresh (got "${asked}")`, { field: CACHE_HEADER });
  const maxAge = maxAgeSeconds(headers.get("cache-control"));
  if (maxAge === 0) return { mode: "refresh" };
  return { mode: "lookup", maxAgeSeconds: maxAge };
}

/**
 * The request's `max-age` directive in seconds, null without one. RFC 9111, section 5.2.1.1:
 * `max-age=delta-seconds`, also accepted in its quoted form; a malformed one is ignored.
 */
function maxAgeSeconds(cacheControl: string | null): number | null {
  if (cacheControl === null) return null;
  for (const directive of cacheControl.split(",")) {
    const match = /^\s*max-age\s*=\s*"?(\d+)"?\s*$/i.exec(directive);
    if (match) return Number(match[1]);
  }
  return null;
}
