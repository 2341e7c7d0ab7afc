import type { AppContext } from "../../app-context";
import type { ResponseCacheEntry } from "../../store/store";
import { cacheKey } from "./cache-key";
import { type CachedAnswer, readCachedAnswer } from "./cached-answer";
import { CACHE_HEADER, type CacheDirective, type CacheStatus } from "./directive";

/** An answer the cache serves: what it holds, the generation that made it, and its age. */
export type CacheHit = { answer: CachedAnswer; sourceId: string; ageSeconds: number };

/** The cache's verdict on a request, decided at admission: its status, the key to keep a new answer under (null: keep none), and a hit. */
export type CacheVerdict = { status: CacheStatus; key: string | null; hit: CacheHit | null };

type CacheDeps = Pick<AppContext, "store" | "logger">;

/**
 * Looks the request up as its directive says. A hit needs an unexpired entry of the workspace, no
 * older than the request's max-age, whose endpoint is among the request's candidates: an answer
 * is served only while the endpoint that made it may still serve this request (its model,
 * the request's provider preferences and the key's policies all allow it), else the request is a
 * miss and its new answer replaces the entry. A store that fails to answer is a miss.
 */
export async function consultCache(
  deps: CacheDeps,
  directive: CacheDirective,
  workspaceId: string,
  request: () => unknown,
  candidates: readonly { endpoint: { id: string } }[],
  now: number,
): Promise<CacheVerdict> {
  if (directive.mode === "bypass") return { status: "bypass", key: null, hit: null };
  const key = cacheKey(workspaceId, request());
  if (directive.mode === "refresh") return { status: "miss", key, hit: null };
  const entry = await deps.store.responseCache.get(workspaceId, key, now).catch((err: unknown) => {
    deps.logger.warn("response cache lookup failed: answered as a miss", { error: String(err) });
    return undefined;
  });
  const answer = entry ? readCachedAnswer(entry.answer) : null;
  // an age in whole seconds, as the Age header states it and max-age is compared with (RFC 9111, section 4.2.3)
  const ageSeconds = entry ? Math.floor(Math.max(0, now - entry.createdAt) / 1000) : 0;
  const fresh = directive.maxAgeSeconds === null || ageSeconds <= directive.maxAgeSeconds;
  if (!entry || !answer || !fresh || !candidates.some((c) => c.endpoint.id === answer.endpoint)) return { status: "miss", key, hit: null };
  return { status: "hit", key: null, hit: { answer, sourceId: entry.generationId, ageSeconds } };
}

/** X-Gateway-Cache (HIT, MISS, BYPASS) and, on a hit, Age in whole seconds. */
export function cacheHeaders(verdict: CacheVerdict | null): Record<string, string> {
  if (!verdict) return {};
  const status = { [CACHE_HEADER]: verdict.status.toUpperCase() };
  return verdict.hit ? { ...status, age: String(verdict.hit.ageSeconds) } : status;
}

/** The entry that keeps an answer, or null when it is larger than `maxEntryBytes` (it is then simply not kept). */
export function cacheEntry(
  verdict: { key: string | null },
  workspaceId: string,
  generationId: string,
  answer: CachedAnswer,
  limits: { ttlMs: number; maxEntryBytes: number },
  now: number,
): ResponseCacheEntry | null {
  if (verdict.key === null) return null;
  const text = JSON.stringify(answer);
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxEntryBytes) return null;
  return { key: verdict.key, workspaceId, generationId, answer: text, bytes, createdAt: now, expiresAt: now + limits.ttlMs };
}
