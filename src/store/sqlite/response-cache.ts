import type { Database } from "bun:sqlite";
import type { ResponseCacheEntry, ResponseCacheStore } from "../response-cache-store";
import type { WriteStep } from "./client";

/** The response cache on SQLite: statements prepared once per connection, a lookup by primary key. */
export function sqliteResponseCacheStore(sqlite: Database, write: WriteStep): ResponseCacheStore {
  const byKey = sqlite.query<{ generationId: string; answer: string; createdAt: number }, { $key: string; $workspace: string; $now: number }>(
    `SELECT generation_id AS generationId, answer, created_at AS createdAt FROM response_cache
     WHERE key = $key AND workspace_id = $workspace AND expires_at > $now`,
  );
  const stats = sqlite.query<{ entries: number; bytes: number | null }, { $now: number }>(
    "SELECT count(*) AS entries, sum(bytes) AS bytes FROM response_cache WHERE expires_at > $now",
  );
  const statsOne = sqlite.query<{ entries: number; bytes: number | null }, { $now: number; $workspace: string }>(
    "SELECT count(*) AS entries, sum(bytes) AS bytes FROM response_cache WHERE expires_at > $now AND workspace_id = $workspace",
  );
  const clearOne = sqlite.query<never, { $workspace: string }>("DELETE FROM response_cache WHERE workspace_id = $workspace");
  const clearAll = sqlite.query("DELETE FROM response_cache");
  const purge = sqlite.query<never, { $now: number }>("DELETE FROM response_cache WHERE expires_at <= $now");
  return {
    get: async (workspaceId, key, now) => byKey.get({ $key: key, $workspace: workspaceId, $now: now }) ?? undefined,
    clear: (workspaceId) => write(() => (workspaceId === null ? clearAll.run() : clearOne.run({ $workspace: workspaceId })).changes),
    purgeExpired: (now) => write(() => purge.run({ $now: now }).changes),
    async stats(now, workspaceId) {
      const row = workspaceId === undefined ? stats.get({ $now: now }) : statsOne.get({ $now: now, $workspace: workspaceId });
      return { entries: row?.entries ?? 0, bytes: row?.bytes ?? 0 };
    },
  };
}

/** Stores an answer within the write step of the generation record that made it; a newer answer replaces the key's entry. */
export function cacheEntryWriter(sqlite: Database): (entry: ResponseCacheEntry) => void {
  const put = sqlite.query(
    `INSERT INTO response_cache (key, workspace_id, generation_id, answer, bytes, created_at, expires_at)
     VALUES ($key, $workspaceId, $generationId, $answer, $bytes, $createdAt, $expiresAt)
     ON CONFLICT(key) DO UPDATE SET workspace_id = excluded.workspace_id, generation_id = excluded.generation_id, answer = excluded.answer,
       bytes = excluded.bytes, created_at = excluded.created_at, expires_at = excluded.expires_at`,
  );
  return (entry) => void put.run({ ...entry });
}
