/** Answers the response cache keeps (src/gateway/response-cache/): JSON text the store never reads into. */

export type ResponseCacheEntry = {
  /** a digest of the workspace and the request (src/gateway/response-cache/cache-key.ts) */
  key: string;
  workspaceId: string;
  /** the generation that made the answer */
  generationId: string;
  /** the answer as JSON */
  answer: string;
  /** UTF-8 length of `answer` */
  bytes: number;
  createdAt: number;
  expiresAt: number;
};

export type CachedEntry = Pick<ResponseCacheEntry, "generationId" | "answer" | "createdAt">;

/**
 * Written with the generation record that made the answer (SettledGeneration.cacheEntry, a newer
 * answer replacing an older one under the same key); read, emptied and pruned here.
 */
export interface ResponseCacheStore {
  /** the workspace's entry under `key`, unless it expired at `now` (ms) */
  get(workspaceId: string, key: string, now: number): Promise<CachedEntry | undefined>;
  /** removes every entry of the workspace (null: of every workspace), expired or not; returns how many */
  clear(workspaceId: string | null): Promise<number>;
  /** removes the entries expired at `now`; returns how many */
  purgeExpired(now: number): Promise<number>;
  /** the entries unexpired at `now`, and their bytes: of one workspace (a scan: no index on workspace_id), or of all */
  stats(now: number, workspaceId?: string): Promise<{ entries: number; bytes: number }>;
}
