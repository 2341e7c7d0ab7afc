import { count, eq, sql } from "drizzle-orm";
import { apiKeyRecord, rateLimitColumns } from "../columns";
import { deletedKey, keyQueries, revivedManagementKey } from "../queries/keys";
import type { ApiKeyStore } from "../store";
import type { Db, WriteStep } from "./client";
import { order } from "./order";
import { apiKeys } from "./schema";

export function sqliteKeyStore(db: Db, write: WriteStep): ApiKeyStore {
  const q = keyQueries(apiKeys, order);
  // prepared once: the auth lookup of every request
  const byHash = db
    .select()
    .from(apiKeys)
    .where(q.byHash(sql.placeholder("hash")))
    .prepare();
  return {
    create: (key) =>
      write(() => {
        db.insert(apiKeys).values(rateLimitColumns(key)).run();
        return key;
      }),
    async get(hash) {
      const row = byHash.get({ hash });
      return row ? apiKeyRecord(row) : undefined;
    },
    async list({ workspaceId, includeDisabled, offset, limit }) {
      return db
        .select()
        .from(apiKeys)
        .where(q.listed(workspaceId, includeDisabled))
        .orderBy(...q.order)
        .limit(limit)
        .offset(offset)
        .all()
        .map(apiKeyRecord);
    },
    update: (hash, patch, now) =>
      write(() => {
        const row = db
          .update(apiKeys)
          .set({ ...rateLimitColumns(patch), updatedAt: now })
          .where(q.byHash(hash))
          .returning()
          .get();
        return row ? apiKeyRecord(row) : undefined;
      }),
    delete: (hash, now) => write(() => db.update(apiKeys).set(deletedKey(now)).where(q.byHash(hash)).returning().get() !== undefined),
    reviveAsManagement: (hash, now, workspaceId) =>
      write(() => db.update(apiKeys).set(revivedManagementKey(now, workspaceId)).where(eq(apiKeys.hash, hash)).returning().get() !== undefined),
    async countManagement() {
      return db.select({ n: count() }).from(apiKeys).where(q.management).get()?.n ?? 0;
    },
    async listByCreator(userId) {
      return db
        .select()
        .from(apiKeys)
        .where(q.byCreator(userId))
        .orderBy(...q.order)
        .all()
        .map(apiKeyRecord);
    },
    deleteByCreator: (userId, now) =>
      write(() => db.update(apiKeys).set(deletedKey(now)).where(q.byCreator(userId)).returning({ hash: apiKeys.hash }).all().length),
  };
}
