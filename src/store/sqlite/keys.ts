import { count, eq, lte, sql } from "drizzle-orm";
import { apiKeyColumns, apiKeyRecord } from "../columns";
import { rotationStatements } from "../queries/key-rotation";
import { deletedKey, keyQueries, revivedManagementKey } from "../queries/keys";
import type { ApiKeyStore } from "../store";
import type { Db, SqliteWriter, WriteStep } from "./client";
import { order } from "./order";
import { apiKeyPreviousHashes, apiKeys } from "./schema";

export function sqliteKeyStore(db: Db, write: WriteStep, writer: SqliteWriter): ApiKeyStore {
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
        db.insert(apiKeys).values(apiKeyColumns(key)).run();
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
          .set({ ...apiKeyColumns(patch), updatedAt: now })
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
    rotate: ({ hash, newHash, label, previousValidUntil, now }) =>
      write(() =>
        writer.atomic(() => {
          const row = db.update(apiKeys).set({ hash: newHash, label, updatedAt: now }).where(q.byHash(hash)).returning().get();
          if (!row) return undefined;
          for (const rename of rotationStatements(hash, newHash)) db.run(rename);
          db.delete(apiKeyPreviousHashes).where(lte(apiKeyPreviousHashes.validUntil, now)).run();
          if (previousValidUntil !== null && previousValidUntil > now)
            db.insert(apiKeyPreviousHashes).values({ hash, keyHash: newHash, validUntil: previousValidUntil, createdAt: now }).run();
          return apiKeyRecord(row);
        }),
      ),
    async previous(hash) {
      const row = db.select().from(apiKeyPreviousHashes).where(eq(apiKeyPreviousHashes.hash, hash)).get();
      return row ? { keyHash: row.keyHash, validUntil: row.validUntil } : undefined;
    },
    deleteByCreator: (userId, now) =>
      write(() => db.update(apiKeys).set(deletedKey(now)).where(q.byCreator(userId)).returning({ hash: apiKeys.hash }).all().length),
  };
}
