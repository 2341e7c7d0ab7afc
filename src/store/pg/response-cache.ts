import { and, count, eq, gt, lte, sql, sum } from "drizzle-orm";
import type { ResponseCacheStore } from "../response-cache-store";
import type { Conn } from "./client";
import { responseCache } from "./schema";

/** The response cache on PostgreSQL: a lookup by primary key; entries are written by the generation commit's statement. */
export function pgResponseCacheStore({ db }: Conn): ResponseCacheStore {
  const byKey = db
    .select({ generationId: responseCache.generationId, answer: responseCache.answer, createdAt: responseCache.createdAt })
    .from(responseCache)
    .where(
      and(
        eq(responseCache.key, sql.placeholder("key")),
        eq(responseCache.workspaceId, sql.placeholder("workspace")),
        gt(responseCache.expiresAt, sql.placeholder("now")),
      ),
    )
    .prepare("response_cache_get");
  return {
    async get(workspaceId, key, now) {
      const [row] = await byKey.execute({ key, workspace: workspaceId, now });
      return row;
    },
    async clear(workspaceId) {
      const gone = await db
        .delete(responseCache)
        .where(workspaceId === null ? undefined : eq(responseCache.workspaceId, workspaceId))
        .returning({ key: responseCache.key });
      return gone.length;
    },
    async purgeExpired(now) {
      const gone = await db.delete(responseCache).where(lte(responseCache.expiresAt, now)).returning({ key: responseCache.key });
      return gone.length;
    },
    async stats(now, workspaceId) {
      const unexpired = gt(responseCache.expiresAt, now);
      const [row] = await db
        .select({ entries: count(), bytes: sum(responseCache.bytes).mapWith(Number) })
        .from(responseCache)
        .where(workspaceId === undefined ? unexpired : and(unexpired, eq(responseCache.workspaceId, workspaceId)));
      return { entries: row?.entries ?? 0, bytes: row?.bytes ?? 0 };
    },
  };
}
