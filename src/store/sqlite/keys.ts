import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "./client";
import { apiKeys } from "./schema";
import type { ApiKeyRecord, ApiKeyStore } from "../store";
import type { ReadCache } from "./read-cache";

type Row = typeof apiKeys.$inferSelect;

const toRecord = ({ deletedAt: _deleted, ...row }: Row): ApiKeyRecord => row;

export function sqliteKeyStore(db: Db, cache: ReadCache<ApiKeyRecord>): ApiKeyStore {
  const live = isNull(apiKeys.deletedAt);
  // prepared once: the auth lookup of every request
  const byHash = db.select().from(apiKeys).where(and(eq(apiKeys.hash, sql.placeholder("hash")), live)).prepare();
  return {
    create(key) {
      db.insert(apiKeys).values(key).run();
      return key;
    },
    get(hash) {
      return cache.get(hash, () => {
        const row = byHash.get({ hash });
        return row ? toRecord(row) : undefined;
      });
    },
    list({ workspaceId, includeDisabled, offset, limit }) {
      const filters = [eq(apiKeys.workspaceId, workspaceId), live];
      if (!includeDisabled) filters.push(eq(apiKeys.disabled, false));
      return db
        .select()
        .from(apiKeys)
        .where(and(...filters))
        .orderBy(asc(apiKeys.createdAt), asc(apiKeys.hash))
        .limit(limit)
        .offset(offset)
        .all()
        .map(toRecord);
    },
    update(hash, patch, now) {
      cache.clear();
      const row = db.update(apiKeys).set({ ...patch, updatedAt: now }).where(and(eq(apiKeys.hash, hash), live)).returning().get();
      return row ? toRecord(row) : undefined;
    },
    delete(hash, now) {
      cache.clear();
      const row = db.update(apiKeys).set({ deletedAt: now, disabled: true }).where(and(eq(apiKeys.hash, hash), live)).returning().get();
      return row !== undefined;
    },
    reviveAsManagement(hash, now, workspaceId) {
      cache.clear();
      const row = db.update(apiKeys).set({ deletedAt: null, disabled: false, isManagement: true, expiresAt: null, updatedAt: now, workspaceId }).where(eq(apiKeys.hash, hash)).returning().get();
      return row !== undefined;
    },
    countManagement() {
      return db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.isManagement, true), live)).get()?.n ?? 0;
    },
  };
}
